/**
 * Which started servers are in use, which were ever called, and the idle
 * timers that stop the unused ones.
 *
 * Invariants: a connection with a use in flight (a call, a resource read, a
 * prompt get) never has a timer, so a running call is never cut; the idle
 * clock starts when the last use ends (or when the server starts without
 * one). Timers are unref'd (they never keep a process alive) and cleared by
 * {@link McpServerActivity.close}. State is per connection: a restarted
 * server starts again as `started`, not `invoked`.
 */
import type { McpServerConnection } from "../server-connection.js";

/** The default of `idleStopMs`: ten minutes. */
export const DEFAULT_IDLE_STOP_MS = 600_000;

const MAX_TIMER_MS = 2_147_483_647;

interface Use {
  active: number;
  invoked: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Uses and idle timers of one runtime's connections. */
export class McpServerActivity {
  private readonly uses = new Map<McpServerConnection, Use>();
  private closed = false;

  /**
   * @param idleStopMs how long a started server may go unused; 0: never stopped.
   * @param onIdle stops `connection` (called at most once per idle period, never while it is in use).
   */
  constructor(
    private readonly idleStopMs: number,
    private readonly onIdle: (connection: McpServerConnection) => void,
  ) {}

  private use(connection: McpServerConnection): Use {
    let use = this.uses.get(connection);
    if (!use) {
      use = { active: 0, invoked: false, timer: undefined };
      this.uses.set(connection, use);
    }
    return use;
  }

  /** A use of `connection` starts: its idle timer stops, and it counts as invoked. */
  begin(connection: McpServerConnection): void {
    const use = this.use(connection);
    use.active += 1;
    use.invoked = true;
    this.clearTimer(use);
  }

  /** A use ends; the idle clock starts when it was the last one. */
  end(connection: McpServerConnection): void {
    const use = this.uses.get(connection);
    if (!use) return;
    use.active = Math.max(0, use.active - 1);
    this.arm(connection, use);
  }

  /** The server started or listed: starts its idle clock unless a use is in flight. */
  touch(connection: McpServerConnection): void {
    const use = this.use(connection);
    this.clearTimer(use);
    this.arm(connection, use);
  }

  /** True once `connection` served a use. */
  invoked(connection: McpServerConnection): boolean {
    return this.uses.get(connection)?.invoked === true;
  }

  /** How many uses of `connection` are in flight. */
  active(connection: McpServerConnection): number {
    return this.uses.get(connection)?.active ?? 0;
  }

  /** Forgets `connection` (stopped or replaced) and its timer. */
  forget(connection: McpServerConnection): void {
    const use = this.uses.get(connection);
    if (use) this.clearTimer(use);
    this.uses.delete(connection);
  }

  /** Clears every timer; later calls start none. */
  close(): void {
    this.closed = true;
    for (const use of this.uses.values()) this.clearTimer(use);
    this.uses.clear();
  }

  private arm(connection: McpServerConnection, use: Use): void {
    if (this.closed || this.idleStopMs === 0 || use.active > 0 || use.timer !== undefined) return;
    use.timer = setTimeout(
      () => {
        use.timer = undefined;
        if (use.active === 0 && this.uses.get(connection) === use) this.onIdle(connection);
        // setTimeout takes at most 2^31-1 ms; a longer idleStopMs would fire at once.
      },
      Math.min(this.idleStopMs, MAX_TIMER_MS),
    );
    use.timer.unref?.();
  }

  private clearTimer(use: Use): void {
    if (use.timer === undefined) return;
    clearTimeout(use.timer);
    use.timer = undefined;
  }
}
