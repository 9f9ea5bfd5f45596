import { ToolError } from "@agent-tools/core";

/**
 * A counting semaphore with a FIFO queue. `acquire` resolves with a release
 * function; a waiter whose signal aborts leaves the queue and rejects with
 * a `cancelled` ToolError ("Cancelled"), holding nothing.
 */
export class Semaphore {
  readonly #limit: number;
  #held = 0;
  readonly #waiters: Array<{ grant: () => void }> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Semaphore limit must be a positive integer, got ${limit}.`);
    this.#limit = limit;
  }

  /** Permits currently held. */
  get held(): number {
    return this.#held;
  }

  /** Waits for a permit; the returned function gives it back (calling it twice is harmless). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.#held < this.#limit) {
      this.#held += 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.#releaser());
        },
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index !== -1) this.#waiters.splice(index, 1);
        reject(cancelled());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Runs `task` holding a permit. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next === undefined) this.#held -= 1;
      else next.grant(); // the permit passes straight to the next waiter
    };
  }
}

function cancelled(): ToolError {
  return new ToolError("cancelled", "Cancelled");
}

/**
 * One lock per key (e.g. per agent id): tasks with the same key run one
 * after another in call order, other keys are not held up. Keys with no
 * task left are forgotten.
 */
export class KeyedMutex {
  readonly #locks = new Map<string, Semaphore>();
  readonly #users = new Map<string, number>();

  /** Runs `task` once every earlier task of `key` has settled. */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let lock = this.#locks.get(key);
    if (lock === undefined) {
      lock = new Semaphore(1);
      this.#locks.set(key, lock);
    }
    this.#users.set(key, (this.#users.get(key) ?? 0) + 1);
    try {
      return await lock.run(task, signal);
    } finally {
      const left = (this.#users.get(key) ?? 1) - 1;
      if (left === 0) {
        this.#users.delete(key);
        this.#locks.delete(key);
      } else this.#users.set(key, left);
    }
  }
}
