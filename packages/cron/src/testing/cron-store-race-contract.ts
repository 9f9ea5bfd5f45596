import { describe, expect, it } from "vitest";
import type { CronRunRecord } from "../domain/cron-types.js";
import type { CronStore } from "../ports/cron-store.js";
import { type CronStoreContractTarget, T0, bashTask, claim, promptTask, withRaceStores } from "./cron-store-contract-fixtures.js";

const MINUTE = 60_000;

/** Every store claims every occurrence at once; returns the runs each got. */
async function claimAll(stores: readonly CronStore[], taskId: string, occurrences: number): Promise<CronRunRecord[]> {
  const attempts = stores.flatMap((store, index) =>
    Array.from({ length: occurrences }, (_, occurrence) => store.claimOccurrence(claim(taskId, T0 + occurrence * MINUTE, `host-${index}`, { now: T0 }))),
  );
  return (await Promise.all(attempts)).filter((run): run is CronRunRecord => run !== undefined);
}

/** Races: several schedulers (stores over one backend) claiming the same occurrences, queued runs and lapsed leases. */
export function describeCronRaceContract(target: CronStoreContractTarget): void {
  describe("races", () => {
    it("of 200 occurrences claimed by every scheduler at once, each is claimed exactly once and the count drops by exactly 200", async () => {
      await withRaceStores(target, async (stores) => {
        const [first] = stores;
        const task = await first!.createTask(bashTask({ remainingExecutions: 1_000 }), T0);
        const won = await claimAll(stores, task.id, 200);
        expect(won).toHaveLength(200);
        expect(new Set(won.map((run) => run.scheduledAt)).size).toBe(200);
        const listed = await first!.listRuns(task.id);
        expect(listed).toHaveLength(200);
        expect(new Set(listed.map((run) => run.id))).toEqual(new Set(won.map((run) => run.id)));
        expect(await first!.getTask(task.id)).toMatchObject({ remainingExecutions: 800, version: 201 });
      });
    }, 120_000);

    it("with fewer executions left than occurrences, exactly that many runs are claimed and the count ends at 0", async () => {
      await withRaceStores(target, async (stores) => {
        const [first] = stores;
        const task = await first!.createTask(bashTask({ remainingExecutions: 37 }), T0);
        const won = await claimAll(stores, task.id, 100);
        expect(won).toHaveLength(37);
        expect(new Set(won.map((run) => run.scheduledAt)).size).toBe(37);
        expect(await first!.listRuns(task.id)).toHaveLength(37);
        expect((await first!.getTask(task.id))?.remainingExecutions).toBe(0);
      });
    }, 120_000);

    it("hands every queued run to exactly one runner", async () => {
      await withRaceStores(target, async (stores) => {
        const [first] = stores;
        const task = await first!.createTask(promptTask({ remainingExecutions: null }), T0);
        for (let index = 0; index < 40; index += 1) await first!.claimOccurrence(claim(task.id, T0 + index * MINUTE, "host", { now: T0 + index, queue: true }));
        const taken = (
          await Promise.all(
            stores.flatMap((store, index) =>
              Array.from({ length: 40 }, () => store.claimQueuedRun({ owner: `runner-${index}`, now: T0 + MINUTE, leaseMs: MINUTE })),
            ),
          )
        ).filter((run): run is CronRunRecord => run !== undefined);
        expect(taken).toHaveLength(40);
        expect(new Set(taken.map((run) => run.id)).size).toBe(40);
        for (const run of taken) expect(await first!.getRun(run.id)).toMatchObject({ state: "leased", leaseOwner: run.leaseOwner });
      });
    }, 120_000);

    it("hands every lapsed lease to exactly one scheduler", async () => {
      await withRaceStores(target, async (stores) => {
        const [first] = stores;
        const task = await first!.createTask(bashTask(), T0);
        for (let index = 0; index < 40; index += 1) await first!.claimOccurrence(claim(task.id, T0 + index * MINUTE, "dead-host", { now: T0, leaseMs: 1_000 }));
        const taken = (
          await Promise.all(
            stores.flatMap((store, index) =>
              Array.from({ length: 10 }, () => store.takeOverExpiredLeases({ owner: `host-${index}`, now: T0 + MINUTE, leaseMs: MINUTE, limit: 5 })),
            ),
          )
        ).flat();
        expect(taken).toHaveLength(40);
        expect(new Set(taken.map((run) => run.id)).size).toBe(40);
        for (const run of taken) expect((await first!.getRun(run.id))?.leaseOwner).toBe(run.leaseOwner);
      });
    }, 120_000);
  });
}
