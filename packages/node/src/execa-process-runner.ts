import { randomUUID } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { execa, type ResultPromise } from "execa";
import { SdkError } from "@agent-tools/core";
import { StdinPipe, checkStdinOption } from "@agent-tools/core/internal";
import type { KillOptions, ProcessExit, ProcessOutputChunk, ProcessRunner, RunningProcess, SpawnOptions } from "@agent-tools/core";
import { HostExitWatchdog } from "./host-exit-watchdog.js";
import { PROCESS_TREE_TAG_VARIABLE, findProcessTree, findProcessTrees, isProcessAlive, readProcessTable } from "./process-tree.js";
import { ProcessTreeKiller } from "./process-tree-killer.js";

/** Delay before finished processes are checked for leftovers. */
const PRUNE_DELAY_MS = 1_000;

/**
 * The default {@link ProcessRunner}: execa, each child in its own process
 * group and session (`detached`), output as raw Buffers (never split into
 * lines), and a tree kill that also finds descendants that left the group
 * (setsid, double fork) through an inherited environment tag.
 *
 * Non-isolated processes end with the runner: on `close()`, and through a
 * small watchdog process when the host exits in any way (even SIGKILL).
 *
 * @example
 * const runner = new ExecaProcessRunner();
 * const child = runner.spawn({ command: "echo hi", shell: true, cwd: "/tmp" });
 * child.onOutput((chunk) => process.stdout.write(chunk.data));
 * await child.exited;
 * await runner.close();
 */
