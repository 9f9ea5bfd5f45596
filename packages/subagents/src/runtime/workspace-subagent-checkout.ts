/**
 * Fills a new worktree on a non-local workspace (made by `git worktree add
 * --no-checkout`) without running anything the repository's config or
 * attributes name.
 *
 * The repository's common git directory is writable by a model's commands
 * on such a workspace (no sandbox keeps it read-only): a child's Bash can
 * set `filter.<name>.process` / `smudge` in `<common dir>/config`, include
 * another file from it, or add `* filter=<name>` to `<common dir>/info/attributes`.
 * A plain `git worktree add` checks the files out through those drivers, on
 * the remote machine, after the child's processes were ended. Here the
 * checkout (`read-tree --reset -u`) runs in a private git directory
 * (`workspace-subagent-private-git.ts`): no config of the repository is
 * read (so no driver, include or conditional include), every path's
 * `filter`, `diff` and `merge` are unset, hooks and fsmonitor are off. The
 * index it writes is the worktree's own, so git in the worktree sees a
 * clean checkout of the base commit.
 *
 * Files are written as the repository's committed bytes with the carried
 * line-ending settings; no smudge filter runs (the snapshot diffs without
 * clean filters as well, so the two agree).
 */
import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { removeTreeIn } from "./workspace-subagent-fs.js";
import { describeGitRun, runWorkspaceGit } from "./workspace-subagent-git.js";
import { commonGitDir, preparePrivateGit } from "./workspace-subagent-private-git.js";

/** Options of {@link checkoutWorkspaceWorktree}. */
export interface WorkspaceCheckoutOptions {
  /** The parent's repository (work tree root). */
  readonly repositoryRoot: string;
  /** The worktree `git worktree add --no-checkout` made. */
  readonly worktreePath: string;
  /** The commit it is checked out at. */
  readonly baseCommit: string;
  /** A folder of the workspace (not the worktree) to hold the scratch folder, removed afterwards. */
  readonly scratchParent: string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Checks `baseCommit` out into the worktree and its index (see the module
 * comment): undefined when done, else why not (the caller removes the
 * worktree); rejects only when `signal` aborts.
 *
 * @example
 * const problem = await checkoutWorkspaceWorktree(workspace, { repositoryRoot: "/srv/app", worktreePath, baseCommit, scratchParent: folder });
 */
export async function checkoutWorkspaceWorktree(workspace: Workspace, options: WorkspaceCheckoutOptions): Promise<string | undefined> {
  try {
    return await checkout(workspace, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return error instanceof Error ? error.message : String(error);
  }
}

async function checkout(workspace: Workspace, options: WorkspaceCheckoutOptions): Promise<string | undefined> {
  const { signal, repositoryRoot: root, worktreePath, baseCommit } = options;
  const commonDir = await commonGitDir(workspace, root, signal);
  if (typeof commonDir !== "string") return describeGitRun(["rev-parse", "--git-common-dir"], commonDir);
  // The worktree is ours and fresh (no child ran in it yet): ask git where its index lives, and insist it is in the common dir.
  const indexArgs = ["rev-parse", "--git-path", "index"];
  const indexRun = await runWorkspaceGit(workspace, indexArgs, { cwd: worktreePath, ...(signal ? { signal } : {}) });
  if (indexRun.exitCode !== 0) return describeGitRun(indexArgs, indexRun);
  const indexFile = posix.resolve(worktreePath, indexRun.stdout.toString("utf8").replace(/\n$/, ""));
  if (!isWithinWorkspacePath(posix.join(commonDir, "worktrees"), indexFile)) {
    return `the worktree's index ${indexFile} is not in ${posix.join(commonDir, "worktrees")}`;
  }
  const scratch = posix.join(options.scratchParent, `.checkout-${randomBytes(6).toString("hex")}`);
  await workspace.fs.mkdir(scratch, { recursive: true });
  try {
    const git = await preparePrivateGit(workspace, {
      scratch,
      repositoryRoot: root,
      commonDir,
      baseCommit,
      workTree: worktreePath,
      indexFile,
      ...(signal === undefined ? {} : { signal }),
    });
    const args = ["read-tree", "--reset", "-u", baseCommit];
    const run = await git.run(args);
    return run.exitCode === 0 ? undefined : describeGitRun(args, run);
  } finally {
    await removeTreeIn(workspace, scratch).catch(() => undefined);
  }
}
