import { appendFileSync } from "node:fs";
import { SdkError } from "../errors.js";
import type { KillOptions, ProcessExit, ProcessOutputChunk, ProcessRunner, RunningProcess, SpawnOptions } from "../ports/process-runner.js";
import { StdinPipe, type StdinSink, checkStdinOption } from "../ports/stdin-pipe.js";

/** What a script of {@link ScriptedProcessRunner} uses to play one process. */
export interface ScriptedProcessController {
  /** The spawn options the code under test passed. */
  readonly options: SpawnOptions;
  /** Aborted when the process is killed (unless the script handles `onKill`). */
  readonly killed: AbortSignal;
  /** Emits output (strings are UTF-8 encoded), or appends it to `options.logFile`. Ignored after `exit`. */
  write(stream: "stdout" | "stderr", data: string | Buffer): void;
  /** Ends the process; later calls are ignored. */
  exit(exitCode: number | null, signal?: string | null): void;
  /** Resolves after `ms` milliseconds, or early when the process is killed. */
  sleep(ms: number): Promise<void>;
  /**
   * With `stdin: "pipe"`: subscribes to the bytes the code under test writes,
   * in order (bytes written before the first subscription are delivered to
   * it). Returns an unsubscribe function.
   */
  onStdin(listener: (data: Buffer) => void): () => void;
  /** Resolves when the code under test ended stdin (never without `stdin: "pipe"`). */
  readonly stdinEnded: Promise<void>;
}

/** A script plays one spawned process; it may be async. */
export type ProcessScript = (controller: ScriptedProcessController) => void | Promise<void>;

let nextFakePid = 4_000_000;

/**
 * A fake {@link ProcessRunner} for tests: each spawn is played by a script
 * instead of the OS. It records every spawn in {@link ScriptedProcessRunner.calls}.
 * A kill ends the process with `SIGTERM` (exit code null) unless the script
 * already exited.
 *
 * @example
 * const runner = new ScriptedProcessRunner((process) => {
 *   process.write("stdout", "hello\n");
 *   process.exit(0);
 * });
 */
export class ScriptedProcessRunner implements ProcessRunner {
  /** Every spawn, in order. */
  readonly calls: SpawnOptions[] = [];
  private readonly live = new Set<ScriptedRunningProcess>();
  private closed = false;

  constructor(private readonly script: ProcessScript) {}

  spawn(options: SpawnOptions): RunningProcess {
    if (!options || typeof options.command !== "string" || options.command === "") {
      throw new SdkError("invalid_options", "ProcessRunner.spawn needs a command.");
    }
    if (this.closed) throw new SdkError("closed", "ProcessRunner.spawn was called after close().");
    checkStdinOption(options);
    this.calls.push(options);
    const child = new ScriptedRunningProcess(options, this.script);
    if (!options.isolated) {
      this.live.add(child);
      void child.exited.then(() => this.live.delete(child));
    }
    return child;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live].map((child) => child.kill()));
  }
}

class ScriptedRunningProcess implements RunningProcess {
  readonly pid = (nextFakePid += 1);
  readonly exited: Promise<ProcessExit>;
  readonly outputClosed: Promise<void>;
  readonly stdin: StdinPipe | undefined;
  private readonly listeners = new Set<(chunk: ProcessOutputChunk) => void>();
  private readonly killController = new AbortController();
  private resolveExit!: (exit: ProcessExit) => void;
  private done = false;

  constructor(options: SpawnOptions, script: ProcessScript) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    this.outputClosed = this.exited.then(() => undefined);
    const input = scriptedStdin();
    if (options.stdin === "pipe") {
      this.stdin = new StdinPipe();
      this.stdin.attach(input.sink);
    }
    const controller: ScriptedProcessController = {
      options,
      killed: this.killController.signal,
      write: (stream, data) => {
        if (this.done) return;
        const chunk = { stream, data: typeof data === "string" ? Buffer.from(data, "utf8") : data };
        if (options.logFile) appendFileSync(options.logFile, chunk.data);
        else for (const listener of this.listeners) listener(chunk);
      },
      exit: (exitCode, signal = null) => this.finish({ exitCode, signal }),
      sleep: (ms) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, ms);
          this.killController.signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        }),
      onStdin: input.subscribe,
      stdinEnded: input.ended,
    };
    if (options.signal?.aborted) queueMicrotask(() => void this.kill());
    else options.signal?.addEventListener("abort", () => void this.kill(), { once: true });
    // Start on a later tick so the caller can subscribe first, as with a real process.
    setImmediate(() => {
      if (this.done) return;
      Promise.resolve()
        .then(() => script(controller))
        .catch((error: unknown) => {
          controller.write("stderr", `scripted process failed: ${String(error)}\n`);
          this.finish({ exitCode: 1, signal: null });
        });
    });
  }

  private finish(exit: ProcessExit): void {
    if (this.done) return;
    this.done = true;
    this.stdin?.close("the process exited");
    this.resolveExit(exit);
  }

  onOutput(listener: (chunk: ProcessOutputChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async kill(_options?: KillOptions): Promise<void> {
    if (!this.done) {
      this.killController.abort();
      this.finish({ exitCode: null, signal: "SIGTERM" });
    }
    await this.exited;
  }

  isTreeAlive(): boolean {
    return !this.done;
  }

  livePids(): number[] {
    return this.done ? [] : [this.pid];
  }
}

/** The script's side of a scripted process's stdin: a sink for the {@link StdinPipe}, buffering until the script subscribes. */
function scriptedStdin(): { sink: StdinSink; subscribe: (listener: (data: Buffer) => void) => () => void; ended: Promise<void> } {
  const listeners = new Set<(data: Buffer) => void>();
  const buffered: Buffer[] = [];
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
  const sink: StdinSink = {
    write(chunk, callback) {
      const data = Buffer.from(chunk);
      if (listeners.size === 0) buffered.push(data);
      else for (const listener of listeners) listener(data);
      queueMicrotask(() => callback());
      return true;
    },
    end(callback) {
      resolveEnded();
      if (callback) queueMicrotask(callback);
    },
    on: () => undefined,
  };
  const subscribe = (listener: (data: Buffer) => void) => {
    listeners.add(listener);
    for (const data of buffered.splice(0)) listener(data);
    return () => listeners.delete(listener);
  };
  return { sink, subscribe, ended };
}
