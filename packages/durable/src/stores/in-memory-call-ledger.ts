import type { ToolResult } from "@agent-tools/core";
import type { CallLedger, CallLedgerCall, CallLedgerClaim, CallLedgerEntry, CallLedgerKey } from "@agent-tools/core/durable";
import {
  type CallLedgerOutcome,
  checkAttempts,
  checkLedgerCall,
  checkLedgerKey,
  checkListLimit,
  checkOutcome,
  noEntryToRestart,
  resultFromJson,
} from "../domain/call-ledger-input.js";
import { canFinish, decideApprove, decideStart, newEntry } from "../domain/call-ledger-transitions.js";

/** An entry as this store keeps it: the result as JSON text, as the SQL stores keep it. */
type StoredEntry = Omit<CallLedgerEntry, "result"> & { readonly resultJson?: string };

/**
 * A {@link CallLedger} in memory, for tests and hosts that need the
 * executor's rules within one process (nothing survives the process).
 * Results go through JSON on the way in and out, so it answers exactly
 * what the SQLite and PostgreSQL stores answer. Each instance is its own
 * ledger; methods apply atomically (one synchronous step each).
 *
 * @example
 * const registry = createToolRegistry({ workdir, ledger: new InMemoryCallLedger() });
 * await registry.executeToolCall(call, { durable: { runId: "turn-1" } });
 */
export class InMemoryCallLedger implements CallLedger {
  readonly #runs = new Map<string, Map<string, StoredEntry>>();
  #lastNow = 0;

  /** {@inheritDoc CallLedger.get} */
  async get(key: CallLedgerKey): Promise<CallLedgerEntry | undefined> {
    const { runId, callId } = checkLedgerKey(key);
    const stored = this.#runs.get(runId)?.get(callId);
    return stored === undefined ? undefined : toEntry(stored);
  }

  /** {@inheritDoc CallLedger.approve} */
  async approve(call: CallLedgerCall): Promise<CallLedgerEntry> {
    const checked = checkLedgerCall(call);
    const stored = this.#stored(checked);
    const decision = decideApprove(stored && toEntry(stored), checked);
    if (decision === "insert") return toEntry(this.#put(newEntry(checked, "approved", this.#now())));
    if (decision === "mark") return toEntry(this.#put({ ...stored!, approved: true, updatedAt: this.#now() }));
    return toEntry(stored!);
  }

  /** {@inheritDoc CallLedger.start} */
  async start(call: CallLedgerCall, expectedAttempts: number): Promise<CallLedgerClaim> {
    const checked = checkLedgerCall(call);
    checkAttempts("expectedAttempts", expectedAttempts);
    const stored = this.#stored(checked);
    const decision = decideStart(stored && toEntry(stored), checked, expectedAttempts);
    if (decision.write === "insert") return { claimed: true, entry: toEntry(this.#put(newEntry(checked, "started", this.#now()))) };
    if (decision.write === "start")
      return { claimed: true, entry: toEntry(this.#put({ ...stored!, state: "started", attempts: decision.attempts, updatedAt: this.#now() })) };
    if (stored === undefined) throw noEntryToRestart(checked, expectedAttempts);
    return { claimed: false, entry: toEntry(stored) };
  }

  /** {@inheritDoc CallLedger.finish} */
  async finish(key: CallLedgerKey, attempt: number, outcome: CallLedgerOutcome): Promise<boolean> {
    const checked = checkLedgerKey(key);
    checkAttempts("attempt", attempt);
    const { state, resultJson } = checkOutcome(outcome);
    const stored = this.#stored(checked);
    if (!canFinish(stored && toEntry(stored), attempt)) return false;
    this.#put({ ...stored!, state, resultJson, updatedAt: this.#now() });
    return true;
  }

  /** {@inheritDoc CallLedger.list} */
  async list(runId: string, options?: { readonly limit?: number }): Promise<CallLedgerEntry[]> {
    const { runId: checkedRunId } = checkLedgerKey({ runId, callId: "-" });
    const limit = checkListLimit(options?.limit);
    const entries = [...(this.#runs.get(checkedRunId)?.values() ?? [])];
    entries.sort((left, right) => left.createdAt - right.createdAt || compareText(left.callId, right.callId));
    return entries.slice(0, limit).map(toEntry);
  }

  /** {@inheritDoc CallLedger.deleteRun} */
  async deleteRun(runId: string): Promise<number> {
    const { runId: checkedRunId } = checkLedgerKey({ runId, callId: "-" });
    const count = this.#runs.get(checkedRunId)?.size ?? 0;
    this.#runs.delete(checkedRunId);
    return count;
  }

  #stored(key: CallLedgerKey): StoredEntry | undefined {
    return this.#runs.get(key.runId)?.get(key.callId);
  }

  #put(entry: StoredEntry | CallLedgerEntry): StoredEntry {
    const { result, ...rest } = entry as CallLedgerEntry & { resultJson?: string };
    const stored: StoredEntry = rest;
    let run = this.#runs.get(stored.runId);
    if (run === undefined) this.#runs.set(stored.runId, (run = new Map()));
    run.set(stored.callId, stored);
    return stored;
  }

  /** Milliseconds, never going back within this ledger (a clock step back must not reorder `list`). */
  #now(): number {
    this.#lastNow = Math.max(this.#lastNow, Date.now());
    return this.#lastNow;
  }
}

/** Byte order of UTF-8, as SQLite's and PostgreSQL's "C" collation order text (code point order). */
function compareText(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
}

function toEntry(stored: StoredEntry): CallLedgerEntry {
  const { resultJson, ...rest } = stored;
  return resultJson === undefined ? { ...rest } : { ...rest, result: resultFromJson(resultJson) as ToolResult };
}
