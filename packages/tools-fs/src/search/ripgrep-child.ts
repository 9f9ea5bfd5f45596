/** What both ways of running ripgrep (pipe, temporary file) watch on the child process. */
import type { ChildProcess } from "node:child_process";

/** stderr kept of a run: enough for any error ripgrep reports, bounded against a flood of per-file warnings. */
const STDERR_KEPT_CHARS = 64 * 1024;

/** A ripgrep child under watch (see {@link watchRipgrepChild}). */
export interface WatchedRipgrep {
  /** What the child printed on stderr so far (its first 64 KiB). */
  stderr(): string;
  /** Stops listening to the abort signal (call once the child closed). */
  stop(): void;
}

/** Collects the child's stderr and kills it (SIGKILL) when `signal` aborts. */
export function watchRipgrepChild(child: ChildProcess, signal: AbortSignal | undefined): WatchedRipgrep {
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < STDERR_KEPT_CHARS) stderr += chunk.toString("utf8");
  });
  const onAbort = () => child.kill("SIGKILL");
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    stderr: () => stderr,
    stop: () => signal?.removeEventListener("abort", onAbort),
  };
}
