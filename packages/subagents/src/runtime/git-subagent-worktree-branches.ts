import { execFile } from "node:child_process";
import { HOST_GIT_SAFETY_ENVIRONMENT } from "@agent-tools/core";
import { withoutRepositoryVariables } from "./isolated-git-run.js";

/**
 * The two git operations a worktree's cleanup needs beyond the GitClient
 * port: deleting its branch and pruning worktree entries whose directory
 * is gone.
 */
export interface SubagentBranchCommands {
  /** Deletes local branch `branch` (also when unmerged); resolves when it does not exist. */
  deleteBranch(repo: string, branch: string, options?: { readonly signal?: AbortSignal }): Promise<void>;
  /** Forgets linked worktrees whose directory no longer exists (`git worktree prune`). */
  pruneWorktrees(repo: string, options?: { readonly signal?: AbortSignal }): Promise<void>;
}

interface GitOutput {
  readonly exitCode: number;
  readonly stderr: string;
}

function runGit(binary: string, repo: string, args: readonly string[], signal: AbortSignal | undefined): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      ["-C", repo, ...args],
      // The host's own GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ... must not point these runs at another repository.
      // Hooks (reference-transaction) and fsmonitor off: the repository's .git may hold what a model's command wrote.
      {
        signal,
        env: {
          ...withoutRepositoryVariables(process.env),
          GIT_TERMINAL_PROMPT: "0",
          LC_ALL: "C",
          LANGUAGE: "C",
          ...HOST_GIT_SAFETY_ENVIRONMENT,
        },
        encoding: "utf8",
      },
      (error, _stdout, stderr) => {
        if (error === null) return resolve({ exitCode: 0, stderr });
        if (typeof error.code === "number") return resolve({ exitCode: error.code, stderr });
        reject(error);
      },
    );
  });
}

/**
 * {@link SubagentBranchCommands} through the git CLI (`git branch -D`,
 * `git worktree prune`).
 *
 * @example
 * const worktrees = new GitSubagentWorktrees({ git: new GitCliClient(), branches: createGitCliBranchCommands() });
 */
export function createGitCliBranchCommands(options: { readonly gitBinary?: string } = {}): SubagentBranchCommands {
  const binary = options.gitBinary ?? "git";
  return {
    async deleteBranch(repo, branch, { signal } = {}) {
      const exists = await runGit(binary, repo, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`], signal);
      if (exists.exitCode !== 0) return;
      const deleted = await runGit(binary, repo, ["branch", "-D", branch], signal);
      if (deleted.exitCode !== 0) throw new Error(`git branch -D ${branch} failed (exit ${deleted.exitCode}): ${deleted.stderr.trim()}`);
    },
    async pruneWorktrees(repo, { signal } = {}) {
      const pruned = await runGit(binary, repo, ["worktree", "prune"], signal);
      if (pruned.exitCode !== 0) throw new Error(`git worktree prune failed (exit ${pruned.exitCode}): ${pruned.stderr.trim()}`);
    },
  };
}
