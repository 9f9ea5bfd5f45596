/**
 * Runs a bash task: its script with `bash -c` in its workdir, stdout and
 * stderr merged in arrival order, under its timeout; a timeout or an abort
 * kills the whole process tree. The run obeys the task's recorded policy:
 * its workdir must still lie inside the creating registry's writable roots,
 * and it is confined like that registry's own commands.
 */
import type { CommandSandbox, ProcessRunner, SandboxPolicy } from "@agent-tools/core";
import { tryRealpath } from "@agent-tools/core/internal";
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import type { CronTask } from "../domain/cron-types.js";
import { superviseBashRun } from "./bash-run-supervision.js";
import { type CronTaskOutcome, type CronTaskRunContext, taskPolicyOrRefusal, verifiedRunWorkdir } from "./cron-task-outcome.js";
import { liveCronPolicyRoots } from "./cron-workdir-check.js";
import { runBashTaskInWorkspace } from "./workspace-bash-task.js";

/** Options of {@link runBashTask}. */
export interface BashTaskRunOptions extends CronTaskRunContext {
  readonly processRunner: ProcessRunner;
  /** Confines the script; absent: runs of tasks whose registry confined commands are refused, the others run unconfined. */
  readonly sandbox?: CronBashSandbox;
  /**
   * Workspaces that are not the local disk (SSH, ...) bash tasks may run in:
   * a task recorded by a registry on a workspace runs through the one of the
   * same label (its `processes`), never on this host.
   */
  readonly workspaces?: readonly Workspace[];
}

/** How one bash run is confined: a sandbox and the policy to confine with, or why no sandbox can start. */
export type CronBashConfinement = { readonly sandbox: CommandSandbox; readonly policy: SandboxPolicy } | { readonly unavailable: string };

/** What {@link CronBashSandbox.confinementFor} gets for one run. */
export interface CronBashConfinementRequest {
  /** The task's recorded policy (its sandbox settings and network). */
  readonly policy: CronTaskPolicy;
  /** The policy's workspace and write roots that still resolve to themselves: the only directories to bind writable. */
  readonly writableRoots: readonly string[];
  /** The policy's read roots that still resolve to themselves. */
  readonly readOnlyRoots: readonly string[];
}

/**
 * The confinement of bash tasks a scheduler offers (the SDK builds one on
 * bubblewrap). For each run it gets the task's recorded policy and the
 * verified roots, and answers with the sandbox and the {@link SandboxPolicy}
 * to confine with: writable exactly `writableRoots` (plus the policy
 * sandbox's own `writableRoots`), `readOnlyRoots` read-only, the network
 * only when the policy's sandbox (and the scheduler's own) allow it, the
 * policy's hidden paths hidden. It may narrow the policy, never widen it.
 * Undefined runs the script unconfined, which the runner refuses when the
 * policy recorded a sandbox; `{ unavailable }` refuses the run with that reason.
 */
export interface CronBashSandbox {
  confinementFor(request: CronBashConfinementRequest): Promise<CronBashConfinement | undefined>;
}

/**
 * Runs `task.script` once. Never throws: a missing or unreadable policy, a
 * workdir missing or outside the policy's writable roots, a sandbox that is
 * needed but absent or cannot start, a failed start, a non-zero exit, a
 * timeout or an abort come back as a failed outcome whose output says what
 * happened (the first two also set `disableTask`). The workdir is resolved
 * and compared again right before the spawn; the sandbox binds the policy's
 * roots, never the workdir, which is only the confined command's cwd.
 * Processes the script left running in the background are killed when it
 * ends: a run leaves nothing behind.
 *
 * @example
 * const outcome = await runBashTask(task, { processRunner: new ExecaProcessRunner() });
 */
export async function runBashTask(task: CronTask, options: BashTaskRunOptions): Promise<CronTaskOutcome> {
  if (task.script === undefined || task.script.trim() === "") {
    return { success: false, exitCode: null, output: `Task ${task.id} has no script. Update the task with a script.` };
  }
  const recorded = taskPolicyOrRefusal(task);
  if ("refusal" in recorded) return recorded.refusal;
  const { policy } = recorded;
  if (policy.workspaceLabel !== undefined) {
    return runBashTaskInWorkspace(task, policy, {
      ...(options.workspaces === undefined ? {} : { workspaces: options.workspaces }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      wouldConfine: async () => (await options.sandbox?.confinementFor({ policy, writableRoots: [], readOnlyRoots: [] })) !== undefined,
    });
  }
  const checked = await verifiedRunWorkdir(task, policy);
  if ("refusal" in checked) return checked.refusal;
  if (options.signal?.aborted) return { success: false, exitCode: null, output: "The run was cancelled before it started." };

  const roots = liveCronPolicyRoots(policy);
  const confinement = await options.sandbox?.confinementFor({ policy, writableRoots: roots.writable, readOnlyRoots: roots.readOnly });
  // Fail closed: a sandbox that was asked for (by the task's registry or this scheduler) but cannot start runs nothing.
  if (confinement !== undefined && "unavailable" in confinement)
    return { success: false, exitCode: null, output: `The script was not run: ${confinement.unavailable}` };
  if (confinement === undefined && policy.sandbox !== undefined) {
    return {
      success: false,
      exitCode: null,
      output:
        "The script was not run: the registry that created this task confines its commands in a sandbox, and this scheduler has none. Start the scheduler with a sandbox (startBuiltinCronScheduler confines bash tasks through bubblewrap; with startCronScheduler pass `bashSandbox`).",
    };
  }
  // The last check before the spawn: a folder swapped for a symlink since the check above is refused, not entered.
  if (tryRealpath(task.workdir as string) !== checked.workdir) {
    return {
      success: false,
      exitCode: null,
      output: `The working directory ${task.workdir} of task ${task.id} changed while the run was starting (it now resolves to ${tryRealpath(task.workdir as string) ?? "nothing"}); the script was not run.`,
    };
  }

  const spawn = { command: task.script, shell: "/bin/bash", cwd: checked.workdir };
  const child = options.processRunner.spawn(confinement === undefined ? spawn : confinement.sandbox.confine(spawn, confinement.policy));
  return superviseBashRun(task, child, options.signal);
}
