import type { ToolUpdate } from "@agent-tools/core";
import type { OutputPage } from "./output-ring-buffer.js";
import type { ShellSessionStatus, WaitOutcome } from "./shell-session.js";

/**
 * What Bash, ProcessWait and ProcessStop need of a session: the in-memory
 * `ShellSession`, or a durable one whose process runs under a supervisor and
 * whose output is a log file (`DurableShellSession`).
 */
export interface ResumableSession {
  readonly id: string;
  readonly command: string;
  /** Absolute working directory. */
  readonly cwd: string;
  readonly timeoutMs: number | undefined;
  readonly sandbox: string;
  readonly workspace: string | undefined;
  readonly status: ShellSessionStatus;
  readonly isTerminal: boolean;
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** Cursor bounds: the oldest byte still readable and the offset after the newest. */
  readonly buffer: { readonly oldestCursor: number; readonly nextCursor: number };
  /** Durable sessions only: pids of processes the command left running after its shell exited. */
  readonly descendantsAlive?: readonly number[];
  /** Durable sessions only: true (the process outlives the host). */
  readonly durable?: boolean;
  read(cursor: number | undefined, maxBytes?: number): OutputPage;
  wait(cursor: number, yieldMs: number, signal?: AbortSignal): Promise<WaitOutcome>;
  stream(onUpdate: (update: ToolUpdate) => void): () => void;
  stopOnAbort(signal: AbortSignal): void;
  terminate(reason?: "cancelled" | "timed_out"): Promise<void>;
  endTree(): Promise<void>;
  /**
   * Durable sessions only: the cursor a call reads from when the model gave
   * none (the persisted read cursor; the same start again when the same call
   * id runs again after a crash).
   */
  beginRead?(callId: string, cursor: number | undefined): number | undefined;
  /** Durable sessions only: persists where a call's page ended, before the model gets it. */
  endRead?(callId: string, start: number, end: number): void;
}
