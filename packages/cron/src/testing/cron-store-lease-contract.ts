import { describe, expect, it } from "vitest";
import { CRON_LIMITS } from "../domain/cron-types.js";
import { type CronStoreContractTarget, T0, bashTask, claim, promptTask, withStore } from "./cron-store-contract-fixtures.js";

const MINUTE = 60_000;

/** Leases (renew, finish by the owner only, takeover of lapsed leases, lease loss) and the prompt queue with its expiry. */
export function describeCronLeaseContract(target: CronStoreContractTarget): void {
  describe("leases", () => {
    it("renews a lease only for its owner while the run is leased", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const run = (await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0, leaseMs: 1_000 })))!;
        expect(await store.renewLease(run.id, "host-a", T0 + 50_000)).toBe(true);
        expect((await store.getRun(run.id))?.leaseExpiresAt).toBe(T0 + 50_000);
        expect(await store.renewLease(run.id, "host-b", T0 + 90_000)).toBe(false);
        expect((await store.getRun(run.id))?.leaseExpiresAt).toBe(T0 + 50_000);
        expect(await store.renewLease("run_missing000000", "host-a", T0)).toBe(false);
        await store.finishRun(run.id, "host-a", { success: true, finishedAt: T0 + 10, output: "" });
        expect(await store.renewLease(run.id, "host-a", T0 + 90_000)).toBe(false);
        const queued = (await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-a", { queue: true })))!;
        expect(await store.renewLease(queued.id, "host-a", T0 + 90_000)).toBe(false);
      });
    });

    it("finishes a run only for the lease owner: done, result, duration, lease cleared; a second finish is refused", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const run = (await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0 + 100 })))!;
        expect(await store.finishRun(run.id, "host-b", { success: true, finishedAt: T0 + 200, output: "not mine" })).toBe(false);
        expect(await store.getRun(run.id)).toEqual(run);
        expect(await store.finishRun(run.id, "host-a", { success: false, finishedAt: T0 + 1_600, exitCode: 2, output: "line 1\nline 2 é" })).toBe(true);
        const done = {
          id: run.id,
          taskId: task.id,
          scheduledAt: T0 + MINUTE,
          state: "done",
          success: false,
          startedAt: T0 + 100,
          finishedAt: T0 + 1_600,
          durationMs: 1_500,
          exitCode: 2,
          output: "line 1\nline 2 é",
        };
        expect(await store.getRun(run.id)).toEqual(done);
        expect(await store.finishRun(run.id, "host-a", { success: true, finishedAt: T0 + 2_000, output: "again" })).toBe(false);
        expect(await store.getRun(run.id)).toEqual(done);
        expect(await store.finishRun("run_missing000000", "host-a", { success: true, finishedAt: T0, output: "" })).toBe(false);
      });
    });

    it("keeps a null exit code (killed) apart from none, never reports a negative duration, and cuts output to the limit", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const killed = (await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0 + 500 })))!;
        await store.finishRun(killed.id, "host-a", { success: false, finishedAt: T0 + 400, exitCode: null, output: "killed" });
        expect(await store.getRun(killed.id)).toMatchObject({ exitCode: null, durationMs: 0, finishedAt: T0 + 400 });
        const http = (await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE)))!;
        const long = `${"a".repeat(CRON_LIMITS.outputMaxChars)}TAIL`;
        await store.finishRun(http.id, "host-a", { success: true, finishedAt: T0 + 3_000, output: long });
        const finished = await store.getRun(http.id);
        expect(finished).not.toHaveProperty("exitCode");
        expect(finished?.output).toHaveLength(CRON_LIMITS.outputMaxChars);
        expect(finished?.output).toBe("a".repeat(CRON_LIMITS.outputMaxChars));
        expect(finished?.success).toBe(true);
      });
    });

    it("takes over only leased runs whose lease lapsed before now, up to the limit; the old owner then loses the run", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const lapsedEarly = (await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0, leaseMs: 1_000 })))!;
        const lapsedLate = (await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-a", { now: T0, leaseMs: 2_000 })))!;
        const lapsedLast = (await store.claimOccurrence(claim(task.id, T0 + 3 * MINUTE, "host-a", { now: T0, leaseMs: 3_000 })))!;
        const atNow = (await store.claimOccurrence(claim(task.id, T0 + 4 * MINUTE, "host-a", { now: T0, leaseMs: 5_000 })))!;
        const alive = (await store.claimOccurrence(claim(task.id, T0 + 5 * MINUTE, "host-a", { now: T0, leaseMs: 60_000 })))!;
        const pending = (await store.claimOccurrence(claim(task.id, T0 + 6 * MINUTE, "host-a", { now: T0 - 99_000, queue: true })))!;
        const finished = (await store.claimOccurrence(claim(task.id, T0 + 7 * MINUTE, "host-a", { now: T0, leaseMs: 1 })))!;
        await store.finishRun(finished.id, "host-a", { success: true, finishedAt: T0 + 1, output: "" });

        const first = await store.takeOverExpiredLeases({ owner: "host-b", now: T0 + 5_000, leaseMs: 10_000, limit: 2 });
        expect(first.map((run) => run.id).sort()).toEqual([lapsedEarly.id, lapsedLate.id].sort());
        for (const run of first) expect(run).toMatchObject({ state: "leased", leaseOwner: "host-b", leaseExpiresAt: T0 + 15_000, startedAt: T0 });
        const second = await store.takeOverExpiredLeases({ owner: "host-c", now: T0 + 5_000, leaseMs: 10_000, limit: 10 });
        expect(second.map((run) => run.id)).toEqual([lapsedLast.id]);
        expect(await store.takeOverExpiredLeases({ owner: "host-c", now: T0 + 5_000, leaseMs: 10_000, limit: 10 })).toEqual([]);
        expect(await store.takeOverExpiredLeases({ owner: "host-c", now: T0 + 6_000, leaseMs: 10_000, limit: 0 })).toEqual([]);
        expect(await store.getRun(atNow.id)).toEqual(atNow);
        expect(await store.getRun(alive.id)).toEqual(alive);
        expect(await store.getRun(pending.id)).toEqual(pending);
        expect((await store.getRun(finished.id))?.state).toBe("done");

        // Lease loss: the old owner can neither renew nor finish; the new owner can.
        expect(await store.renewLease(lapsedEarly.id, "host-a", T0 + 99_000)).toBe(false);
        expect(await store.finishRun(lapsedEarly.id, "host-a", { success: true, finishedAt: T0 + 6_000, output: "late" })).toBe(false);
        expect(await store.finishRun(lapsedEarly.id, "host-b", { success: true, finishedAt: T0 + 6_000, output: "taken over" })).toBe(true);
        expect(await store.getRun(lapsedEarly.id)).toMatchObject({ state: "done", output: "taken over", durationMs: 6_000 });
      });
    });
  });

  describe("prompt queue", () => {
    it("hands the oldest pending run to one owner at a time, then none", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(promptTask({ remainingExecutions: null }), T0);
        expect(await store.claimQueuedRun({ owner: "runner", now: T0, leaseMs: 1_000 })).toBeUndefined();
        const newer = (await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0 + 20, queue: true })))!;
        const older = (await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-a", { now: T0 + 10, queue: true })))!;
        await store.claimOccurrence(claim(task.id, T0 + 3 * MINUTE, "host-a", { now: T0 }));
        const first = await store.claimQueuedRun({ owner: "runner-1", now: T0 + 100, leaseMs: 5_000 });
        expect(first).toEqual({ ...older, state: "leased", leaseOwner: "runner-1", leaseExpiresAt: T0 + 5_100 });
        expect(await store.getRun(older.id)).toEqual(first);
        const second = await store.claimQueuedRun({ owner: "runner-2", now: T0 + 200, leaseMs: 5_000 });
        expect(second?.id).toBe(newer.id);
        expect(await store.claimQueuedRun({ owner: "runner-3", now: T0 + 300, leaseMs: 5_000 })).toBeUndefined();
        expect(await store.finishRun(newer.id, "runner-2", { success: true, finishedAt: T0 + 1_020, output: "answer" })).toBe(true);
        expect(await store.getRun(newer.id)).toMatchObject({ state: "done", durationMs: 1_000 });
      });
    });

    it("expires pending runs queued before the cut-off (failed, finished now), leaving younger and running ones", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(promptTask({ remainingExecutions: null }), T0);
        const old = (await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0, queue: true })))!;
        const young = (await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-a", { now: T0 + 10 * MINUTE, queue: true })))!;
        const running = (await store.claimOccurrence(claim(task.id, T0 + 3 * MINUTE, "host-a", { now: T0 })))!;
        const expired = await store.expireQueuedRuns(T0 + 10 * MINUTE, T0 + 11 * MINUTE);
        expect(expired).toHaveLength(1);
        expect(expired[0]).toMatchObject({ id: old.id, state: "expired", success: false, finishedAt: T0 + 11 * MINUTE, durationMs: 11 * MINUTE });
        expect(await store.getRun(old.id)).toEqual(expired[0]);
        expect(await store.getRun(young.id)).toEqual(young);
        expect(await store.getRun(running.id)).toEqual(running);
        expect(await store.expireQueuedRuns(T0 + 10 * MINUTE, T0 + 12 * MINUTE)).toEqual([]);
        expect((await store.claimQueuedRun({ owner: "runner", now: T0 + 12 * MINUTE, leaseMs: 1 }))?.id).toBe(young.id);
        expect(await store.claimQueuedRun({ owner: "runner", now: T0 + 12 * MINUTE, leaseMs: 1 })).toBeUndefined();
        expect(await store.claimOccurrence(claim(task.id, T0 + MINUTE))).toBeUndefined();
      });
    });
  });
}
