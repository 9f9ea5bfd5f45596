/** What both ways of running ripgrep (pipe, temporary file) watch on the run. */
import type { ProgramRun } from "@agent-tools/core";

/** stderr kept of a run: enough for any error ripgrep reports, bounded against a flood of per-file warnings. */
const STDERR_KEPT_CHARS = 64 * 1024;

/** A ripgrep run's stderr, collected (see {@link collectRipgrepStderr}). */
export interface RipgrepStderr {
  /** Takes a chunk of stderr (the run's `stderr` listener). */
  onChunk(chunk: Buffer): void;
  /** What the run printed on stderr so far (its first 64 KiB). */
  text(): string;
}

/** Collects the first 64 KiB of a run's stderr. */
export function collectRipgrepStderr(): RipgrepStderr {
  let stderr = "";
  return {
    onChunk: (chunk) => {
      if (stderr.length < STDERR_KEPT_CHARS) stderr += chunk.toString("utf8");
    },
    text: () => stderr,
  };
}

/**
 * Kills `run` (SIGKILL) when `signal` aborts, or at once when it aborted
 * already (say while the runner was being loaded); returns the function that
 * stops listening (call once the run ended).
 */
export function killRipgrepOnAbort(run: ProgramRun, signal: AbortSignal | undefined): () => void {
  const onAbort = () => run.kill();
  if (signal?.aborted) {
    onAbort();
    return () => undefined;
  }
  signal?.addEventListener("abort", onAbort, { once: true });
  return () => signal?.removeEventListener("abort", onAbort);
}
