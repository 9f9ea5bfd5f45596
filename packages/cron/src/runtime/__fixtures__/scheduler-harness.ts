/** A scheduler on a manual clock over an in-memory store, for the scheduler tests. */
import type { ProcessRunner } from "@agent-tools/core";
import { testPolicy } from "../../__fixtures__/cron-test-tasks.js";
import type { CronTask } from "../../domain/cron-types.js";
import type { CronStore, NewCronTask } from "../../ports/cron-store.js";
import { InMemoryCronStore } from "../../ports/in-memory-cron-store.js";
import { ManualCronClock } from "../cron-clock.js";
import { type CronSchedulerHandle, type CronSchedulerOptions, startCronScheduler } from "../cron-scheduler.js";
import type { CronSchedulerEvent } from "../cron-scheduler-events.js";

/** 2030-01-01T00:00:00Z: on every minute and ten-second mark. */
export const T0 = Date.UTC(2030, 0, 1);

/** A new task with defaults (enabled, unlimited, every second, the policy of `testPolicy` on its workdir). */
export function newTask(fields: Partial<NewCronTask> & Pick<NewCronTask, "type">): NewCronTask {
  return {
    name: "task",
    description: "",
    cron: "* * * * * *",
    enabled: true,
    remainingExecutions: null,
    timeoutSeconds: 30,
    timeZone: "UTC",
    policy: testPolicy(fields.workdir),
    ...fields,
  };
}

/** One scheduler under test. */
export interface SchedulerHarness {
  readonly clock: ManualCronClock;
  readonly store: CronStore;
  readonly events: CronSchedulerEvent[];
  readonly scheduler: CronSchedulerHandle;
  /** Moves time in tick-sized steps, ticking after each and waiting for the runs it started. */
  advance(ms: number): Promise<void>;
  createTask(fields: Partial<NewCronTask> & Pick<NewCronTask, "type">, at?: number): Promise<CronTask>;
}

/** Starts a scheduler on a manual clock at `start`; tests tick it by hand through `advance`. */
export async function startHarness(
  processRunner: ProcessRunner,
  options: Partial<CronSchedulerOptions> & { readonly start?: number; readonly store?: CronStore; readonly clock?: ManualCronClock } = {},
): Promise<SchedulerHarness> {
  const clock = options.clock ?? new ManualCronClock(options.start ?? T0);
  const store = options.store ?? new InMemoryCronStore();
  const events: CronSchedulerEvent[] = [];
  const scheduler = await startCronScheduler({
    processRunner,
    ...options,
    store,
    clock,
    // The tests tick by hand: the loop's own tick waits an hour, so long jumps of the clock stay cheap.
    tickMs: 3_600_000,
    onEvent: (event) => events.push(event),
  });
  await scheduler.tick();
  return {
    clock,
    store,
    events,
    scheduler,
    async advance(ms) {
      for (let moved = 0; moved < ms; moved += 1_000) {
        await clock.advance(Math.min(1_000, ms - moved));
        await scheduler.tick();
        await scheduler.idle();
      }
    },
    createTask: (fields, at) => store.createTask(newTask(fields), at ?? clock.now()),
  };
}

/** A store that forwards every method to `store` except the `overrides` (for fault injection). */
export function wrapStore(store: CronStore, overrides: Partial<CronStore>): CronStore {
  const wrapped: Record<string, unknown> = {};
  let proto: object | null = store;
  while (proto !== null && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (store as unknown as Record<string, unknown>)[name];
      if (name !== "constructor" && typeof value === "function" && !(name in wrapped)) wrapped[name] = value.bind(store);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return Object.assign(wrapped, overrides) as unknown as CronStore;
}
