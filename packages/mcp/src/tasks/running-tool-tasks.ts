/**
 * The tasks a connection is waiting for. Closing the connection aborts its
 * lifetime signal, which makes each waiter send `tasks/cancel`; `settle()`
 * lets close() wait for those sends (each bounded) before the transport goes.
 */
export class RunningToolTasks {
  private readonly running = new Set<Promise<unknown>>();

  /** How many task calls are waiting for their task (an idle stop should leave such a server alone). */
  get size(): number {
    return this.running.size;
  }

  /** Tracks `waiting` until it settles; returns it unchanged. */
  track<T>(waiting: Promise<T>): Promise<T> {
    const entry = waiting.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(entry);
    void entry.then(() => this.running.delete(entry));
    return waiting;
  }

  /** Resolves when every tracked call has settled. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
