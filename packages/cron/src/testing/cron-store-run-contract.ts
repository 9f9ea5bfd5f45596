import { describe, expect, it } from "vitest";
import { type CronStoreContractTarget, T0, bashTask, claim, promptTask, withStore } from "./cron-store-contract-fixtures.js";

const MINUTE = 60_000;

/** Runs: the claim (and its decrement), the latest occurrence, listing and pruning. */
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
