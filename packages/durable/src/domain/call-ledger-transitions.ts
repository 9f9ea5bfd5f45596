/**
 * The call ledger's rules as pure functions of the stored entry, so the
 * memory store applies them directly and the SQL store's WHERE clauses can
 * be read against them. Invariants of a stored entry:
 * - identity (`toolName`, `argumentsHash`, `effects`) never changes;
 * - `approved` state has attempts 0; `started`, `completed`, `failed` have attempts >= 1;
 * - a result is present exactly in `completed` and `failed`, which are final.
 */
import type { CallLedgerCall, CallLedgerEntry, CallLedgerState } from "@agent-tools/core/durable";

/** True when `entry` records the same call (tool, arguments, effects) as `call`. */
export function sameIdentity(entry: CallLedgerCall, call: CallLedgerCall): boolean {
  return entry.toolName === call.toolName && entry.argumentsHash === call.argumentsHash && entry.effects === call.effects;
}

/** What `start` writes: a new entry, a move to `started` with these attempts, or nothing. */
export type StartWrite = { readonly write: "insert" } | { readonly write: "start"; readonly attempts: number } | { readonly write: "none" };

/**
 * The compare-and-set of `start`: expectedAttempts 0 inserts a missing entry
 * or starts an `approved` one (attempts 0 -> 1); N > 0 moves a `started`
 * entry with attempts N to N + 1. Another identity, a recorded outcome or a
 * different attempt count writes nothing.
 */
export function decideStart(stored: CallLedgerEntry | undefined, call: CallLedgerCall, expectedAttempts: number): StartWrite {
  if (stored === undefined) return expectedAttempts === 0 ? { write: "insert" } : { write: "none" };
  if (!sameIdentity(stored, call)) return { write: "none" };
  if (expectedAttempts === 0 && stored.state === "approved" && stored.attempts === 0) return { write: "start", attempts: 1 };
  if (expectedAttempts > 0 && stored.state === "started" && stored.attempts === expectedAttempts) return { write: "start", attempts: expectedAttempts + 1 };
  return { write: "none" };
}

/** The compare-and-set of `finish`: only a `started` entry at exactly this attempt records an outcome. */
export function canFinish(stored: CallLedgerEntry | undefined, attempt: number): boolean {
  return stored !== undefined && stored.state === "started" && stored.attempts === attempt;
}

/** What `approve` writes: a new `approved` entry, the `approved` flag on the stored one (any state), or nothing (another identity). */
export function decideApprove(stored: CallLedgerEntry | undefined, call: CallLedgerCall): "insert" | "mark" | "none" {
  if (stored === undefined) return "insert";
  return sameIdentity(stored, call) ? "mark" : "none";
}

/** A new entry for `call` in `state` (`approved` with attempts 0, or `started` with attempts 1). */
export function newEntry(call: CallLedgerCall, state: "approved" | "started", now: number): CallLedgerEntry {
  return {
    runId: call.runId,
    callId: call.callId,
    toolName: call.toolName,
    argumentsHash: call.argumentsHash,
    effects: call.effects,
    state,
    attempts: state === "started" ? 1 : 0,
    approved: state === "approved",
    createdAt: now,
    updatedAt: now,
  };
}

/** True when `entry` satisfies the invariants above (a reader's check of what a crash left). */
export function isConsistentEntry(entry: CallLedgerEntry): boolean {
  const states: readonly CallLedgerState[] = ["approved", "started", "completed", "failed"];
  if (!states.includes(entry.state) || !Number.isSafeInteger(entry.attempts)) return false;
  if (entry.state === "approved" ? entry.attempts !== 0 : entry.attempts < 1) return false;
  const final = entry.state === "completed" || entry.state === "failed";
  return final === (entry.result !== undefined);
}
