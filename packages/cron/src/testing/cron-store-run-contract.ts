import { describe, expect, it } from "vitest";
import { CRON_LIMITS } from "../domain/cron-types.js";
import { type CronStoreContractTarget, T0, bashTask, claim, promptTask, withStore } from "./cron-store-contract-fixtures.js";

const MINUTE = 60_000;

/** Runs: the claim (and its decrement), leases, takeover, finishing, the prompt queue, listing and pruning. */
export function describeCronRunContract(target: CronStoreContractTarget): void {
  describe("claims", () => {
    it("claims an occurrence once: a leased run for the owner; a second claim of it by anyone gets nothing", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const run = await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0 + 5, leaseMs: 30_000 }));
        expect(run?.id).toMatch(/^run_[0-9a-z]{12}$/);
        expect(run).toEqual({
          id: run!.id,
          taskId: task.id,
          scheduledAt: T0 + MINUTE,
          state: "leased",
          success: false,
          startedAt: T0 + 5,
          durationMs: 0,
          output: "",
          leaseOwner: "host-a",
          leaseExpiresAt: T0 + 5 + 30_000,
        });
        expect(await store.getRun(run!.id)).toEqual(run);
        expect(await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-b"))).toBeUndefined();
        expect(await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { queue: true }))).toBeUndefined();
        const next = await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-b"));
        expect(next?.leaseOwner).toBe("host-b");
        expect(next?.id).not.toBe(run!.id);
        expect(await store.listRuns(task.id)).toHaveLength(2);
        expect((await store.getTask(task.id))?.version).toBe(1);
      });
    });

    it("queues a prompt occurrence as pending, without owner or lease", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(promptTask({ remainingExecutions: null }), T0);
        const run = await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0 + 9, queue: true }));
        expect(run).toEqual({
          id: run!.id,
          taskId: task.id,
          scheduledAt: T0 + MINUTE,
          state: "pending",
          success: false,
          startedAt: T0 + 9,
          durationMs: 0,
          output: "",
        });
        expect(await store.getRun(run!.id)).toEqual(run);
      });
    });

    it("refuses occurrences of a task that is gone, disabled or exhausted", async () => {
      await withStore(target, async (store) => {
        expect(await store.claimOccurrence(claim("cron_missing00000", T0))).toBeUndefined();
        const disabled = await store.createTask(bashTask({ enabled: false }), T0);
        expect(await store.claimOccurrence(claim(disabled.id, T0))).toBeUndefined();
        const exhausted = await store.createTask(bashTask({ remainingExecutions: 0 }), T0);
        expect(await store.claimOccurrence(claim(exhausted.id, T0))).toBeUndefined();
        expect(await store.claimOccurrence(claim(exhausted.id, T0, "host-a", { queue: true }))).toBeUndefined();
        expect(await store.listRuns(disabled.id)).toEqual([]);
        expect(await store.listRuns(exhausted.id)).toEqual([]);
        expect((await store.getTask(exhausted.id))?.remainingExecutions).toBe(0);
        await store.updateTask(disabled.id, { enabled: true }, T0 + 1);
        expect(await store.claimOccurrence(claim(disabled.id, T0))).toBeDefined();
      });
    });

    it("decrements remainingExecutions per claim down to 0 and then refuses; a lost claim decrements nothing; null stays unlimited", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask({ remainingExecutions: 2 }), T0);
        expect(await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-a", { now: T0 + 1 }))).toBeDefined();
        expect(await store.getTask(task.id)).toMatchObject({ remainingExecutions: 1, version: 2, updatedAt: T0 + 1 });
        expect(await store.claimOccurrence(claim(task.id, T0 + MINUTE, "host-b", { now: T0 + 2 }))).toBeUndefined();
        expect(await store.getTask(task.id)).toMatchObject({ remainingExecutions: 1, version: 2 });
        expect(await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-b", { now: T0 + 3, queue: true }))).toBeDefined();
        expect(await store.getTask(task.id)).toMatchObject({ remainingExecutions: 0, version: 3, enabled: true });
        expect(await store.claimOccurrence(claim(task.id, T0 + 3 * MINUTE))).toBeUndefined();
        expect((await store.getTask(task.id))?.remainingExecutions).toBe(0);
        expect(await store.listRuns(task.id)).toHaveLength(2);

        const unlimited = await store.createTask(bashTask({ remainingExecutions: null }), T0);
        for (let index = 1; index <= 3; index += 1) expect(await store.claimOccurrence(claim(unlimited.id, T0 + index * MINUTE))).toBeDefined();
        expect(await store.getTask(unlimited.id)).toMatchObject({ remainingExecutions: null, version: 1 });
      });
    });

    it("reports the latest claimed occurrence of a task", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const other = await store.createTask(bashTask(), T0);
        expect(await store.lastScheduledAt(task.id)).toBeUndefined();
        await store.claimOccurrence(claim(task.id, T0 + 5 * MINUTE));
        await store.claimOccurrence(claim(task.id, T0 + 2 * MINUTE, "host-a", { queue: true }));
        await store.claimOccurrence(claim(other.id, T0 + 9 * MINUTE));
        expect(await store.lastScheduledAt(task.id)).toBe(T0 + 5 * MINUTE);
        expect(await store.lastScheduledAt(other.id)).toBe(T0 + 9 * MINUTE);
      });
    });
  });

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

  describe("run log", () => {
    it("lists a task's runs newest occurrence first, with a limit", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const other = await store.createTask(bashTask(), T0);
        for (const minute of [3, 1, 4, 2]) await store.claimOccurrence(claim(task.id, T0 + minute * MINUTE, "host-a", { now: T0 + (10 - minute) }));
        await store.claimOccurrence(claim(other.id, T0 + 9 * MINUTE));
        expect((await store.listRuns(task.id)).map((run) => run.scheduledAt)).toEqual([4, 3, 2, 1].map((minute) => T0 + minute * MINUTE));
        expect((await store.listRuns(task.id, { limit: 2 })).map((run) => run.scheduledAt)).toEqual([T0 + 4 * MINUTE, T0 + 3 * MINUTE]);
        expect(await store.listRuns(task.id, { limit: 0 })).toEqual([]);
        expect(await store.listRuns("cron_missing00000")).toEqual([]);
      });
    });

    it("prunes finished runs beyond the newest N per task and older than the cut-off, never pending or leased ones", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const other = await store.createTask(promptTask({ remainingExecutions: null }), T0);
        const finishedIds: string[] = [];
        for (let minute = 1; minute <= 5; minute += 1) {
          const run = (await store.claimOccurrence(claim(task.id, T0 + minute * MINUTE, "host-a", { now: T0 + minute * MINUTE })))!;
          await store.finishRun(run.id, "host-a", { success: true, finishedAt: T0 + minute * MINUTE + 1, output: `${minute}` });
          finishedIds.push(run.id);
        }
        const leasedOld = (await store.claimOccurrence(claim(task.id, T0 - 9 * MINUTE, "host-a", { now: T0 - 9 * MINUTE })))!;
        const pendingOld = (await store.claimOccurrence(claim(other.id, T0 - 8 * MINUTE, "host-a", { now: T0 - 8 * MINUTE, queue: true })))!;
        const expiredOld = (await store.claimOccurrence(claim(other.id, T0 - 7 * MINUTE, "host-a", { now: T0 - 7 * MINUTE, queue: true })))!;
        const otherDone = (await store.claimOccurrence(claim(other.id, T0 + MINUTE, "host-a", { now: T0 + MINUTE })))!;
        await store.finishRun(otherDone.id, "host-a", { success: true, finishedAt: T0 + MINUTE, output: "" });
        await store.expireQueuedRuns(T0 - 7 * MINUTE + 1, T0);
        // Both old queued runs expired (queued before the cut-off); a new one stays pending.
        expect((await store.getRun(pendingOld.id))?.state).toBe("expired");
        const stillPending = (await store.claimOccurrence(claim(other.id, T0 - 6 * MINUTE, "host-a", { now: T0 - 6 * MINUTE, queue: true })))!;

        // Keep 3 per task, nothing too old yet: task loses its 2 oldest finished runs; other keeps its 3 finished.
        expect(await store.pruneRuns({ keepPerTask: 3, olderThan: T0 - 60 * MINUTE })).toBe(2);
        expect((await store.listRuns(task.id)).map((run) => run.id)).toEqual([...finishedIds.slice(2).reverse(), leasedOld.id]);
        expect((await store.listRuns(other.id)).map((run) => run.id).sort()).toEqual([otherDone.id, stillPending.id, pendingOld.id, expiredOld.id].sort());
        // Older than T0 + 4 min: drops task's minute-3 run and all three of other's finished runs; leased and pending stay.
        expect(await store.pruneRuns({ keepPerTask: 100, olderThan: T0 + 4 * MINUTE })).toBe(4);
        expect((await store.listRuns(task.id)).map((run) => run.id)).toEqual([...finishedIds.slice(3).reverse(), leasedOld.id]);
        expect((await store.listRuns(other.id)).map((run) => run.id)).toEqual([stillPending.id]);
        expect(await store.pruneRuns({ keepPerTask: 0, olderThan: 0 })).toBe(2);
        expect((await store.listRuns(task.id)).map((run) => run.id)).toEqual([leasedOld.id]);
        expect(await store.pruneRuns({ keepPerTask: 0, olderThan: T0 + 99 * MINUTE })).toBe(0);
        expect(await store.lastScheduledAt(task.id)).toBe(T0 - 9 * MINUTE);
      });
    });
  });
}
