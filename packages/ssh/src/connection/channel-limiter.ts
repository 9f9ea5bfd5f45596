/**
 * A counting semaphore over the channels of one connection: at most `max`
 * open at once; the rest wait first in, first out.
 */
export class ChannelLimiter {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void; reject: (error: unknown) => void }> = [];

  constructor(private readonly max: number) {}

  /** Channels held now. */
  get inUse(): number {
    return this.active;
  }

  /** Channels waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Waits for a slot; the returned function gives it back (once). Aborting `signal` leaves the queue. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.max) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.active += 1;
          resolve(this.releaser());
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Rejects every waiter with `error` (the connection closed). */
  rejectAll(error: unknown): void {
    for (const entry of this.waiting.splice(0)) entry.reject(error);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.waiting.shift()?.grant();
    };
  }
}
