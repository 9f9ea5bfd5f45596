/**
 * The scheduler's sense of time: `now()` and an abortable `sleep()`. The
 * system clock for hosts, a manual clock for tests that move time by hand.
 */

/** Time as the scheduler sees it (epoch milliseconds). */
export interface CronClock {
  /** The current time, epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms` of this clock's time, or as soon as `signal` aborts
   * (it then resolves, never rejects: callers check `signal.aborted`).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemCronClock: CronClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
});

interface Sleeper {
  readonly wakeAt: number;
  readonly order: number;
  readonly resolve: () => void;
}

/**
 * A clock for tests: time stands still until {@link ManualCronClock.advance}
 * moves it; sleepers wake in the order of their wake-up times (ties in the
 * order they went to sleep), time standing at each one's wake-up time while
 * it runs.
 *
 * @example
 * const clock = new ManualCronClock(Date.UTC(2030, 0, 1));
 * const slept = clock.sleep(1_000);
 * await clock.advance(1_000); // `slept` has resolved
 */
export class ManualCronClock implements CronClock {
  #now: number;
  #sleepers: Sleeper[] = [];
  #order = 0;

  /** Starts at `start` (epoch ms); default 2030-01-01T00:00:00Z. */
  constructor(start: number = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** How many sleepers wait for time to move. */
  get sleeping(): number {
    return this.#sleepers.length;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = {
        wakeAt: this.#now + Math.max(0, ms),
        order: this.#order++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((entry) => entry !== sleeper);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /**
   * Moves time forward by `ms`, waking every sleeper due on the way in
   * order; after each wake-up it lets pending work run (timers and I/O
   * callbacks of one event-loop turn) before moving on. Sleepers that go
   * to sleep during the advance wake too when they fall due within it.
   */
  async advance(ms: number): Promise<void> {
    const target = this.#now + Math.max(0, ms);
    for (;;) {
      const next = this.#nextDue(target);
      if (next === undefined) break;
      this.#sleepers = this.#sleepers.filter((entry) => entry !== next);
      this.#now = Math.max(this.#now, next.wakeAt);
      next.resolve();
      await settle();
    }
    this.#now = target;
    await settle();
  }

  #nextDue(target: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.#sleepers) {
      if (sleeper.wakeAt > target) continue;
      if (best === undefined || sleeper.wakeAt < best.wakeAt || (sleeper.wakeAt === best.wakeAt && sleeper.order < best.order)) best = sleeper;
    }
    return best;
  }
}

/** Lets promise chains and one turn of the event loop run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
