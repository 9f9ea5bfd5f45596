import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** A throwaway repository made with the git CLI, for contract tests. */
export interface GitTestRepository {
  /** Canonical absolute path of the work tree. */
  readonly root: string;
  /** Runs git in the repository (or `cwd`) and returns stdout as text. */
  git(args: readonly string[], options?: { cwd?: string; input?: string }): string;
  /** Runs git and returns stdout as bytes. */
  gitBytes(args: readonly string[], options?: { cwd?: string }): Buffer;
  /** Absolute path of a repository-relative path. */
  path(relative: string): string;
}

/** The identity the test repositories commit with. */
export const TEST_AUTHOR = { name: "Agent Tools Test", email: "agent-tools@example.invalid" } as const;

const gitEnvironment = {
  ...process.env,
  GIT_AUTHOR_NAME: TEST_AUTHOR.name,
  GIT_AUTHOR_EMAIL: TEST_AUTHOR.email,
  GIT_COMMITTER_NAME: TEST_AUTHOR.name,
  GIT_COMMITTER_EMAIL: TEST_AUTHOR.email,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  LC_ALL: "C",
};

function runGitSync(args: readonly string[], cwd: string, input?: string): Buffer {
  return execFileSync("git", [...args], { cwd, env: gitEnvironment, input, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
}

/**
 * Runs the git CLI in `cwd` as the test repositories do (fixed identity, no
 * system or global config) and returns stdout as text; throws on a non-zero
 * exit.
 *
 * @example
 * runTestGit(folder, "init", "-q", "-b", "main");
 */
export function runTestGit(cwd: string, ...args: string[]): string {
  return runGitSync(args, cwd).toString("utf8");
}

/**
 * Creates a temp directory holding a fresh repository (branch `main`, a local
 * user configured). Returns it with a `cleanup` that removes every directory
 * it made.
 */
export async function createGitTestRepository(parent?: string): Promise<GitTestRepository & { cleanup(): Promise<void> }> {
  const base = parent ?? (await realpath(await mkdtemp(path.join(os.tmpdir(), "agent-tools-git-contract-"))));
  await mkdir(base, { recursive: true });
  const root = path.join(base, "repo");
  runGitSync(["init", "-q", "-b", "main", root], base);
  runGitSync(["config", "user.name", TEST_AUTHOR.name], root);
  runGitSync(["config", "user.email", TEST_AUTHOR.email], root);
  runGitSync(["config", "commit.gpgSign", "false"], root);
  runGitSync(["config", "core.autocrlf", "false"], root);
  return {
    root,
    git: (args, options = {}) => runGitSync(args, options.cwd ?? root, options.input).toString("utf8"),
    gitBytes: (args, options = {}) => runGitSync(args, options.cwd ?? root),
    path: (relative) => path.join(root, relative),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Clones `source` next to it (same temp parent) and returns the clone. */
export function cloneGitTestRepository(source: GitTestRepository, name: string): GitTestRepository {
  const target = path.join(path.dirname(source.root), name);
  runGitSync(["clone", "-q", source.root, target], path.dirname(source.root));
  runGitSync(["config", "user.name", TEST_AUTHOR.name], target);
  runGitSync(["config", "user.email", TEST_AUTHOR.email], target);
  return {
    root: target,
    git: (args, options = {}) => runGitSync(args, options.cwd ?? target, options.input).toString("utf8"),
    gitBytes: (args, options = {}) => runGitSync(args, options.cwd ?? target),
    path: (relative) => path.join(target, relative),
  };
}
