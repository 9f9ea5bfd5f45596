import type { CallLedger, CallLedgerCall, CallLedgerKey } from "@agent-tools/core/durable";

/**
 * A ledger whose `finish` fails: the call stays `started` with no outcome,
 * as a host killed right after its tool returned leaves it. Everything else
 * goes to `inner`.
 */
export class FinishFailingLedger implements CallLedger {
  constructor(private readonly inner: CallLedger) {}
  get(key: CallLedgerKey) {
    return this.inner.get(key);
  }
  approve(call: CallLedgerCall) {
    return this.inner.approve(call);
  }
  start(call: CallLedgerCall, expectedAttempts: number) {
    return this.inner.start(call, expectedAttempts);
  }
  finish(): Promise<boolean> {
    return Promise.reject(new Error("the host died before recording the outcome"));
  }
  list(runId: string, options?: { readonly limit?: number }) {
    return this.inner.list(runId, options);
  }
  deleteRun(runId: string) {
    return this.inner.deleteRun(runId);
  }
}
