import type { SubagentIdentity, SubagentMessage, SubagentRunRecord } from "../domain/subagent-types.js";

/** A message to append; the store assigns `seq` and `createdAt` when absent. */
export type NewSubagentMessage = Omit<SubagentMessage, "seq" | "createdAt"> & { readonly createdAt?: number };

/**
 * Where subagents persist, per parent conversation: identities (the roster),
 * runs (with the context to resume from) and the message bus.
 *
 * Implementations: `KyselySubagentStore` (SQLite and PostgreSQL) and
 * `InMemorySubagentStore`; `runSubagentStoreContract` (at
 * `@agent-tools/subagents/testing`) checks any of them.
 *
 * Ids are compared case-insensitively (an identity keeps the case it was
 * created with). Every method rejects only when the backend fails.
 */
export interface SubagentStore {
  /** Inserts or replaces an identity (matched case-insensitively). */
  upsertIdentity(conversationId: string, identity: SubagentIdentity): Promise<void>;
  /** Every identity of the conversation, sorted by id (byte order). */
  listIdentities(conversationId: string): Promise<readonly SubagentIdentity[]>;
  /**
   * Inserts or replaces a run by `runId`. Saves of one run are applied in
   * call order by the caller; the store need not serialise them.
   */
  saveRun(conversationId: string, run: SubagentRunRecord): Promise<void>;
  /** One run, or undefined. */
  loadRun(conversationId: string, runId: string): Promise<SubagentRunRecord | undefined>;
  /**
   * Runs, newest `startedAt` first; `agentId` (case-insensitive) narrows to
   * one agent; `limit` default 50. With `withMessages: false` the records'
   * `messages` may be empty (cheap listing).
   */
  listRuns(
    conversationId: string,
    options?: { readonly agentId?: string; readonly limit?: number; readonly withMessages?: boolean },
  ): Promise<readonly SubagentRunRecord[]>;
  /** Deletes all but the newest `keepPerAgent` runs of each agent; resolves the number deleted. */
  pruneRuns(conversationId: string, keepPerAgent: number): Promise<number>;
  /**
   * Appends a message and resolves it with its `seq`: 1 for the first of the
   * conversation, then strictly increasing, unique even when several
   * processes append at once.
   */
  appendMessage(conversationId: string, message: NewSubagentMessage): Promise<SubagentMessage>;
  /** Messages with `seq > afterSeq` (default 0), ascending, at most `limit` (default 80). */
  listMessages(conversationId: string, options?: { readonly afterSeq?: number; readonly limit?: number }): Promise<readonly SubagentMessage[]>;
  /** Releases what the store itself opened (never a storage it was given). */
  close?(): Promise<void>;
}
