/**
 * SSHManager's interactive sessions: a login shell on a PTY per session,
 * its unread output buffered (see {@link OutputBuffer}), kept per registry
 * and closed with it.
 */
import { ToolError } from "@agent-tools/core";
import { OutputBuffer } from "./output-buffer.js";
import { SSH_MANAGER_LIMITS } from "./ssh-manager-schema.js";

/** What a session needs of an SSH shell channel (ssh2's `ClientChannel` is one). */
export interface ShellChannel {
  on(event: "data", listener: (data: Buffer) => void): unknown;
  on(event: "close", listener: () => void): unknown;
  on(event: "exit", listener: (code: number | null, signal?: string) => void): unknown;
  readonly stderr: { on(event: "data", listener: (data: Buffer) => void): unknown };
  write(data: string): boolean;
  end(): unknown;
  close(): unknown;
}

/** The public facts of a session (what list_sessions shows). */
export interface ShellSessionInfo {
  readonly sessionId: string;
  readonly hostId: string;
  readonly status: "open" | "closed";
  /** Epoch ms. */
  readonly createdAt: number;
  /** The shell's exit code once it ended, when the server reported one. */
  readonly exitCode?: number | null;
  /** Unread output, in bytes. */
  readonly unreadBytes: number;
}

/** One interactive shell. */
export class ShellSession {
  readonly id: string;
  readonly hostId: string;
  readonly createdAt = Date.now();
  readonly output = new OutputBuffer(SSH_MANAGER_LIMITS.sessionBufferBytes);
  readonly #channel: ShellChannel;
  #exitCode: number | null | undefined;
  #closed = false;
  readonly #closedPromise: Promise<void>;

  constructor(id: string, hostId: string, channel: ShellChannel) {
    this.id = id;
    this.hostId = hostId;
    this.#channel = channel;
    channel.on("data", (data) => this.output.push(data));
    channel.stderr.on("data", (data) => this.output.push(data));
    channel.on("exit", (code) => {
      this.#exitCode = code;
    });
    this.#closedPromise = new Promise((resolve) =>
      channel.on("close", () => {
        this.#closed = true;
        this.output.end();
        resolve();
      }),
    );
  }

  /** False once the shell's channel closed (the shell exited, or close_session). */
  get open(): boolean {
    return !this.#closed;
  }

  /** Types `input` into the terminal; each newline becomes Enter (CR). */
  send(input: string): void {
    if (this.#closed) throw new ToolError("conflict", `Session ${this.id} has ended; read_session shows its last output, or create_session opens a new one.`);
    this.#channel.write(input.replace(/\r?\n/g, "\r"));
  }

  /** Ends the shell: EOF, then the channel is closed; resolves once it is. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#channel.end();
    this.#channel.close();
    await Promise.race([this.#closedPromise, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    this.#closed = true;
    this.output.end();
  }

  /** What list_sessions shows. */
  info(): ShellSessionInfo {
    return {
      sessionId: this.id,
      hostId: this.hostId,
      status: this.#closed ? "closed" : "open",
      createdAt: this.createdAt,
      ...(this.#exitCode === undefined ? {} : { exitCode: this.#exitCode }),
      unreadBytes: this.output.size,
    };
  }
}

/** The sessions of one registry. */
export class ShellSessions {
  readonly #sessions = new Map<string, ShellSession>();
  /** Sessions being opened now, per host (they count against the cap). */
  readonly #opening = new Map<string, number>();
  #next = 1;
  #closed = false;

  /** Every session, oldest first. */
  list(hostId?: string): ShellSession[] {
    return [...this.#sessions.values()].filter((session) => hostId === undefined || session.hostId === hostId);
  }

  /** The newest open session of a host. */
  latestOpen(hostId: string): ShellSession | undefined {
    return this.list(hostId)
      .filter((session) => session.open)
      .at(-1);
  }

  /** The session with this id, or a `not_found` ToolError naming list_sessions. */
  get(id: string): ShellSession {
    const session = this.#sessions.get(id.trim());
    if (!session) throw new ToolError("not_found", `No session ${JSON.stringify(id)}; list_sessions shows the sessions and their ids.`);
    return session;
  }

  /** Opens a session with `open()` unless the cap of open sessions is reached. */
  async create(hostId: string, open: () => Promise<ShellChannel>): Promise<ShellSession> {
    if (this.#closed) throw new ToolError("unavailable", "SSHManager is closed.", { recoverable: false });
    // Sessions still opening count too: concurrent creates would otherwise all pass the check.
    const opening = this.#opening.get(hostId) ?? 0;
    const live = this.list(hostId).filter((session) => session.open).length + opening;
    if (live >= SSH_MANAGER_LIMITS.maxSessionsPerHost) {
      throw new ToolError(
        "limit_reached",
        `${live} sessions are open on ${hostId} (at most ${SSH_MANAGER_LIMITS.maxSessionsPerHost}); close one with close_session, or reuse one (strategy reuse_or_create).`,
      );
    }
    // Closed sessions stay listed (their last output may be unread) until there are many.
    for (const session of this.list()) {
      if (this.#sessions.size < SSH_MANAGER_LIMITS.maxListedSessions) break;
      if (!session.open) this.#sessions.delete(session.id);
    }
    this.#opening.set(hostId, opening + 1);
    let channel: ShellChannel;
    try {
      channel = await open();
    } finally {
      this.#opening.set(hostId, (this.#opening.get(hostId) ?? 1) - 1);
    }
    const session = new ShellSession(`ssh-${this.#next++}`, hostId, channel);
    if (this.#closed) {
      // The registry closed while the shell was opening: end it instead of keeping it.
      await session.close();
      throw new ToolError("unavailable", "SSHManager is closed.", { recoverable: false });
    }
    this.#sessions.set(session.id, session);
    return session;
  }

  /** Closes one session and forgets it. */
  async remove(id: string): Promise<ShellSession> {
    const session = this.get(id);
    await session.close();
    this.#sessions.delete(session.id);
    return session;
  }

  /** Closes every session (the registry is closing). */
  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled(this.list().map((session) => session.close()));
    this.#sessions.clear();
  }
}