export class ExecaProcessRunner implements ProcessRunner {
  private readonly running = new Set<ExecaRunningProcess>();
  private readonly tag = `r${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  private readonly watchdog = new HostExitWatchdog(this.tag);
  private readonly killer = new ProcessTreeKiller();
  private readonly finished = new Set<ExecaRunningProcess>();
  private pruneTimer: NodeJS.Timeout | undefined;
  private counter = 0;
  private closed = false;

  spawn(options: SpawnOptions): RunningProcess {
    if (!options || typeof options.command !== "string" || options.command === "") {
      throw new SdkError("invalid_options", "ProcessRunner.spawn needs a command.");
    }
    if (typeof options.cwd !== "string" || options.cwd === "") throw new SdkError("invalid_options", "ProcessRunner.spawn needs an absolute cwd.");
    checkStdinOption(options);
    if (this.closed) throw new SdkError("closed", "ProcessRunner.spawn was called after close().");
    this.counter += 1;
    const tag = options.isolated ? `i${randomUUID().replace(/-/g, "")}` : `${this.tag}.${this.counter}`;
    if (!options.isolated) this.watchdog.ensureStarted();
    const child = new ExecaRunningProcess(options, tag, this.killer);
    if (!options.isolated) {
      this.running.add(child);
      void child.exited.then(() => child.outputClosed).then(() => this.schedulePrune(child));
    }
    return child;
  }

  /**
   * Forgets finished processes whose trees have ended. Batched and deferred,
   * so no /proc scan runs on the path that reports an exit; a tree with
   * leftovers stays known and is ended by close().
   */
  private schedulePrune(child: ExecaRunningProcess): void {
    this.finished.add(child);
    if (this.pruneTimer) return;
    this.pruneTimer = setTimeout(() => {
      this.pruneTimer = undefined;
      const candidates = [...this.finished];
      this.finished.clear();
      const trees = findProcessTrees(candidates.map((candidate) => ({ rootPid: candidate.pid, tag: candidate.tag })));
      for (const candidate of candidates) {
        if ((trees.get(candidate.pid) ?? []).length === 0) this.running.delete(candidate);
      }
    }, PRUNE_DELAY_MS);
    this.pruneTimer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pruneTimer) clearTimeout(this.pruneTimer);
    this.pruneTimer = undefined;
    this.finished.clear();
    await Promise.allSettled([...this.running].map((child) => child.kill()));
    this.running.clear();
    this.watchdog.stop();
  }
}

class ExecaRunningProcess implements RunningProcess {
  readonly pid: number;
  readonly tag: string;
  readonly exited: Promise<ProcessExit>;
  readonly outputClosed: Promise<void>;
  readonly stdin: StdinPipe | undefined;
  private readonly listeners = new Set<(chunk: ProcessOutputChunk) => void>();
  private readonly subprocess: ResultPromise;
  private killing: Promise<void> | undefined;
  private hasExited = false;

  constructor(
    options: SpawnOptions,
    tag: string,
    private readonly killer: ProcessTreeKiller,
  ) {
    this.tag = tag;
    const shell = options.shell === true ? "/bin/bash" : options.shell || false;
    const file = shell ? (shell as string) : options.command;
    const args = shell ? ["-c", options.command] : [...(options.args ?? [])];
    // A log file is opened here and handed to the child as its stdout/stderr
    // descriptor, so writes never pass through the host (an isolated process
    // keeps logging after the host exited).
    const logDescriptor = options.logFile ? openSync(options.logFile, "a") : undefined;
    const logTarget = (logDescriptor ?? "pipe") as "pipe";
    this.subprocess = execa(file, args, {
      cwd: options.cwd,
      env: { ...(options.env as Record<string, string> | undefined), [PROCESS_TREE_TAG_VARIABLE]: tag },
      extendEnv: options.extendEnv ?? true,
      detached: true,
      reject: false,
      buffer: false,
      encoding: "buffer",
      stripFinalNewline: false,
      stdin: options.input !== undefined || options.stdin === "pipe" ? "pipe" : "ignore",
      stdout: logTarget,
      stderr: logTarget,
      cleanup: !options.isolated,
    });
    if (logDescriptor !== undefined) closeSync(logDescriptor);
    if (options.input !== undefined) {
      this.subprocess.stdin?.on("error", () => undefined);
      this.subprocess.stdin?.end(options.input);
    }
    this.stdin = options.stdin === "pipe" ? new StdinPipe() : undefined;
    if (this.stdin && this.subprocess.stdin) this.stdin.attach(this.subprocess.stdin);
    this.pid = this.subprocess.pid ?? -1;
    const closes: Promise<void>[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      const readable = options.logFile ? null : this.subprocess[stream];
      if (!readable) continue;
      readable.on("data", (data: Buffer) => {
        for (const listener of this.listeners) listener({ stream, data });
      });
      readable.on("error", () => undefined);
      closes.push(new Promise((resolve) => readable.once("close", () => resolve())));
    }
    this.outputClosed = Promise.all(closes).then(() => undefined);
    this.exited = new Promise((resolve) => {
      const done = (exit: ProcessExit) => {
        this.hasExited = true;
        // Nobody may write after the exit: pending writes reject, and the host's end of the pipe closes.
        this.stdin?.close(exit.error === undefined ? "the process exited" : `the process did not start (${exit.error})`);
        if (this.stdin) this.subprocess.stdin?.destroy();
        resolve(exit);
      };
      this.subprocess.once("exit", (code, signal) => done({ exitCode: code, signal: signal ?? null }));
      this.subprocess.once("error", (error) => done({ exitCode: 127, signal: null, error: error instanceof Error ? error.message : String(error) }));
    });
    this.subprocess.catch(() => undefined);
    if (options.isolated) this.subprocess.unref();
    const signal = options.signal;
    if (signal) {
      const onAbort = () => void this.kill();
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        void this.exited.then(() => this.outputClosed).then(() => signal.removeEventListener("abort", onAbort));
      }
    }
  }

  onOutput(listener: (chunk: ProcessOutputChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  kill(options: KillOptions = {}): Promise<void> {
    if (this.pid <= 0) return Promise.resolve();
    this.killing ??= this.killer.kill({ rootPid: this.pid, tag: this.tag }, options.graceMs ?? 300).finally(() => {
      this.killing = undefined;
    });
    return this.killing;
  }

  isTreeAlive(): boolean {
    if (this.pid <= 0) return false;
    if (readProcessTable().length === 0) return !this.hasExited && isProcessAlive(this.pid);
    return findProcessTree({ rootPid: this.pid, tag: this.tag }).length > 0;
  }

  livePids(): number[] {
    if (this.pid <= 0) return [];
    return findProcessTree({ rootPid: this.pid, tag: this.tag });
  }
}
