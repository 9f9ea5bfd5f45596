/**
 * What a task executor hands back to the scheduler, and the small checks
 * every executor shares.
 */
import { stat } from "node:fs/promises";
import { type CronTaskPolicy, cronTaskPolicyProblem } from "../domain/cron-task-policy.js";
import { CRON_LIMITS, type CronTask } from "../domain/cron-types.js";
import { cronWorkdirRefusal, judgeCronWorkdir } from "./cron-workdir-check.js";

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

/** A refused run: the task can never run as it stands, so it is disabled. */
function refused(output: string): CronTaskOutcome {
  return { success: false, exitCode: null, output, disableTask: true };
}

/**
 * The task's recorded policy, or the refused outcome when it has none or a
 * malformed one: without it, nothing says which roots, sandbox and network
 * the run may use (fail closed).
 */
export function taskPolicyOrRefusal(task: CronTask): { readonly policy: CronTaskPolicy } | { readonly refusal: CronTaskOutcome } {
  if (task.policy === undefined) {
    const workdir = task.workdir === undefined ? "" : ` (workdir ${task.workdir})`;
    return {
      refusal: refused(
        `Task ${task.id} was not run: it has no record of the roots, sandbox and network of the registry that created it${workdir} (it was stored before tasks recorded them, or by the host without a policy), so nothing says what the run may touch. The task was disabled: update it with CronTaskManager (e.g. enabled=true) from a registry whose workspace or write roots hold its workdir, and it runs under that registry's rules.`,
      ),
    };
  }
  const problem = cronTaskPolicyProblem(task.policy);
  if (problem !== undefined) {
    return {
      refusal: refused(
        `Task ${task.id} was not run: its recorded policy is unreadable (${problem}). The task was disabled: update it with CronTaskManager (e.g. enabled=true) to record the current registry's rules.`,
      ),
    };
  }
  return { policy: task.policy };
}

/**
 * The canonical working directory of a bash or prompt run, checked now:
 * existing, a directory, and inside the writable roots of `policy`; or the
 * refused outcome saying why (the task is disabled).
 */
export async function verifiedRunWorkdir(
  task: CronTask,
  policy: CronTaskPolicy,
): Promise<{ readonly workdir: string } | { readonly refusal: CronTaskOutcome }> {
  const missing = await workdirProblem(task.workdir, task.id);
  if (missing !== undefined) return { refusal: refused(missing) };
  const workdir = task.workdir as string;
  const verdict = judgeCronWorkdir(workdir, policy);
  const refusal = cronWorkdirRefusal(`The working directory ${workdir} of task ${task.id}`, workdir, verdict, policy, "the registry that created the task");
  if (refusal !== undefined) {
    return { refusal: refused(`${refusal}. The run was refused and the task disabled: update its workdir to a directory inside them, then enable it again.`) };
  }
  return { workdir: verdict.canonical as string };
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
