import { execa, type ResultPromise } from "execa";
import { SdkError } from "../errors.js";
import type { KillOptions, ProcessExit, ProcessOutputChunk, ProcessRunner, RunningProcess, SpawnOptions } from "../ports/process-runner.js";
import { killProcessTree, isProcessGroupAlive } from "./process-tree.js";

/**
 * The default {@link ProcessRunner}: execa, each child in its own process
 * group (`detached`), output as raw Buffers, tree kill by group.
 *
 * @example
 * const runner = new ExecaProcessRunner();
 * const child = runner.spawn({ command: "echo hi", shell: true, cwd: "/tmp" });
 * child.onOutput((chunk) => process.stdout.write(chunk.data));
 * await child.exited;
 */
export class ExecaProcessRunner implements ProcessRunner {
  private readonly running = new Set<ExecaRunningProcess>();

  spawn(options: SpawnOptions): RunningProcess {
    if (!options || typeof options.command !== "string" || options.command === "") {
      throw new SdkError("invalid_options", "ProcessRunner.spawn needs a command.");
    }
    const child = new ExecaRunningProcess(options);
    if (!options.isolated) {
      this.running.add(child);
      void child.exited.then(() => child.outputClosed).finally(() => {
        if (!child.isTreeAlive()) this.running.delete(child);
      });
    }
    return child;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.running].map((child) => child.kill()));
    this.running.clear();
  }
}

class ExecaRunningProcess implements RunningProcess {
  readonly pid: number;
  readonly exited: Promise<ProcessExit>;
  readonly outputClosed: Promise<void>;
  private readonly listeners = new Set<(chunk: ProcessOutputChunk) => void>();
  private readonly subprocess: ResultPromise;
  private killing: Promise<void> | undefined;

  constructor(options: SpawnOptions) {
    const shell = options.shell === true ? "/bin/bash" : options.shell || false;
    const logFd = options.logFile ? 1 : undefined;
    const file = shell ? (shell as string) : options.command;
    const args = shell ? ["-c", options.command] : [...(options.args ?? [])];
    this.subprocess = execa(file, args, {
      cwd: options.cwd,
      env: options.env as Record<string, string> | undefined,
      extendEnv: options.extendEnv ?? true,
      detached: true,
      reject: false,
      buffer: false,
      encoding: "buffer",
      stripFinalNewline: false,
      stdin: options.input !== undefined ? "pipe" : "ignore",
      stdout: logFd !== undefined ? ({ file: options.logFile!, append: true } as never) : "pipe",
      stderr: logFd !== undefined ? ({ file: options.logFile!, append: true } as never) : "pipe",
      cleanup: !options.isolated,
    });
    if (options.input !== undefined) this.subprocess.stdin?.end(options.input);
    this.pid = this.subprocess.pid ?? -1;
    const forward = (stream: "stdout" | "stderr") => (data: Buffer) => {
      for (const listener of this.listeners) listener({ stream, data });
    };
    const closes: Promise<void>[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      const readable = this.subprocess[stream];
      if (!readable) continue;
      readable.on("data", forward(stream));
      closes.push(new Promise((resolve) => readable.once("close", () => resolve())));
    }
    this.outputClosed = Promise.all(closes).then(() => undefined);
    this.exited = new Promise((resolve) => {
      this.subprocess.once("exit", (code, signal) => resolve({ exitCode: code, signal: signal ?? null }));
      this.subprocess.once("error", () => resolve({ exitCode: 127, signal: null }));
    });
    this.subprocess.catch(() => undefined);
    if (options.signal) {
      if (options.signal.aborted) void this.kill();
      else options.signal.addEventListener("abort", () => void this.kill(), { once: true });
    }
  }

  onOutput(listener: (chunk: ProcessOutputChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  kill(options: KillOptions = {}): Promise<void> {
    this.killing ??= killProcessTree(this.pid, options.graceMs ?? 300).finally(() => {
      this.killing = undefined;
    });
    return this.killing;
  }

  isTreeAlive(): boolean {
    return this.pid > 0 && isProcessGroupAlive(this.pid);
  }
}
