/**
 * Where a prompt task recorded by a registry on a workspace that is not the
 * local disk runs: the scheduler's workspace of the same label, its workdir
 * checked through that workspace as a bash task's is, and the recorded
 * roots still live there. The run's registry is then built on that
 * workspace (see `BuildPromptRegistry`), never on this host's disk.
 */
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import type { CronTask } from "../domain/cron-types.js";
import type { CronTaskOutcome } from "./cron-task-outcome.js";
import type { LiveCronPolicyRoots } from "./cron-workdir-check.js";
import { liveCronPolicyRootsInWorkspace, taskWorkspaceOrRefusal, verifiedWorkspaceRunWorkdir } from "./cron-workspace-run.js";

/** A prompt run placed in its task's workspace: the checked workdir there, the workspace and the live roots. */
export interface PlacedPromptRun {
  readonly workdir: string;
  readonly placement: { readonly workspace: Workspace; readonly liveRoots: LiveCronPolicyRoots };
}

/**
 * Places a prompt run of `task` (whose `policy.workspaceLabel` is set) in
 * the workspace of that label among `workspaces`, or the failed outcome
 * saying why: the scheduler was not given it (the task stays enabled), the
 * creating registry confined its commands in a sandbox (local-only), or the
 * workdir is missing or outside the recorded roots or the workspace's root
 * there (the task is disabled). Never throws.
 *
 * @example
 * const placed = await placePromptRunInWorkspace(task, policy, [workspace]);
 * if ("refusal" in placed) return placed.refusal;
 */
export async function placePromptRunInWorkspace(
  task: CronTask,
  policy: CronTaskPolicy,
  workspaces: readonly Workspace[] | undefined,
): Promise<PlacedPromptRun | { readonly refusal: CronTaskOutcome }> {
  const found = taskWorkspaceOrRefusal(task, policy, workspaces);
  if ("refusal" in found) return found;
  const { workspace } = found;
  if (policy.sandbox !== undefined) {
    return {
      refusal: {
        success: false,
        exitCode: null,
        output: `Task ${task.id} was not run: the registry that created it confines its commands in a sandbox, and the sandbox (bubblewrap) confines commands of this host only, not on ${workspace.label}.`,
      },
    };
  }
  const checked = await verifiedWorkspaceRunWorkdir(task, policy, workspace);
  if ("refusal" in checked) return checked;
  // Each root resolved again there: one moved or swapped for a symlink since it was recorded counts for nothing.
  const liveRoots = await liveCronPolicyRootsInWorkspace(workspace, policy);
  return { workdir: checked.workdir, placement: { workspace, liveRoots } };
}
