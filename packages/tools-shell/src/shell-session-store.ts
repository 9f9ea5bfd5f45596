import { ToolError } from "@agent-tools/core";
import { ShellSession, type ShellSessionOptions } from "./shell-session.js";

/** Default cap of sessions held at once. */
export const MAX_SHELL_SESSIONS = 64;
/** Default time a terminal session stays readable: 10 minutes. */
export const SESSION_RETENTION_MS = 10 * 60 * 1000;
/** How often expired sessions are dropped. */
export const SESSION_CLEAN_INTERVAL_MS = 60 * 1000;

/** Options of {@link ShellSessionStore}. */
export interface ShellSessionStoreOptions {
  maxSessions?: number;
  retentionMs?: number;
}

/**
 * The sessions of one registry: at most 64; when full, the oldest terminal
 * session is evicted, and when none is terminal a new start is refused.
 * Terminal sessions are dropped 10 minutes after they ended.
 */
export class ShellSessionStore {
  private readonly sessions = new Map<string, ShellSession>();
  private readonly maxSessions: number;
  private readonly retentionMs: number;
  private cleaner: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: ShellSessionStoreOptions = {}) {
    this.maxSessions = options.maxSessions ?? MAX_SHELL_SESSIONS;
    this.retentionMs = options.retentionMs ?? SESSION_RETENTION_MS;
  }

  /** Number of sessions held. */
  get size(): number {
    return this.sessions.size;
  }

  /** Starts a session, making room first; throws `limit_reached` when every held session still runs. */
  start(options: ShellSessionOptions): ShellSession {
    if (this.closed) throw new ToolError("unavailable", "The shell tools were closed by the host; no new command can start.", { recoverable: false });
    this.prune();
    if (this.sessions.size >= this.maxSessions) {
      let oldest: ShellSession | undefined;
      for (const session of this.sessions.values()) {
        if (session.isTerminal && (!oldest || (session.finishedAt ?? 0) < (oldest.finishedAt ?? 0))) oldest = session;
      }
      if (!oldest) {
        throw new ToolError(
          "limit_reached",
          `shell session limit reached (${this.maxSessions}); every session is still running. Stop one with ProcessStop(session_id=...) or wait for one to finish with ProcessWait before starting another command.`,
          { details: { limit: this.maxSessions } },
        );
      }
      this.sessions.delete(oldest.id);
    }
    const session = new ShellSession(options);
    this.sessions.set(session.id, session);
    this.startCleaner();
    return session;
  }

  /** A held session, or undefined when unknown or expired. */
  get(id: string): ShellSession | undefined {
    this.prune();
    return this.sessions.get(id);
  }

  /** Every held session. */
  list(): ShellSession[] {
    this.prune();
    return [...this.sessions.values()];
  }

  /** Drops terminal sessions older than the retention time. */
  prune(now = Date.now()): void {
    for (const [id, session] of this.sessions) {
      if (session.isTerminal && now - (session.finishedAt ?? now) >= this.retentionMs) this.sessions.delete(id);
    }
  }

  /** Stops every running session (whole trees) and ends leftovers of finished ones. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.cleaner) clearInterval(this.cleaner);
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.terminate("cancelled").then(() => session.endTree())));
  }

  private startCleaner(): void {
    if (this.cleaner) return;
    this.cleaner = setInterval(() => this.prune(), SESSION_CLEAN_INTERVAL_MS);
    this.cleaner.unref?.();
  }
}
