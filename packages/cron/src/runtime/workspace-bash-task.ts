/**
 * A bash task recorded by a registry on a workspace that is not the local
 * disk: it runs through that workspace's processes (e.g. over SSH) with its
 * workdir checked through the workspace, never on this host. The sandbox
 * (bubblewrap) confines commands of this host only, so a task whose
 * registry confined commands, or a scheduler that would confine it, is
 * refused rather than run unconfined there.
 */
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import type { CronTask } from "../domain/cron-types.js";
import { superviseBashRun } from "./bash-run-supervision.js";
import type { CronTaskOutcome } from "./cron-task-outcome.js";
import { taskWorkspaceOrRefusal, verifiedWorkspaceRunWorkdir } from "./cron-workspace-run.js";

/** What {@link runBashTaskInWorkspace} needs of its scheduler. */
export interface WorkspaceBashRunOptions {
  /** The workspaces the scheduler was given. */
  readonly workspaces?: readonly Workspace[];
  /** True when the scheduler would confine this run in its (local) sandbox. */
  readonly wouldConfine: () => Promise<boolean>;
  readonly signal?: AbortSignal;
}

function failed(output: string, disableTask = false): CronTaskOutcome {
  return { success: false, exitCode: null, output, ...(disableTask ? { disableTask } : {}) };
}

/** Runs `task.script` (checked non-empty, `policy` readable) in the workspace labelled `policy.workspaceLabel`. Never throws. */
export async function runBashTaskInWorkspace(task: CronTask, policy: CronTaskPolicy, options: WorkspaceBashRunOptions): Promise<CronTaskOutcome> {
  const label = policy.workspaceLabel as string;
  const found = taskWorkspaceOrRefusal(task, policy, options.workspaces);
  if ("refusal" in found) return found.refusal;
  const { workspace } = found;
  if (policy.sandbox !== undefined) {
    return failed(
      `Task ${task.id} was not run: the registry that created it confines its commands in a sandbox, and the sandbox (bubblewrap) confines commands of this host only, not on ${label}.`,
    );
  }
  if (await options.wouldConfine()) {
    return failed(
      `Task ${task.id} was not run: this scheduler confines bash tasks in a sandbox (bubblewrap), which works on this host only, and the task runs on ${label}. Run it from a scheduler without a sandbox, or recreate it from a registry on the local disk.`,
    );
  }
  const processes = workspace.processes;
  if (processes === undefined || !workspace.capabilities.processes) {
    return failed(`Task ${task.id} was not run: the workspace ${label} runs no processes.`);
  }
  const checked = await verifiedWorkspaceRunWorkdir(task, policy, workspace);
  if ("refusal" in checked) return checked.refusal;
  if (options.signal?.aborted) return failed("The run was cancelled before it started.");
  const child = processes.spawn({ command: task.script as string, shell: "/bin/bash", cwd: checked.workdir });
  return superviseBashRun(task, child, options.signal);
}
