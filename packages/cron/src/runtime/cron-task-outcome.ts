/**
 * What a task executor hands back to the scheduler, and the small checks
 * every executor shares.
 */
import { stat } from "node:fs/promises";
import { CRON_LIMITS, type CronTask } from "../domain/cron-types.js";

/** The outcome of running one task once. */
export interface CronTaskOutcome {
  readonly success: boolean;
  /** bash: the exit code (null when killed or not started); http: the last status. */
  readonly exitCode?: number | null;
  /** At most `CRON_LIMITS.outputMaxChars` characters. */
  readonly output: string;
  /** True when the task can never run as it stands (its workdir is gone): the scheduler disables it. */
  readonly disableTask?: boolean;
}

/** Options every executor takes. */
export interface CronTaskRunContext {
  /** Aborting ends the run at once (the scheduler stops, or lost the run's lease). */
  readonly signal?: AbortSignal;
}

/**
 * Why `workdir` cannot be used as a run's working directory, or undefined
 * when it is an existing directory.
 */
export async function workdirProblem(workdir: string | undefined, taskId: string): Promise<string | undefined> {
  if (workdir === undefined || workdir === "") {
    return `Task ${taskId} has no working directory. Update the task with a workdir, then enable it again.`;
  }
  try {
    const info = await stat(workdir);
    if (info.isDirectory()) return undefined;
    return `The working directory ${workdir} of task ${taskId} is not a directory. The task was disabled: update its workdir, then enable it again.`;
  } catch {
    return `The working directory ${workdir} of task ${taskId} does not exist. The task was disabled: create the directory or update the task's workdir, then enable it again.`;
  }
}

/** A run's deadline: its timeout and the caller's abort, as one signal. */
export interface CronRunDeadline {
  /** Aborts on the timeout or the caller's abort, whichever comes first. */
  readonly signal: AbortSignal;
  /** The task's timeout, ms. */
  readonly timeoutMs: number;
  /** What ended the run early, if anything. */
  ending(): "timeout" | "aborted" | undefined;
  /** Clears the timer and the listener; call it in a finally. */
  dispose(): void;
}

/**
 * Starts a run's deadline: `timeout_seconds` of the task (the default when
 * unset) and the caller's `signal`, whichever ends first, remembered so the
 * output can say which.
 */
export function startRunDeadline(task: CronTask, signal: AbortSignal | undefined): CronRunDeadline {
  const timeoutMs = (task.timeoutSeconds > 0 ? task.timeoutSeconds : CRON_LIMITS.timeoutDefaultSeconds) * 1000;
  const controller = new AbortController();
  let ending: "timeout" | "aborted" | undefined;
  const timer = setTimeout(() => {
    ending ??= "timeout";
    controller.abort();
  }, timeoutMs);
  const onAbort = () => {
    ending ??= "aborted";
    controller.abort();
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timeoutMs,
    ending: () => ending,
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
