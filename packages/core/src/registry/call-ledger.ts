import type { ToolEffects, ToolResult } from "../types.js";

/** The values of {@link ToolEffects}. */
export const TOOL_EFFECTS: readonly ToolEffects[] = Object.freeze(["none", "idempotent", "unsafe"] as const);

/** The state of a call in the ledger. */
export type CallLedgerState = "approved" | "started" | "completed" | "failed";

/** A call's place in the ledger: the run (a turn, a workflow) and the provider's call id. */
export interface CallLedgerKey {
  readonly runId: string;
  readonly callId: string;
}

/** What identifies one call of a run beyond its key: a key reused for another call is a conflict. */
export interface CallLedgerCall extends CallLedgerKey {
  readonly toolName: string;
  /** SHA-256 (hex) of the call's validated arguments as canonical JSON (keys sorted). */
  readonly argumentsHash: string;
  readonly effects: ToolEffects;
}

/** One call as the ledger holds it. */
export interface CallLedgerEntry extends CallLedgerCall {
  readonly state: CallLedgerState;
  /** Times the call was started (0 while it is only approved). */
  readonly attempts: number;
  /** The host approved this very call (an `ask` answered yes); a resumed run does not ask again. */
  readonly approved: boolean;
  /** The result returned to the host, for `completed` and `failed` (stored as JSON). */
  readonly result?: ToolResult;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What {@link CallLedger.start} answers. */
export interface CallLedgerClaim {
  /** True when this writer started the call (`entry.attempts` is its attempt). */
  readonly claimed: boolean;
  /** The entry after the write, or the stored one when nothing was written. */
  readonly entry: CallLedgerEntry;
}

/**
 * The record of a run's tool calls that makes a crash explicit: a call is
 * written `started` before its tool runs and `completed` / `failed` with its
 * result after, each write durable before the method resolves, so a SIGKILL
 * at any instant leaves one of those states. Implementations:
 * `@agent-tools/durable` (memory, SQLite, PostgreSQL, one contract suite).
 *
 * Writes never change an entry's identity (`toolName`, `argumentsHash`,
 * `effects`): a write for a key whose stored identity differs writes nothing
 * and answers the stored entry, and the executor reports the conflict.
 */
export interface CallLedger {
  /** The entry of a call, or undefined. */
  get(key: CallLedgerKey): Promise<CallLedgerEntry | undefined>;
  /**
   * Records that the host approved the call: creates the entry as `approved`
   * when there is none, else sets `approved` (any state). Answers the entry.
   */
  approve(call: CallLedgerCall): Promise<CallLedgerEntry>;
  /**
   * Claims a run of the call, compare-and-set on its attempts: with
   * `expectedAttempts` 0, inserts the entry as `started` with attempts 1 (or
   * moves an `approved` entry with attempts 0 there); with N > 0, moves a
   * `started` entry whose attempts are N to attempts N + 1. Anything else
   * (an outcome recorded, another writer first, another identity) writes
   * nothing and answers `claimed: false` with the stored entry.
   */
  start(call: CallLedgerCall, expectedAttempts: number): Promise<CallLedgerClaim>;
  /**
   * Records the outcome of attempt `attempt`: only a `started` entry whose
   * attempts equal `attempt` moves to `state` with `result`. False when the
   * entry moved on (another writer), or is missing.
   */
  finish(key: CallLedgerKey, attempt: number, outcome: { readonly state: "completed" | "failed"; readonly result: ToolResult }): Promise<boolean>;
  /** The run's entries in creation order (then call id), at most `limit` (default 1,000). */
  list(runId: string, options?: { readonly limit?: number }): Promise<CallLedgerEntry[]>;
  /** Deletes a run's entries; answers how many. */
  deleteRun(runId: string): Promise<number>;
}

/** Per-call option of `executeToolCall`: record the call in the registry's ledger under this run. */
export interface DurableCallOptions {
  /** The run (a turn, a workflow, an engine's invocation); 1-200 characters. */
  readonly runId: string;
}
