import type { ProcessExit, ProcessRunner, RunningProcess, ToolUpdate } from "@agent-tools/core";
import { AbortGuard } from "./abort-guard.js";
import { DEFAULT_PAGE_BYTES, DEFAULT_RING_CAPACITY, type OutputPage, OutputRingBuffer, type OutputStream } from "./output-ring-buffer.js";
import { UpdateForwarder } from "./update-forwarder.js";
import { Utf8ChunkJoiner } from "./utf8.js";

/**
 * The status of a resumable shell session. `lost` only for a durable session:
 * its process ended while no supervisor watched it, so no exit was recorded.
 */
export type ShellSessionStatus = "running" | "completed" | "failed" | "cancelled" | "timed_out" | "lost";

/** Options of {@link ShellSession}. */
export interface ShellSessionOptions {
  id: string;
  command: string;
  /** Absolute working directory. */
  cwd: string;
  /** Shell executable, e.g. `/bin/bash`. */
  shell: string;
  runner: ProcessRunner;
  /** Reported as `sandbox`: `none` (default) or the mechanism confining the command. */
  sandbox?: string;
  /** The label of the non-local workspace the command runs on; absent on this machine. */
  workspace?: string;
  /** Hard limit; the tree is killed and the status becomes `timed_out`. */
  timeoutMs?: number;
  env?: Record<string, string>;
  /** Ring capacity; default 1 MiB. */
  capacity?: number;
  /** Unread bytes that end a wait early; default 64 KiB. */
  pageBytes?: number;
}

/** Why a wait returned. */
export type WaitOutcome = "terminal" | "output" | "yield" | "aborted";

/** Longest wait for the pipes to close after the main process exited. */
export const EOF_GRACE_MS = 300;

/**
 * One command running in its own process group, its output in a ring buffer
 * addressed by absolute cursors. It becomes terminal when the main process
 * exited and its pipes closed (or 300 ms passed), or, after a stop or a
 * timeout, when its whole tree has ended.
 */
export class ShellSession {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly shell: string;
  readonly timeoutMs: number | undefined;
  /** `none` or the mechanism confining the command (e.g. `bubblewrap`). */
  readonly sandbox: string;
  /** The label of the non-local workspace the command runs on; absent on this machine. */
  readonly workspace: string | undefined;
  readonly startedAt = Date.now();
  readonly buffer: OutputRingBuffer;
  private statusValue: ShellSessionStatus = "running";
  private exitCodeValue: number | null = null;
  private endedAt: number | undefined;
  private readonly process: RunningProcess;
  private readonly joiners = { stdout: new Utf8ChunkJoiner(), stderr: new Utf8ChunkJoiner() };
  private readonly waiters = new Set<() => void>();
  private readonly forwarders = new Set<UpdateForwarder>();
  private readonly pageBytes: number;
  private stopping: Promise<void> | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;
  private exit: ProcessExit | undefined;
  private readonly abortGuard = new AbortGuard(() => void this.terminate("cancelled"));

  constructor(options: ShellSessionOptions) {
    this.id = options.id;
    this.command = options.command;
    this.cwd = options.cwd;
    this.shell = options.shell;
    this.timeoutMs = options.timeoutMs;
    this.sandbox = options.sandbox ?? "none";
    this.workspace = options.workspace;
    this.pageBytes = options.pageBytes ?? DEFAULT_PAGE_BYTES;
    this.buffer = new OutputRingBuffer(options.capacity ?? DEFAULT_RING_CAPACITY);
    this.process = options.runner.spawn({ command: options.command, shell: options.shell, cwd: options.cwd, env: options.env });
    const accept = { stdout: (data: Buffer) => this.accept("stdout", data), stderr: (data: Buffer) => this.accept("stderr", data) };
    this.process.onOutput((chunk) => this.joiners[chunk.stream].pushEach(chunk.data, accept[chunk.stream]));
    void this.process.exited.then((exit) => this.onExit(exit));
    if (options.timeoutMs !== undefined) {
      this.timeoutTimer = setTimeout(() => void this.terminate("timed_out"), options.timeoutMs);
      this.timeoutTimer.unref?.();
    }
  }

  /** Current status. */
  get status(): ShellSessionStatus {
    return this.statusValue;
  }

  /** True once the status is final. */
  get isTerminal(): boolean {
    return this.statusValue !== "running";
  }

