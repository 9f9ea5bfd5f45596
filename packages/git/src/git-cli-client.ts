import { copyFile, mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { GitClient } from "@agent-tools/core";
import type { GitAuthor, GitOptions, GitStatusEntry, GitWorktree, GitWorktreeSnapshot } from "@agent-tools/core/git";
import type { ProcessRunner } from "@agent-tools/core";
import { GitClientError } from "@agent-tools/core";
import { type GitCommandResult, runGit } from "./run-git.js";
import { snapshotWorktree } from "./worktree-snapshot/snapshot-worktree.js";
import { stagedDiffArguments } from "./staged-diff-arguments.js";

/** Options of {@link GitCliClient}. */
export interface GitCliClientOptions {
  /** Runs git; default: execa directly. Pass the registry's runner to have git calls killed with it. */
  processRunner?: ProcessRunner;
  /** The git executable; default `git` from PATH. */
  gitBinary?: string;
}

/** The id of git's empty tree, the base of a diff in a repository without commits. */
export const EMPTY_TREE_ID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const MAX_STDERR = 4_000;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The default {@link GitClient}: the git CLI (2.25 or newer), run through the
 * ProcessRunner port or execa. `diff` and `apply` use a throwaway index so
 * the repository's own index is never changed; commits skip hooks
 * (`--no-verify`) and signing. `snapshotWorktree` does not use the runner:
 * its runs get an environment built from nothing (a runner merges the
 * host's), a private git directory and no hooks, fsmonitor or drivers.
 *
 * @example
 * const git = new GitCliClient();
 * const patch = await git.diff("/repo/.worktrees/agent-1");
 * await git.apply("/repo", patch, { threeWay: true });
 */
export class GitCliClient implements GitClient {
  readonly #runner: ProcessRunner | undefined;
  readonly #binary: string;

  constructor(options: GitCliClientOptions = {}) {
    this.#runner = options.processRunner;
    this.#binary = options.gitBinary ?? "git";
  }

  async #git(
    cwd: string,
    args: readonly string[],
    options: { input?: string; env?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<GitCommandResult> {
    return runGit(this.#runner, this.#binary, args, { cwd, ...options });
  }

  /** Runs git and throws a GitClientError on a non-zero exit. */
  async #checked(
    cwd: string,
    args: readonly string[],
    options: { input?: string; env?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<GitCommandResult> {
    const result = await this.#git(cwd, args, options);
    if (result.exitCode !== 0) throw commandFailed(args, result);
    return result;
  }

  async repositoryRoot(cwd: string, options: GitOptions = {}): Promise<string | null> {
    const result = await this.#git(cwd, ["rev-parse", "--show-toplevel"], options);
    if (result.exitCode !== 0) return null;
    const root = result.stdout.toString("utf8").trim();
    return root === "" ? null : root;
  }

  async #topLevel(repo: string, signal: AbortSignal | undefined): Promise<string> {
    const root = await this.repositoryRoot(repo, { signal });
    if (!root) throw new GitClientError("not_a_repository", `${repo} is not inside a git work tree.`);
    return root;
  }

  async addWorktree(repo: string, options: { path: string; branch: string; startPoint?: string } & GitOptions): Promise<void> {
    const args = ["worktree", "add", "-b", options.branch, "--", options.path];
    if (options.startPoint) args.push(options.startPoint);
    await this.#checked(repo, args, { signal: options.signal });
  }

  async removeWorktree(repo: string, options: { path: string; force?: boolean } & GitOptions): Promise<void> {
    await this.#checked(repo, ["worktree", "remove", ...(options.force ? ["--force"] : []), "--", options.path], { signal: options.signal });
  }

  async pruneWorktrees(repo: string, options: GitOptions = {}): Promise<void> {
    await this.#checked(repo, ["worktree", "prune"], options);
  }

  async deleteBranch(repo: string, options: { branch: string } & GitOptions): Promise<void> {
    const { branch, signal } = options;
    const exists = await this.#git(repo, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`], { signal });
    if (exists.exitCode !== 0) return;
    await this.#checked(repo, ["branch", "-D", branch], { signal });
  }

  async snapshotWorktree(repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions): Promise<GitWorktreeSnapshot> {
    const target = { repositoryRoot: repo, path: options.worktree, ...(options.base === undefined ? {} : { baseCommit: options.base }) };
    return snapshotWorktree(this.#binary, target, {
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  }

  async listWorktrees(repo: string, options: GitOptions = {}): Promise<GitWorktree[]> {
    const result = await this.#checked(repo, ["worktree", "list", "--porcelain"], options);
    const worktrees: GitWorktree[] = [];
    for (const block of result.stdout.toString("utf8").split(/\n\n+/)) {
      let current: GitWorktree | undefined;
      for (const line of block.split("\n")) {
        if (line.startsWith("worktree ")) current = { path: line.slice("worktree ".length), branch: null, head: null };
        else if (current && line.startsWith("HEAD ")) current.head = /^0+$/.test(line.slice(5)) ? null : line.slice(5);
        else if (current && line.startsWith("branch ")) current.branch = line.slice("branch ".length).replace(/^refs\/heads\//, "");
      }
      if (current) worktrees.push(current);
    }
    return worktrees;
  }

  async clone(url: string, target: string, options: { ref?: string; depth?: number } & GitOptions = {}): Promise<void> {
    const env = { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "", GIT_SSH_COMMAND: "ssh -oBatchMode=yes" };
    const shallow = options.depth ? ["--depth", String(options.depth)] : [];
    // `--branch` takes branches and tags; a commit id needs a full clone and a checkout.
    const ref = options.ref;
    const byName = ref === undefined || !/^[0-9a-f]{7,40}$/i.test(ref);
    const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^[^/]+@[^/:]+:/.test(url);
    const transport = local && shallow.length > 0 ? ["--no-local"] : [];
    const source = local && shallow.length > 0 ? `file://${path.resolve(url)}` : url;
    const args = ["clone", "--quiet", "--no-tags", ...(byName ? shallow : []), ...(byName && ref ? ["--branch", ref, "--single-branch"] : []), ...transport];
    await this.#checked(path.dirname(target), [...args, "--", source, target], { env, signal: options.signal });
    if (!byName && ref) await this.#checked(target, ["-c", "advice.detachedHead=false", "checkout", "--quiet", ref, "--"], { env, signal: options.signal });
  }

  async status(repo: string, options: GitOptions = {}): Promise<GitStatusEntry[]> {
    const result = await this.#checked(repo, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=none"], options);
    const entries: GitStatusEntry[] = [];
    for (const record of result.stdout.toString("utf8").split("\0")) {
      if (record.length < 4) continue;
      entries.push({ index: record[0]!, workTree: record[1]!, path: record.slice(3) });
    }
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Runs `body` with a throwaway copy of the index in which the whole work tree is staged. */
  async #withWorkTreeIndex<T>(root: string, signal: AbortSignal | undefined, body: (env: Record<string, string>) => Promise<T>): Promise<T> {
    const indexPath = path.resolve(root, (await this.#checked(root, ["rev-parse", "--git-path", "index"], { signal })).stdout.toString("utf8").trim());
    const directory = await mkdtemp(path.join(os.tmpdir(), "agent-tools-git-"));
    const temporaryIndex = path.join(directory, "index");
    try {
      const original = await stat(indexPath).catch(() => undefined);
      if (original) {
        await copyFile(indexPath, temporaryIndex);
        // Keep git's racy-clean check working: a copy with a fresh mtime would make git
        // trust the cached stat data of files rewritten (same size) in the index's second.
        const mtime = new Date(original.mtimeMs - 2_000);
        await utimes(temporaryIndex, mtime, mtime);
      }
      const env = { GIT_INDEX_FILE: temporaryIndex };
      await this.#checked(root, ["add", "-A", "--", "."], { env, signal });
      return await body(env);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  async diff(repo: string, options: { base?: string } & GitOptions = {}): Promise<string> {
    const signal = options.signal;
    const root = await this.#topLevel(repo, signal);
    let base = options.base ?? "HEAD";
    if (options.base === undefined) {
      const head = await this.#git(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { signal });
      if (head.exitCode !== 0) base = EMPTY_TREE_ID;
    }
    const diffArgs = stagedDiffArguments(base);
    return this.#withWorkTreeIndex(root, signal, async (env) => {
      const output = (await this.#checked(root, diffArgs, { env, signal })).stdout;
      try {
        return utf8.decode(output);
      } catch {
        // A text file that is not UTF-8 would not survive as a string: emit every file as a binary patch instead.
        const directory = await mkdtemp(path.join(os.tmpdir(), "agent-tools-git-attributes-"));
        try {
          const attributes = path.join(directory, "attributes");
          await writeFile(attributes, "* binary\n");
          return (await this.#checked(root, ["-c", `core.attributesFile=${attributes}`, ...diffArgs], { env, signal })).stdout.toString("latin1");
        } finally {
          await rm(directory, { recursive: true, force: true });
        }
      }
    });
  }

  async apply(repo: string, patch: string, options: { threeWay?: boolean } & GitOptions = {}): Promise<void> {
    const signal = options.signal;
    const root = await this.#topLevel(repo, signal);
    if (patch.trim() === "") return;
    const plainArgs = ["apply", "--whitespace=nowarn", "--binary", "-"];
    const plain = await this.#git(root, plainArgs, { input: patch, signal });
    if (plain.exitCode === 0) return;
    if (!options.threeWay) {
      throw new GitClientError("patch_failed", `The patch does not apply; nothing was changed.\n${plain.stderr.trim()}`, {
        paths: failedPaths(plain.stderr),
        command: "git apply",
        exitCode: plain.exitCode,
        stderr: plain.stderr.slice(0, MAX_STDERR),
      });
    }
    // `--3way` also updates an index: give it a throwaway one that matches the work tree.
    await this.#withWorkTreeIndex(root, signal, async (env) => {
      const merged = await this.#git(root, ["apply", "--3way", "--whitespace=nowarn", "--binary", "-"], { input: patch, env, signal });
      if (merged.exitCode === 0) return;
      const conflicts = [...merged.stderr.matchAll(/^U (.+)$/gm)].map((match) => match[1]!);
      if (conflicts.length > 0) {
        throw new GitClientError("conflict", `The patch was merged with conflicts in ${conflicts.join(", ")}; resolve the conflict markers.`, {
          paths: conflicts,
          command: "git apply --3way",
          exitCode: merged.exitCode,
          stderr: merged.stderr.slice(0, MAX_STDERR),
        });
      }
      throw new GitClientError("patch_failed", `The patch does not apply, even with a 3-way merge; nothing was changed.\n${merged.stderr.trim()}`, {
        paths: failedPaths(merged.stderr),
        command: "git apply --3way",
        exitCode: merged.exitCode,
        stderr: merged.stderr.slice(0, MAX_STDERR),
      });
    });
  }

  async commit(repo: string, options: { message: string; author?: GitAuthor } & GitOptions): Promise<string> {
    const signal = options.signal;
    const root = await this.#topLevel(repo, signal);
    await this.#checked(root, ["add", "-A", "--", "."], { signal });
    const env: Record<string, string> = {};
    if (options.author) {
      env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = options.author.name;
      env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = options.author.email;
    }
    const staged = await this.#git(root, ["diff", "--cached", "--quiet"], { signal });
    const head = await this.#git(root, ["rev-parse", "--verify", "--quiet", "HEAD"], { signal });
    if (staged.exitCode === 0 && head.exitCode === 0) {
      throw new GitClientError("nothing_to_commit", "There is nothing to commit: the work tree matches HEAD.");
    }
    await this.#checked(root, ["-c", "commit.gpgSign=false", "commit", "--no-verify", "--quiet", "--allow-empty-message", "-F", "-"], {
      input: options.message,
      env,
      signal,
    });
    return (await this.#checked(root, ["rev-parse", "HEAD"], { signal })).stdout.toString("utf8").trim();
  }
}

function commandFailed(args: readonly string[], result: GitCommandResult): GitClientError {
  const stderr = result.stderr.trim();
  return new GitClientError("command_failed", `git ${args.join(" ")} failed (exit ${result.exitCode}): ${stderr || "no message"}`, {
    command: `git ${args.join(" ")}`,
    exitCode: result.exitCode,
    stderr: stderr.slice(0, MAX_STDERR),
    paths: failedPaths(stderr),
  });
}

/** Paths named in git apply's error lines. */
function failedPaths(stderr: string): string[] {
  const paths = new Set<string>();
  for (const match of stderr.matchAll(
    /^error: (?:patch failed: (.+):\d+|(.+?): (?:patch does not apply|already exists in working directory|does not exist in index|No such file or directory|does not match index|already exists in index))$/gm,
  )) {
    paths.add((match[1] ?? match[2])!);
  }
  return [...paths];
}
