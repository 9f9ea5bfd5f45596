/**
 * The checks every run of a task recorded on a workspace that is not the
 * local disk (its policy's `workspaceLabel`) shares, bash or prompt: the
 * scheduler's workspace of that label (never this host instead), the
 * workdir resolved through it (existing, a directory, inside the recorded
 * writable roots and inside the workspace's root), and the recorded roots
 * that still resolve to themselves there.
 */
import { type Workspace, canonicalizeInWorkspace, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { type CronTaskPolicy, cronPolicyReadOnlyRoots, cronPolicyWritableRoots } from "../domain/cron-task-policy.js";
import type { CronTask } from "../domain/cron-types.js";
import type { CronTaskOutcome } from "./cron-task-outcome.js";
import { type LiveCronPolicyRoots, cronWorkdirRefusal } from "./cron-workdir-check.js";
import { judgeCronWorkdirInWorkspace, workspaceWorkdirProblem } from "./cron-workspace-workdir.js";

function failed(output: string, disableTask = false): CronTaskOutcome {
  return { success: false, exitCode: null, output, ...(disableTask ? { disableTask } : {}) };
}

/**
 * The scheduler's workspace labelled `policy.workspaceLabel`, or the failed
 * outcome naming the label and what to pass (the task stays enabled, for a
 * scheduler that has it).
 *
 * @example
 * const found = taskWorkspaceOrRefusal(task, policy, [workspace]);
 * if ("refusal" in found) return found.refusal;
 */
export function taskWorkspaceOrRefusal(
  task: CronTask,
  policy: CronTaskPolicy,
  workspaces: readonly Workspace[] | undefined,
): { readonly workspace: Workspace } | { readonly refusal: CronTaskOutcome } {
  const label = policy.workspaceLabel as string;
  const workspace = workspaces?.find((candidate) => candidate.label === label);
  if (workspace !== undefined) return { workspace };
  return {
    refusal: failed(
      `Task ${task.id} was not run: it belongs to the workspace ${label}, and this scheduler was not given it (start the scheduler with workspaces: [the workspace of that label]). It never runs on this host instead.`,
    ),
  };
}

/**
 * The canonical workdir of a run of `task` in `workspace`, checked now
 * through it: existing, a directory, inside `policy`'s writable roots that
 * still resolve to themselves there, and inside `workspace.root` (a
 * workspace of the same label opened on another root does not widen what
 * the task reaches). A refusal disables the task; a workdir that cannot be
 * checked (a dropped connection) fails the run only.
 */
export async function verifiedWorkspaceRunWorkdir(
  task: CronTask,
  policy: CronTaskPolicy,
  workspace: Workspace,
): Promise<{ readonly workdir: string } | { readonly refusal: CronTaskOutcome }> {
  const label = workspace.label;
  try {
    const missing = await workspaceWorkdirProblem(workspace, task.workdir, task.id);
    if (missing !== undefined) return { refusal: failed(missing, true) };
    const workdir = task.workdir as string;
    const verdict = await judgeCronWorkdirInWorkspace(workspace, workdir, policy);
    const refusal = cronWorkdirRefusal(`The working directory ${workdir} of task ${task.id}`, workdir, verdict, policy, "the registry that created the task");
    if (refusal !== undefined) {
      return {
        refusal: failed(
          `${refusal} (in ${label}). The run was refused and the task disabled: update its workdir to a directory inside them, then enable it again.`,
          true,
        ),
      };
    }
    const canonical = verdict.canonical as string;
    if (!isWithinWorkspacePath(workspace.root, canonical)) {
      return {
        refusal: failed(
          `The working directory ${workdir} of task ${task.id}${canonical === workdir ? "" : ` (it resolves to ${canonical})`} is outside the root ${workspace.root} of the workspace ${label} this scheduler was given. The run was refused and the task disabled: give the scheduler the workspace the task was created on, or update its workdir, then enable it again.`,
          true,
        ),
      };
    }
    return { workdir: canonical };
  } catch (error) {
    return {
      refusal: failed(
        `Task ${task.id} was not run: its working directory could not be checked in ${label} (${error instanceof Error ? error.message : String(error)}).`,
      ),
    };
  }
}

/**
 * The roots of `policy` a run in `workspace` may use: each resolved again
 * through the workspace and kept only when it still exists, resolves to
 * itself and lies inside `workspace.root`.
 *
 * @example
 * await liveCronPolicyRootsInWorkspace(workspace, policy); // { writable: ["/srv/app"], readOnly: [] }
 */
export async function liveCronPolicyRootsInWorkspace(workspace: Workspace, policy: CronTaskPolicy): Promise<LiveCronPolicyRoots> {
  const live = async (root: string): Promise<boolean> => {
    if (!isWithinWorkspacePath(workspace.root, root)) return false;
    try {
      const resolved = await canonicalizeInWorkspace(workspace.fs, root);
      return resolved.exists && resolved.canonicalPath === root;
    } catch {
      return false;
    }
  };
  const keep = async (roots: readonly string[]) => {
    const kept: string[] = [];
    for (const root of roots) if (await live(root)) kept.push(root);
    return kept;
  };
  return { writable: await keep(cronPolicyWritableRoots(policy)), readOnly: await keep(cronPolicyReadOnlyRoots(policy)) };
}
