/**
 * ProgramRunner: runs a short-lived helper program (ripgrep for Grep)
 * directly, without a shell, a process group or a tree watch: the
 * cheap path for a program that starts no children and ends by itself.
 * Long-lived commands and anything the model starts go through
 * the `ProcessRunner` port instead.
 */

/** Options of {@link ProgramRunner.run}. */
export interface ProgramRunOptions {
  /** The executable (absolute path or a name looked up on PATH). */
  command: string;
  /** Its arguments, passed as they are (no shell). */
  args: readonly string[];
  /** Absolute working directory. */
  cwd: string;
  /**
   * Where stdout goes: a function taking each chunk as it arrives, or an
   * open file descriptor the program writes into directly (the caller keeps
   * and closes it).
   */
  stdout: ((chunk: Buffer) => void) | number;
  /** Takes each chunk of stderr as it arrives; default: stderr is read and dropped. */
  stderr?: (chunk: Buffer) => void;
}

/** How a program ended. */
export interface ProgramExit {
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
}

/** A started program. stdin is closed (`/dev/null`), the environment is the host's. */
export interface ProgramRun {
  /**
   * Resolves once the program ended and its output streams closed; rejects
   * when it could not be started (say a missing executable or cwd).
   */
  readonly finished: Promise<ProgramExit>;
  /** Ends the program at once (SIGKILL); safe to call repeatedly, and after it ended. */
  kill(): void;
}

/** Starts helper programs (the Node adapter: `NodeProgramRunner` of `@agent-tools/node`). */
export interface ProgramRunner {
  /** Starts `command`; throws only for arguments the platform refuses outright. */
  run(options: ProgramRunOptions): ProgramRun;
}
