/**
 * The view state of the chat page: everything the components render, built
 * from the conversation's event stream by {@link applyEvent}. Plain data, so
 * it is unit tested without a browser.
 */

/** What the page knows about the executing host (null while none is connected). */
export interface HostInfo {
  model: string;
  workdir: string;
}

/** A message the user sent: `pending` until the host's `turn-start` echoes its id, `failed` when the gateway refused it. */
export interface UserMessageItem {
  kind: "user";
  /** Unique key of the item. */
  key: string;
  messageId: string;
  text: string;
  delivery: "pending" | "delivered" | "failed";
}

/** The assistant text of one model turn, streamed from `model-text-delta`. */
export interface AssistantMessageItem {
  kind: "assistant";
  key: string;
  /** The user message whose turn produced it. */
  messageId: string;
  /** The model turn within that user turn (1-based). */
  turn: number;
  text: string;
  /** True after `model-end`. */
  done: boolean;
}

/** Shown as `data-status` on a tool card. */
export type ToolCardStatus = "running" | "done" | "error" | "cancelled";

/** A chunk of streamed tool output; adjacent chunks of one stream are merged. */
export interface OutputChunk {
  stream: "stdout" | "stderr" | "text";
  text: string;
}

/** The end of a tool call as `tool-end` reported it. */
export interface ToolResultView {
  isError: boolean;
  text: string;
  details: unknown;
  durationMs: number;
}

/** One tool call, from `tool-start` through `tool-output` to `tool-end`. */
export interface ToolCallItem {
  kind: "tool";
  key: string;
  callId: string;
  toolName: string;
  arguments: unknown;
  status: ToolCardStatus;
  output: OutputChunk[];
  /** The newest structured progress (`update.data`), if any. */
  progress?: unknown;
  result?: ToolResultView;
}

/** A note from the host, a model error, or the end of a turn that did not answer. */
export interface NoticeItem {
  kind: "notice";
  key: string;
  level: "info" | "warning" | "error";
  message: string;
}

/** One entry of the chat, in arrival order. */
export type ChatItem = UserMessageItem | AssistantMessageItem | ToolCallItem | NoticeItem;

/** An approval the host is waiting for. */
export interface ApprovalView {
  requestId: string;
  callId: string;
  toolName: string;
  arguments: unknown;
  reason?: string;
}

/** `idle` before the first turn, `running` during one, then the last turn's end status. */
export type TurnStatus = "idle" | "running" | "answered" | "max-turns" | "model-error" | "aborted";

/** The state of the page's WebSocket to the gateway. */
export type SocketStatus = "connecting" | "open" | "closed";

/** Everything the chat page renders. */
export interface ViewState {
  /** The highest sequence number applied; replayed events at or below it are ignored. */
  lastSeq: number;
  items: ChatItem[];
  /** Index into `items` of each tool call, by `<user message id>:<call id>`. */
  toolIndex: Record<string, number>;
  approvals: ApprovalView[];
  turnStatus: TurnStatus;
  /** The user message of the running (or last) turn. */
  currentMessageId?: string;
  host: HostInfo | null;
  socket: SocketStatus;
  /** The newest error the gateway reported (refused command, ...), until the next command. */
  gatewayError?: string;
}

/** The state of a page that has seen nothing yet. */
export function createInitialViewState(): ViewState {
  return { lastSeq: 0, items: [], toolIndex: {}, approvals: [], turnStatus: "idle", host: null, socket: "connecting" };
}