  /** The exit code once terminal (−1 when the process was killed or never started). */
  get exitCode(): number | null {
    return this.statusValue === "running" ? null : this.exitCodeValue;
  }

  /** Milliseconds from the start to the terminal state (frozen), or to now. */
  get durationMs(): number {
    return (this.endedAt ?? Date.now()) - this.startedAt;
  }

  /** When the session became terminal (epoch ms). */
  get finishedAt(): number | undefined {
    return this.endedAt;
  }

  /** Pid of the main process. */
  get pid(): number {
    return this.process.pid;
  }

  /** Pids of the live processes of the tree. */
  livePids(): number[] {
    return this.process.livePids();
  }

  /** Reads one page from `cursor` (default: the oldest byte held). */
  read(cursor: number | undefined, maxBytes = this.pageBytes): OutputPage {
    return this.buffer.read(cursor, maxBytes);
  }

  /**
   * Waits until the session is terminal, at least one page of unread output
   * is buffered after `cursor`, `yieldMs` elapsed, or `signal` aborted.
   */
  wait(cursor: number, yieldMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    const ready = (): WaitOutcome | undefined => {
      if (this.isTerminal) return "terminal";
      if (this.buffer.unreadFrom(cursor) >= this.pageBytes) return "output";
      if (signal?.aborted) return "aborted";
      return undefined;
    };
    const now = ready();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const finish = (outcome: WaitOutcome) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const check = () => {
        const outcome = ready();
        if (outcome) finish(outcome);
      };
      const onAbort = () => finish("aborted");
      const timer = setTimeout(() => finish("yield"), Math.max(0, yieldMs));
      this.waiters.add(check);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Streams new output to `onUpdate` until the returned function is called. */
  stream(onUpdate: (update: ToolUpdate) => void): () => void {
    const forwarder = new UpdateForwarder(onUpdate);
    this.forwarders.add(forwarder);
    return () => {
      this.forwarders.delete(forwarder);
      forwarder.close();
    };
  }

  /**
   * Stops the session when `signal` aborts, for as long as it runs (a chat
   * Stop reaches a session started by an earlier call). A signal is watched
   * once however often it is passed, and held weakly (see {@link AbortGuard}).
   */
  stopOnAbort(signal: AbortSignal): void {
    if (this.isTerminal) return;
    this.abortGuard.add(signal);
  }

  /**
   * Kills the whole tree (SIGTERM, grace, SIGKILL) and resolves when the
   * session is terminal with `reason` (unless it ended on its own first).
   */
  terminate(reason: "cancelled" | "timed_out" = "cancelled"): Promise<void> {
    if (this.isTerminal) return Promise.resolve();
    this.stopping ??= (async () => {
      await this.process.kill();
      await this.drainOutput();
      this.freeze(reason, this.exit?.exitCode ?? -1);
    })();
    return this.stopping;
  }

  /**
   * Ends whatever is left of the tree after the session finished (background
   * processes the command started with redirected output). The status stays.
   */
  async endTree(): Promise<void> {
    if (this.process.isTreeAlive()) await this.process.kill();
  }

  private accept(stream: OutputStream, data: Buffer): void {
    this.buffer.append(stream, data);
    for (const forwarder of this.forwarders) forwarder.push(stream, data);
    for (const waiter of this.waiters) waiter();
  }

  private async onExit(exit: ProcessExit): Promise<void> {
    this.exit = exit;
    if (exit.error) this.accept("stderr", Buffer.from(`The command could not start: ${exit.error}\n`));
    if (this.stopping) return;
    await this.drainOutput();
    if (this.stopping) return;
    this.freeze(exit.exitCode === 0 ? "completed" : "failed", exit.exitCode ?? -1);
  }

  private async drainOutput(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.process.outputClosed, new Promise<void>((resolve) => (timer = setTimeout(resolve, EOF_GRACE_MS)))]);
    clearTimeout(timer);
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.joiners[stream].flush();
      if (rest && rest.length > 0) this.accept(stream, rest);
    }
  }

  private freeze(status: ShellSessionStatus, exitCode: number): void {
    if (this.isTerminal) return;
    this.statusValue = status;
    this.exitCodeValue = exitCode;
    this.endedAt = Date.now();
    clearTimeout(this.timeoutTimer);
    this.abortGuard.release();
    for (const forwarder of this.forwarders) forwarder.flush();
    for (const waiter of [...this.waiters]) waiter();
  }
}
