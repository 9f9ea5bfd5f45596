import type { CallLedger } from "@agent-tools/core/durable";
import { describe, expect, it } from "vitest";
import { runKeyAndListCases } from "./call-ledger-key-cases.js";
import { freshRunId, richResult, rejectsWith, sampleCall, textResult, viaJson } from "./call-ledger-samples.js";

/** How {@link runCallLedgerContract} reaches the ledger under test. */
export interface CallLedgerContractTarget {
  /** Opens a ledger; every call may return a new ledger (its own connection) over the same backend. */
  open(): Promise<CallLedger>;
  /** Releases a ledger the suite opened (and its storage); default: nothing. */
  dispose?(ledger: CallLedger): Promise<void>;
  /** True when ledgers from separate `open()` calls share one backend: races then run between two ledgers too. */
  sharedBackend?: boolean;
}

/**
 * The contract every `CallLedger` meets (see its JSDoc in
 * `@agent-tools/core/durable`): missing entries, `start` and `finish` as
 * compare-and-set on attempts (with racing writers, across two ledgers when
 * the backend is shared), identity never overwritten, `approve` in each
 * state, results that round-trip through JSON (images, any Unicode, large
 * details), odd and invalid keys, `list` order and limits, `deleteRun`.
 * Every test uses fresh run ids, so one backend serves all.
 *
 * @example
 * runCallLedgerContract("in-memory", { open: async () => new InMemoryCallLedger() });
 */
