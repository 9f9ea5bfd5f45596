/** How `history_since`/`history_until` and `history_date_local` apply to chat history. */
export type MemoryHistoryTimeMode = "message" | "updated" | "conversation";

/** A query of the host's chat history (the `include_history` part of a search). */
export interface MemoryHistoryQuery {
  readonly query: string;
  /** Epoch ms, inclusive. */
  readonly since?: number;
  /** Epoch ms, exclusive. */
  readonly until?: number;
  /** `YYYY-MM-DD` in the host's local time. */
  readonly dateLocal?: string;
  /** Which time the bounds apply to: each message's, the conversation's last update, or its start. Default `message`. */
  readonly timeMode?: MemoryHistoryTimeMode;
  readonly limit: number;
  readonly signal?: AbortSignal;
}

/** One chat-history hit. Shown to the model as untrusted text. */
export interface MemoryHistoryHit {
  readonly conversationId: string;
  readonly title?: string;
  /** The matching text (the host keeps it short). */
  readonly snippet: string;
  /** Epoch ms of the message. */
  readonly at?: number;
}

/**
 * The host's chat-history search, called when a search asks for
 * `include_history`. Without one, such searches say history is unavailable.
 */
export type MemoryHistorySearch = (query: MemoryHistoryQuery) => Promise<readonly MemoryHistoryHit[]>;
