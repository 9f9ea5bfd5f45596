/**
 * Runs `onAbort` when any of the signals it watches aborts, until it is
 * released. One listener function serves every signal, and an event target
 * ignores a listener it already has, so a host that passes one turn signal
 * to every ProcessWait adds one listener, not one per call. Signals are held
 * weakly: a call's own signal that its host dropped can never abort, so it
 * is collected with its listener instead of being kept for as long as a
 * session runs.
 */
export class AbortGuard {
  private refs: WeakRef<AbortSignal>[] = [];
  /** Length of `refs` at which collected and repeated signals are swept out next. */
  private sweepAt = 16;
  private released = false;
  private readonly listener = () => {
    this.release();
    this.onAbort();
  };

  constructor(private readonly onAbort: () => void) {}

  /** Watches `signal` (no-op once released); an aborted signal fires at once. */
  add(signal: AbortSignal): void {
    if (this.released) return;
    if (signal.aborted) {
      this.listener();
      return;
    }
    signal.addEventListener("abort", this.listener, { once: true });
    if (this.refs[this.refs.length - 1]?.deref() === signal) return;
    this.refs.push(new WeakRef(signal));
    if (this.refs.length >= this.sweepAt) this.sweep();
  }

  /** Signals still watched and not yet collected. */
  get size(): number {
    this.sweep();
    return this.refs.length;
  }

  /** Stops watching: removes the listener from every signal still alive. */
  release(): void {
    if (this.released) return;
    this.released = true;
    for (const ref of this.refs) ref.deref()?.removeEventListener("abort", this.listener);
    this.refs = [];
  }

  /** Drops references to collected signals and repeats of a signal. */
  private sweep(): void {
    const seen = new Set<AbortSignal>();
    this.refs = this.refs.filter((ref) => {
      const signal = ref.deref();
      if (!signal || seen.has(signal)) return false;
      seen.add(signal);
      return true;
    });
    this.sweepAt = Math.max(16, this.refs.length * 2);
  }
}
