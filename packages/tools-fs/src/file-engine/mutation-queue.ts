/**
 * Serialises the mutations of one file inside one registry: Write, Edit and
 * Delete of the same canonical path run one after the other, in call order,
 * so each sees the version the previous one recorded (two concurrent Edits
 * of different lines both land). Different files run in parallel.
 *
 * @example
 * const queue = new MutationQueue();
 * await Promise.all([queue.run("/repo/a.ts", editOne), queue.run("/repo/a.ts", editTwo)]);
 */
export class MutationQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task of `key` has settled. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const tail = new Promise<void>((resolve) => (done = resolve));
    this.tails.set(key, tail);
    try {
      await previous;
      return await task();
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
