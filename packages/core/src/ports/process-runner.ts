/**
 * ProcessRunner: starts processes in their own process group, streams their
 * output, reports their exit and kills their whole tree.
 */

/** Options of {@link ProcessRunner.spawn}. */
export interface SpawnOptions {
  /** The executable, or a shell command line when `shell` is set. */
  command: string;
  /** Arguments (ignored when `shell` is set). */
  args?: readonly string[];
  /** Run `command` through a shell: `true` = `/bin/bash` (else `/bin/sh`), or a shell path. */
  shell?: boolean | string;
  /** Absolute working directory. */
  cwd: string;
  /** Environment; merged over `process.env` unless `extendEnv` is false. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default true. */
  extendEnv?: boolean;
  /** Text written to stdin, then stdin is closed; default: stdin is `/dev/null`. */
  input?: string;
  /**
   * `"pipe"`: stdin stays open and the caller writes to it through
   * {@link RunningProcess.stdin} (a language server's JSON-RPC stream, say).
   * Cannot be combined with `input` or `logFile` (the runner throws
   * `SdkError`); default: stdin is `input` or `/dev/null`.
   */
  stdin?: "pipe";
  /** Aborting kills the whole tree. */
  signal?: AbortSignal;
  /**
   * When true the process is not tied to the host: it is not killed when the
   * runner is closed or the host exits (ManagedProcess `isolated`).
   */
  isolated?: boolean;
  /** Redirect stdout and stderr to this file (append) instead of pipes. */
  logFile?: string;
}

/** A chunk of output, in arrival order. */
export interface ProcessOutputChunk {
  stream: "stdout" | "stderr";
  /** Raw bytes; never split into lines by the runner. */
  data: Buffer;
}

/** How a process ended. */
export interface ProcessExit {
  /** The exit code, or null when killed by a signal. */
  exitCode: number | null;
  /** The signal name when killed by one. */
  signal: string | null;
  /** Why the process could not start (then `exitCode` is 127), e.g. a missing cwd or executable. */
  error?: string;
}

/** Options of {@link RunningProcess.kill}. */
export interface KillOptions {
  /** Time between SIGTERM and SIGKILL; default 300 ms. */
  graceMs?: number;
}

/** A started process. */
export interface RunningProcess {
  /**
   * OS process id (also the process-group id). A runner whose processes run
   * on another machine (the SSH workspace's) learns it from the remote side
   * and reads 0 until then; read it again after output or `exited` rather
   * than keeping the value from `spawn`.
   */
  readonly pid: number;
  /**
   * Subscribes to output. Chunks that arrived before the subscription are not
   * replayed; subscribe right after `spawn`. Returns an unsubscribe function.
   */
  onOutput(listener: (chunk: ProcessOutputChunk) => void): () => void;
  /**
   * Resolves when the main process exits (its pipes may still be open). A
   * process that could not start resolves with exit code 127.
   */
  readonly exited: Promise<ProcessExit>;
  /** Resolves when stdout and stderr have both closed (or immediately with `logFile`). */
  readonly outputClosed: Promise<void>;
  /**
   * Kills the whole tree: SIGTERM to the group and every known descendant
   * (also those that left the group), a grace period, then SIGKILL. Resolves
   * once no process of the tree is alive. Safe to call repeatedly.
   */
  kill(options?: KillOptions): Promise<void>;
  /** True while any process of the tree is alive. */
  isTreeAlive(): boolean;
  /** Pids of the live (non-zombie) processes of the tree, root included while it runs. */
  livePids(): number[];
  /**
   * The process's stdin, present exactly when it was spawned with
   * `stdin: "pipe"`. `write` resolves once the bytes are handed to the
   * operating system (or the remote channel), honouring back-pressure, and
   * rejects once the process has exited or stdin was ended; `end` closes
   * stdin (safe to call repeatedly). Bytes are written in call order.
   */
  readonly stdin?: {
    write(data: string | Uint8Array): Promise<void>;
    end(): Promise<void>;
  };
}

/**
 * Starts processes. Implementations must put each child in its own process
 * group and must be able to end every descendant.
 */
export interface ProcessRunner {
  /** Starts a process. Throws only for host misuse; a failed exec shows as exit code 127/126. */
  spawn(options: SpawnOptions): RunningProcess;
  /**
   * Kills the whole tree of every non-isolated process this runner started
   * (also those whose main process already exited but left descendants).
   * Later `spawn` calls throw.
   */
  close(): Promise<void>;
}
