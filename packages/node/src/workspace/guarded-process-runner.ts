/**
 * The `processes` of a local workspace: the host's ProcessRunner (or the
 * workspace's own), refusing new processes once the workspace is closed.
 */
import { type ProcessRunner, type RunningProcess, SdkError, type SpawnOptions } from "@agent-tools/core";

/** How {@link guardProcessRunner} sees its workspace. */
export interface ProcessRunnerGuard {
  /** True once the workspace is closed. */
  isClosed(): boolean;
  /** True when the workspace created the runner (then `close()` closes it). */
  readonly ownsRunner: boolean;
}

/**
 * Wraps `runner`: `spawn` throws `SdkError` `closed` after the workspace
 * (or this wrapper) was closed; `close()` closes the runner only when the
 * workspace owns it, so a host's runner keeps serving the host.
 */
export function guardProcessRunner(runner: ProcessRunner, guard: ProcessRunnerGuard): ProcessRunner {
  let closed = false;
  return {
    spawn(options: SpawnOptions): RunningProcess {
      if (closed || guard.isClosed()) throw new SdkError("closed", "Workspace processes: spawn was called after the workspace was closed.");
      return runner.spawn(options);
    },
    async close(): Promise<void> {
      closed = true;
      if (guard.ownsRunner) await runner.close();
    },
  };
}
