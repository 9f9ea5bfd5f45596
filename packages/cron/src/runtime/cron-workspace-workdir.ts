/**
 * The workdir checks of a task recorded on a workspace that is not the
 * local disk (its policy's `workspaceLabel`): the same rules as on the
 * local disk (inside the registry's workspace or a root with write access,
 * by canonical path; a root that no longer resolves to itself counts for
 * nothing), with every path resolved through the workspace.
 */
import { type Workspace, WorkspaceError, canonicalizeInWorkspace, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { type CronTaskPolicy, cronPolicyWritableRoots } from "../domain/cron-task-policy.js";
import type { CronWorkdirVerdict } from "./cron-workdir-check.js";

/** The canonical path of `path` in the workspace (a missing tail appended as written), or undefined when it cannot be resolved. */
async function canonicalIn(workspace: Workspace, path: string): Promise<string | undefined> {
  try {
    return (await canonicalizeInWorkspace(workspace.fs, path)).canonicalPath;
  } catch {
    return undefined;
  }
}

/**
 * Judges `workdir` against `policy`'s writable roots through `workspace`.
 *
 * @example
 * await judgeCronWorkdirInWorkspace(workspace, "/srv/app/..", policy); // { canonical: "/srv", inside: false, changedRoots: [] }
 */
export async function judgeCronWorkdirInWorkspace(workspace: Workspace, workdir: string, policy: CronTaskPolicy): Promise<CronWorkdirVerdict> {
  const roots = cronPolicyWritableRoots(policy);
  const changedRoots: string[] = [];
  for (const root of roots) if ((await canonicalIn(workspace, root)) !== root) changedRoots.push(root);
  const canonical = await canonicalIn(workspace, workdir);
  const inside = canonical !== undefined && roots.some((root) => !changedRoots.includes(root) && isWithinWorkspacePath(root, canonical));
  return { canonical, inside, changedRoots };
}

/** Why `workdir` of task `taskId` cannot be a run's cwd in the workspace (missing, not a directory), or undefined. */
export async function workspaceWorkdirProblem(workspace: Workspace, workdir: string | undefined, taskId: string): Promise<string | undefined> {
  if (workdir === undefined || workdir === "") {
    return `Task ${taskId} has no working directory. Update the task with a workdir, then enable it again.`;
  }
  try {
    const info = await workspace.fs.stat(workdir);
    if (info.type === "directory") return undefined;
    return `The working directory ${workdir} of task ${taskId} in ${workspace.label} is not a directory. The task was disabled: update its workdir, then enable it again.`;
  } catch (error) {
    if (error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory")) {
      return `The working directory ${workdir} of task ${taskId} does not exist in ${workspace.label}. The task was disabled: create the directory or update the task's workdir, then enable it again.`;
    }
    throw error;
  }
}
