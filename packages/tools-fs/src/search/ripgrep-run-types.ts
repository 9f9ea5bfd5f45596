/** What a ripgrep run takes and gives (see `runRipgrep`). */
import type { ProgramRunner } from "@agent-tools/core";

/** What a ripgrep run returned. */
export interface RipgrepOutput {
  /** What ripgrep printed (empty when `onStdout` took it). */
  stdout: Buffer;
  /** How many bytes ripgrep printed. */
  stdoutBytes: number;
  stderr: string;
  exitCode: number;
  /** The run printed more than `maxStdoutBytes` and was stopped: `stdout` is incomplete. */
  exceeded?: true;
  /** A signal not sent for `maxStdoutBytes` ended the run (say the OOM killer): `stdout` may be incomplete. */
  endedBySignal?: NodeJS.Signals;
}

/** Options of `runRipgrep`. */
export interface RunRipgrepOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Stop the run once it has printed more than this many bytes (`exceeded` is then set). */
  maxStdoutBytes?: number;
  /** Takes each chunk of stdout as it arrives (then `stdout` stays empty). */
  onStdout?: (chunk: Buffer) => void;
  /**
   * Let ripgrep write into an anonymous temporary file, read when it exits,
   * instead of a pipe: faster for output of megabytes (see
   * `runRipgrepToFile`); `onStdout` then gets it all in one chunk.
   * Falls back to the pipe when no temporary file can be made.
   */
  outputFile?: boolean;
  /** Starts ripgrep (the ProgramRunner port); default the Node adapter, `NodeProgramRunner` of `@agent-tools/node` (an optional peer). */
  runner?: ProgramRunner;
}