export function runCallLedgerContract(label: string, target: CallLedgerContractTarget): void {
  describe(`CallLedger contract: ${label}`, () => {
    async function withLedger(body: (ledger: CallLedger) => Promise<void>): Promise<void> {
      const ledger = await target.open();
      try {
        await body(ledger);
      } finally {
        await target.dispose?.(ledger);
      }
    }

    it("answers undefined, false and 0 for what was never written", async () => {
      await withLedger(async (ledger) => {
        const runId = freshRunId();
        expect(await ledger.get({ runId, callId: "c1" })).toBeUndefined();
        expect(await ledger.finish({ runId, callId: "c1" }, 1, { state: "completed", result: textResult("x") })).toBe(false);
        expect(await ledger.list(runId)).toEqual([]);
        expect(await ledger.deleteRun(runId)).toBe(0);
        await rejectsWith(ledger.start(sampleCall(runId, "c1"), 1), "invalid_options", /expectedAttempts/);
        expect(await ledger.get({ runId, callId: "c1" })).toBeUndefined();
      });
    });

    it("starts a new call once: attempts 1, not approved, its identity and times", async () => {
      await withLedger(async (ledger) => {
        const call = sampleCall(freshRunId(), "c1", { effects: "unsafe", toolName: "Bash" });
        const before = Date.now();
        const claim = await ledger.start(call, 0);
        expect(claim.claimed).toBe(true);
        expect(claim.entry).toMatchObject({ ...call, state: "started", attempts: 1, approved: false });
        expect(claim.entry.result).toBeUndefined();
        expect(claim.entry.createdAt).toBeGreaterThanOrEqual(before - 1000);
        expect(claim.entry.updatedAt).toBe(claim.entry.createdAt);
        expect(await ledger.get(call)).toEqual(claim.entry);
        // Starting again as new is refused and changes nothing.
        const again = await ledger.start(call, 0);
        expect(again).toEqual({ claimed: false, entry: claim.entry });
      });
    });

    it("restarts a started call only at its attempt count (compare-and-set)", async () => {
      await withLedger(async (ledger) => {
        const call = sampleCall(freshRunId(), "c1");
        await ledger.start(call, 0);
        const second = await ledger.start(call, 1);
        expect(second.claimed).toBe(true);
        expect(second.entry).toMatchObject({ state: "started", attempts: 2 });
        expect(second.entry.updatedAt).toBeGreaterThanOrEqual(second.entry.createdAt);
        for (const stale of [0, 1, 3]) {
          const refused = await ledger.start(call, stale);
          expect(refused.claimed, `expectedAttempts ${stale}`).toBe(false);
          expect(refused.entry).toEqual(second.entry);
        }
        expect((await ledger.start(call, 2)).entry.attempts).toBe(3);
      });
    });

    it("finishes only the attempt that is running, once", async () => {
      await withLedger(async (ledger) => {
        const call = sampleCall(freshRunId(), "c1");
        await ledger.start(call, 0);
        await ledger.start(call, 1);
        // Attempt 1 was taken over by attempt 2: its outcome is refused.
        expect(await ledger.finish(call, 1, { state: "completed", result: textResult("stale") })).toBe(false);
        expect(await ledger.finish(call, 3, { state: "completed", result: textResult("future") })).toBe(false);
        expect((await ledger.get(call))?.state).toBe("started");
        expect(await ledger.finish(call, 2, { state: "completed", result: textResult("done") })).toBe(true);
        const done = await ledger.get(call);
        expect(done).toMatchObject({ state: "completed", attempts: 2, result: textResult("done") });
        // Final: neither another outcome nor a new start writes.
        expect(await ledger.finish(call, 2, { state: "failed", result: textResult("late", true) })).toBe(false);
        expect(await ledger.start(call, 0)).toEqual({ claimed: false, entry: done });
        expect(await ledger.start(call, 2)).toEqual({ claimed: false, entry: done });
        expect(await ledger.get(call)).toEqual(done);
      });
    });

    it("records a failed outcome with its error result", async () => {
      await withLedger(async (ledger) => {
        const call = sampleCall(freshRunId(), "c1");
        await ledger.start(call, 0);
        const failed = textResult("cancelled by the host", true);
        expect(await ledger.finish(call, 1, { state: "failed", result: failed })).toBe(true);
        expect(await ledger.get(call)).toMatchObject({ state: "failed", attempts: 1, result: failed });
      });
    });

    it("never overwrites a call's identity", async () => {
      await withLedger(async (ledger) => {
        const runId = freshRunId();
        const call = sampleCall(runId, "c1");
        const stored = (await ledger.start(call, 0)).entry;
        const others = [
          sampleCall(runId, "c1", { toolName: "Edit" }),
          sampleCall(runId, "c1", { argumentsHash: "b".repeat(64) }),
          sampleCall(runId, "c1", { effects: "unsafe" }),
        ];
        for (const other of others) {
          expect(await ledger.start(other, 0)).toEqual({ claimed: false, entry: stored });
          expect(await ledger.start(other, 1)).toEqual({ claimed: false, entry: stored });
          expect(await ledger.approve(other)).toEqual(stored);
        }
        expect(await ledger.get(call)).toEqual(stored);
        // An approved entry keeps its identity too.
        const approvedCall = sampleCall(runId, "c2");
        const approved = await ledger.approve(approvedCall);
        expect(await ledger.start(sampleCall(runId, "c2", { toolName: "Bash" }), 0)).toEqual({ claimed: false, entry: approved });
        expect(await ledger.get(approvedCall)).toEqual(approved);
      });
    });

    it("approves in every state without changing state, attempts or result", async () => {
      await withLedger(async (ledger) => {
        const runId = freshRunId();
        // Missing: created as approved, attempts 0; approving again is idempotent.
        const fresh = sampleCall(runId, "approved-first");
        const approved = await ledger.approve(fresh);
        expect(approved).toMatchObject({ ...fresh, state: "approved", attempts: 0, approved: true });
        expect(approved.result).toBeUndefined();
        expect(await ledger.get(fresh)).toEqual(approved);
        expect(await ledger.approve(fresh)).toMatchObject({ state: "approved", attempts: 0, approved: true, createdAt: approved.createdAt });
        // approved -> started keeps the flag.
        expect(await ledger.start(fresh, 1)).toMatchObject({ claimed: false });
        const started = await ledger.start(fresh, 0);
        expect(started.claimed).toBe(true);
        expect(started.entry).toMatchObject({ state: "started", attempts: 1, approved: true, createdAt: approved.createdAt });
        // Started without approval, then approved: still started.
        const running = sampleCall(runId, "started-first");
        await ledger.start(running, 0);
        expect(await ledger.approve(running)).toMatchObject({ state: "started", attempts: 1, approved: true });
        // Completed and failed: the flag is set, the outcome stays.
        for (const state of ["completed", "failed"] as const) {
          const call = sampleCall(runId, `${state}-first`);
          await ledger.start(call, 0);
          const result = textResult(state, state === "failed");
          await ledger.finish(call, 1, { state, result });
          const entry = await ledger.approve(call);
          expect(entry).toMatchObject({ state, attempts: 1, approved: true, result });
          expect(await ledger.get(call)).toEqual(entry);
        }
      });
    });

    it("lets exactly one of several racing writers claim a new call, a restart and an outcome", async () => {
      await withLedger(async (ledger) => {
        const second = target.sharedBackend ? await target.open() : ledger;
        try {
          for (let round = 0; round < 3; round += 1) {
            const call = sampleCall(freshRunId(), "race");
            const writers = [ledger, second, ledger, second, ledger, second];
            const claims = await Promise.all(writers.map((writer) => writer.start(call, 0)));
            expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
            for (const claim of claims) expect(claim.entry).toMatchObject({ state: "started", attempts: 1 });
            // Approved first, then raced: still one.
            const approvedCall = sampleCall(call.runId, "race-approved");
            await second.approve(approvedCall);
            const fromApproved = await Promise.all(writers.map((writer) => writer.start(approvedCall, 0)));
            expect(fromApproved.filter((claim) => claim.claimed)).toHaveLength(1);
            const restarts = await Promise.all(writers.map((writer) => writer.start(call, 1)));
            expect(restarts.filter((claim) => claim.claimed)).toHaveLength(1);
            expect((await ledger.get(call))?.attempts).toBe(2);
            const outcomes = await Promise.all(
              writers.map((writer, index) => writer.finish(call, 2, { state: "completed", result: textResult(`writer ${index}`) })),
            );
            expect(outcomes.filter(Boolean)).toHaveLength(1);
            expect((await second.get(call))?.result).toEqual(textResult(`writer ${outcomes.indexOf(true)}`));
          }
        } finally {
          if (second !== ledger) await target.dispose?.(second);
        }
      });
    });

    if (target.sharedBackend) {
      it("shows one ledger's writes to another on the same backend", async () => {
        await withLedger(async (ledger) => {
          const other = await target.open();
          try {
            const call = sampleCall(freshRunId(), "c1");
            await ledger.start(call, 0);
            expect(await other.finish(call, 1, { state: "completed", result: textResult("from the other") })).toBe(true);
            expect(await ledger.get(call)).toMatchObject({ state: "completed", result: textResult("from the other") });
            expect(await other.deleteRun(call.runId)).toBe(1);
            expect(await ledger.get(call)).toBeUndefined();
          } finally {
            await target.dispose?.(other);
          }
        });
      });
    }

    it("round-trips results with images, any Unicode and large details, as JSON", async () => {
      await withLedger(async (ledger) => {
        const call = sampleCall(freshRunId(), "rich");
        await ledger.start(call, 0);
        const result = richResult();
        expect(await ledger.finish(call, 1, { state: "completed", result })).toBe(true);
        const stored = await ledger.get(call);
        expect(stored?.result).toEqual(viaJson(result));
        // Values JSON drops are dropped, on every backend alike.
        const dropping = sampleCall(call.runId, "dropping");
        await ledger.start(dropping, 0);
        const withUndefined = { ...textResult("u"), details: { kept: 1, dropped: undefined, nan: Number.NaN } };
        await ledger.finish(dropping, 1, { state: "completed", result: withUndefined });
        expect((await ledger.get(dropping))?.result).toEqual({ ...textResult("u"), details: { kept: 1, nan: null } });
        // Answers are copies: changing one changes nothing stored.
        (stored!.result!.content[0] as { text: string }).text = "changed";
        expect((await ledger.get(call))?.result).toEqual(viaJson(result));
        const listed = await ledger.list(call.runId);
        expect(listed.find((entry) => entry.callId === "rich")?.result).toEqual(viaJson(result));
      });
    });

    it("refuses a result JSON cannot write, and writes nothing", async () => {
      await withLedger(async (ledger) => {
        const call = sampleCall(freshRunId(), "c1");
        await ledger.start(call, 0);
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        await rejectsWith(ledger.finish(call, 1, { state: "completed", result: { ...textResult("x"), details: cyclic } }), "invalid_options", /JSON/);
        await rejectsWith(ledger.finish(call, 1, { state: "completed", result: { ...textResult("x"), details: { big: 1n } } }), "invalid_options", /JSON/);
        await rejectsWith(ledger.finish(call, 1, { state: "completed", result: "text" as never }), "invalid_options", /result/);
        await rejectsWith(ledger.finish(call, 1, { state: "started" as never, result: textResult("x") }), "invalid_options", /state/);
        expect(await ledger.get(call)).toMatchObject({ state: "started", attempts: 1 });
        expect((await ledger.get(call))?.result).toBeUndefined();
      });
    });

    runKeyAndListCases(withLedger);

    it("deletes one run's entries and answers how many; the keys are free again", async () => {
      await withLedger(async (ledger) => {
        const runId = freshRunId();
        const other = freshRunId();
        const call = sampleCall(runId, "c1");
        await ledger.start(call, 0);
        await ledger.finish(call, 1, { state: "completed", result: textResult("one") });
        await ledger.approve(sampleCall(runId, "c2"));
        await ledger.start(sampleCall(runId, "c3"), 0);
        await ledger.start(sampleCall(other, "c1"), 0);
        expect(await ledger.deleteRun(runId)).toBe(3);
        expect(await ledger.list(runId)).toEqual([]);
        expect(await ledger.get(call)).toBeUndefined();
        expect(await ledger.deleteRun(runId)).toBe(0);
        expect(await ledger.list(other)).toHaveLength(1);
        const again = await ledger.start(sampleCall(runId, "c1", { toolName: "Edit" }), 0);
        expect(again.claimed).toBe(true);
        expect(again.entry).toMatchObject({ toolName: "Edit", attempts: 1, approved: false });
        await rejectsWith(ledger.deleteRun(""), "invalid_options", /runId/);
      });
    });
  });
}
