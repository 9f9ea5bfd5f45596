import type { CallLedger, CallLedgerCall, CallLedgerClaim, CallLedgerEntry, CallLedgerKey } from "../call-ledger.js";
import type { ToolResult } from "../../types.js";

/**
 * A test double of core's CallLedger contract for the executor's own tests
 * (core cannot depend on @agent-tools/durable, whose stores run the contract
 * suite). Each method can be made to fail once through `failNext`.
 */
export class FixtureCallLedger implements CallLedger {
  readonly entries = new Map<string, CallLedgerEntry>();
  /** Method name -> error thrown by its next call. */
  readonly failNext = new Map<keyof CallLedger, Error>();
  readonly writes: string[] = [];

  async get(key: CallLedgerKey): Promise<CallLedgerEntry | undefined> {
    this.#maybeFail("get");
    return this.entries.get(this.#key(key));
  }

  async approve(call: CallLedgerCall): Promise<CallLedgerEntry> {
    this.#maybeFail("approve");
    this.writes.push(`approve ${call.callId}`);
    const stored = this.entries.get(this.#key(call));
    const now = Date.now();
    const next: CallLedgerEntry = stored
      ? this.#sameIdentity(stored, call)
        ? { ...stored, approved: true, updatedAt: now }
        : stored
      : { ...call, state: "approved", attempts: 0, approved: true, createdAt: now, updatedAt: now };
    this.entries.set(this.#key(call), next);
    return next;
  }

  async start(call: CallLedgerCall, expectedAttempts: number): Promise<CallLedgerClaim> {
    this.#maybeFail("start");
    const stored = this.entries.get(this.#key(call));
    const now = Date.now();
    const movable =
      stored === undefined
        ? expectedAttempts === 0
        : this.#sameIdentity(stored, call) &&
          stored.attempts === expectedAttempts &&
          (stored.state === "started" ? expectedAttempts > 0 : stored.state === "approved" && expectedAttempts === 0);
    if (!movable) return { claimed: false, entry: stored! };
    const entry: CallLedgerEntry = {
      ...(stored ?? { ...call, approved: false, createdAt: now }),
      state: "started",
      attempts: expectedAttempts + 1,
      updatedAt: now,
    };
    this.entries.set(this.#key(call), entry);
    this.writes.push(`start ${call.callId} ${entry.attempts}`);
    return { claimed: true, entry };
  }

  async finish(key: CallLedgerKey, attempt: number, outcome: { state: "completed" | "failed"; result: ToolResult }): Promise<boolean> {
    this.#maybeFail("finish");
    const stored = this.entries.get(this.#key(key));
    if (stored === undefined || stored.state !== "started" || stored.attempts !== attempt) return false;
    this.entries.set(this.#key(key), { ...stored, state: outcome.state, result: JSON.parse(JSON.stringify(outcome.result)), updatedAt: Date.now() });
    this.writes.push(`finish ${key.callId} ${outcome.state}`);
    return true;
  }

  async list(runId: string): Promise<CallLedgerEntry[]> {
    return [...this.entries.values()].filter((entry) => entry.runId === runId);
  }

  async deleteRun(runId: string): Promise<number> {
    let count = 0;
    for (const [key, entry] of this.entries) {
      if (entry.runId === runId) {
        this.entries.delete(key);
        count += 1;
      }
    }
    return count;
  }

  #key(key: CallLedgerKey): string {
    return JSON.stringify([key.runId, key.callId]);
  }

  #sameIdentity(stored: CallLedgerEntry, call: CallLedgerCall): boolean {
    return stored.toolName === call.toolName && stored.argumentsHash === call.argumentsHash;
  }

  #maybeFail(method: keyof CallLedger): void {
    const error = this.failNext.get(method);
    if (error === undefined) return;
    this.failNext.delete(method);
    throw error;
  }
}
