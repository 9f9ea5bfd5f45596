import { realpath } from "node:fs/promises";
import { loadIsomorphicGit } from "./load-isomorphic-git.js";
import { SdkError } from "@agent-tools/core";
import type { GitClient } from "@agent-tools/core";
import type { GitAuthor, GitOptions, GitStatusEntry, GitWorktree, GitWorktreeSnapshot } from "@agent-tools/core/git";
import { GitClientError } from "@agent-tools/core";
import { commonGitDirectory, listWorktreesFromFiles, modeChanges, nodeFs, workTreeChanges } from "./isomorphic-working-tree.js";
import { planPatch, writePlan } from "./patch-apply-plan.js";
import { PatchParseError, parsePatch } from "./patch-parser.js";
import { formatFileChange } from "./unified-patch-writer.js";

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  throw reason instanceof Error && reason.name === "AbortError" ? reason : new DOMException("The git operation was aborted.", "AbortError");
}

/** Porcelain letters for a statusMatrix row `[head, workdir, stage]`; two entries when git would print two. */
function statusLetters(head: number, workdir: number, stage: number): [string, string][] {
  if (head === 0) {
    if (stage === 0) return workdir === 0 ? [] : [["?", "?"]];
    return [["A", workdir === 0 ? "D" : stage === 3 || (stage === 2 && workdir !== 2) ? "M" : " "]];
  }
  if (stage === 0)
    return workdir === 0
      ? [["D", " "]]
      : [
          ["D", " "],
          ["?", "?"],
        ];
  const index = stage === 1 ? " " : "M";
  const workTree = workdir === 0 ? "D" : stage === 1 ? (workdir === 2 ? "M" : " ") : stage === 3 || workdir !== stage ? "M" : " ";
  return index === " " && workTree === " " ? [] : [[index, workTree]];
}

/**
 * The isomorphic-git implementation behind {@link IsomorphicGitClient}; this
 * module imports isomorphic-git, diff and diff3 (through its helpers), so it
 * is only loaded once the client checked they are installed.
 */
export class IsomorphicGitEngine implements GitClient {
  async repositoryRoot(cwd: string, options: GitOptions = {}): Promise<string | null> {
    const git = await loadIsomorphicGit();
    throwIfAborted(options.signal);
    try {
      return await realpath(await git.findRoot({ fs: nodeFs, filepath: cwd }));
    } catch {
      return null;
    }
  }

  async #root(repo: string, signal: AbortSignal | undefined): Promise<string> {
    const root = await this.repositoryRoot(repo, { signal });
    if (!root) throw new GitClientError("not_a_repository", `${repo} is not inside a git work tree.`);
    return root;
  }

  /** The root of a main work tree: isomorphic-git reads a linked worktree's HEAD and index wrongly, so those are refused. */
  async #mainRoot(repo: string, signal: AbortSignal | undefined, operation: string): Promise<string> {
    const root = await this.#root(repo, signal);
    const { gitdir, commonDir } = await commonGitDirectory(root);
    if (gitdir !== commonDir) {
      throw new SdkError(
        "unsupported",
        `IsomorphicGitClient cannot ${operation} in the linked worktree ${root}: isomorphic-git does not read a linked worktree's HEAD and index. Use GitCliClient, or run it in the main work tree.`,
        { operation, path: root },
      );
    }
    return root;
  }

  async addWorktree(_repo: string, options: { path: string; branch: string; startPoint?: string } & GitOptions): Promise<void> {
    throwIfAborted(options.signal);
    throw new SdkError(
      "unsupported",
      "IsomorphicGitClient cannot add worktrees: isomorphic-git has no linked-worktree support. Use GitCliClient where a git binary exists.",
      { operation: "addWorktree" },
    );
  }

  async removeWorktree(_repo: string, options: { path: string; force?: boolean } & GitOptions): Promise<void> {
    throwIfAborted(options.signal);
    throw new SdkError(
      "unsupported",
      "IsomorphicGitClient cannot remove worktrees: isomorphic-git has no linked-worktree support. Use GitCliClient where a git binary exists.",
      { operation: "removeWorktree" },
    );
  }

  async pruneWorktrees(_repo: string, options: GitOptions = {}): Promise<void> {
    throwIfAborted(options.signal);
    throw new SdkError(
      "unsupported",
      "IsomorphicGitClient cannot prune worktrees: isomorphic-git has no linked-worktree support. Use GitCliClient where a git binary exists.",
      { operation: "pruneWorktrees" },
    );
  }

  async deleteBranch(repo: string, options: { branch: string } & GitOptions): Promise<void> {
    const git = await loadIsomorphicGit();
    const root = await this.#root(repo, options.signal);
    throwIfAborted(options.signal);
    const ref = `refs/heads/${options.branch}`;
    const exists = await git.resolveRef({ fs: nodeFs, dir: root, ref }).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    await this.#call(() => git.deleteBranch({ fs: nodeFs, dir: root, ref: options.branch }));
  }

  async snapshotWorktree(_repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions): Promise<GitWorktreeSnapshot> {
    throwIfAborted(options.signal);
    throw new SdkError(
      "unsupported",
      "IsomorphicGitClient cannot snapshot a linked worktree: isomorphic-git has no linked-worktree support. Use GitCliClient where a git binary exists.",
      { operation: "snapshotWorktree" },
    );
  }

  async listWorktrees(repo: string, options: GitOptions = {}): Promise<GitWorktree[]> {
    const root = await this.#root(repo, options.signal);
    return listWorktreesFromFiles(root);
  }

  async status(repo: string, options: GitOptions = {}): Promise<GitStatusEntry[]> {
    const git = await loadIsomorphicGit();
    const root = await this.#mainRoot(repo, options.signal, "read the status");
    throwIfAborted(options.signal);
    const cache = {};
    const matrix = await this.#call(() => git.statusMatrix({ fs: nodeFs, dir: root, cache }));
    const hasHead = await git.resolveRef({ fs: nodeFs, dir: root, ref: "HEAD" }).then(
      () => true,
      () => false,
    );
    const modes = await this.#call(() => modeChanges(root, hasHead, cache));
    const entries: GitStatusEntry[] = [];
    for (const [filepath, head, workdir, stage] of matrix) {
      const letters = statusLetters(head, workdir, stage);
      const mode = modes.get(filepath);
      if (mode && letters.length === 0) letters.push([" ", " "]);
      for (const [index, workTree] of letters) {
        if (index === "?" || !mode) {
          entries.push({ path: filepath, index, workTree });
          continue;
        }
        entries.push({ path: filepath, index: mode.index && index === " " ? "M" : index, workTree: mode.workTree && workTree === " " ? "M" : workTree });
      }
    }
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.index === "?" ? 1 : -1));
  }

  async #resolveCommit(root: string, base: string | undefined, cache: object): Promise<string | null> {
    const git = await loadIsomorphicGit();
    const ref = base ?? "HEAD";
    try {
      const oid = await git.resolveRef({ fs: nodeFs, dir: root, ref });
      return (await git.readCommit({ fs: nodeFs, dir: root, oid, cache })).oid;
    } catch (error) {
      if (base === undefined) return null;
      if (/^[0-9a-f]{4,40}$/i.test(base)) {
        const oid = await git.expandOid({ fs: nodeFs, dir: root, oid: base.toLowerCase(), cache }).catch(() => undefined);
        if (oid) return (await git.readCommit({ fs: nodeFs, dir: root, oid, cache })).oid;
      }
      throw new GitClientError(
        "command_failed",
        `Cannot resolve ${JSON.stringify(base)} to a commit (IsomorphicGitClient takes ref names and commit ids, not revision expressions).`,
        {},
        { cause: error },
      );
    }
  }

  async diff(repo: string, options: { base?: string } & GitOptions = {}): Promise<string> {
    const root = await this.#mainRoot(repo, options.signal, "diff");
    throwIfAborted(options.signal);
    const cache = {};
    const commit = await this.#resolveCommit(root, options.base, cache);
    const changes = await this.#call(() => workTreeChanges(root, commit, cache));
    throwIfAborted(options.signal);
    return changes.map(formatFileChange).join("");
  }

  async apply(repo: string, patch: string, options: { threeWay?: boolean } & GitOptions = {}): Promise<void> {
    const git = await loadIsomorphicGit();
    const root = await this.#root(repo, options.signal);
    throwIfAborted(options.signal);
    if (patch.trim() === "") return;
    let files;
    try {
      files = parsePatch(patch);
    } catch (error) {
      if (error instanceof PatchParseError) throw new GitClientError("patch_failed", `The patch cannot be read: ${error.message}.`, {}, { cause: error });
      throw error;
    }
    const cache = {};
    const { commonDir } = await commonGitDirectory(root);
    const plan = await planPatch(root, files, {
      threeWay: options.threeWay === true,
      ports: {
        hashBlob: async (content) => (await git.hashBlob({ object: content })).oid,
        readBlob: async (oid) => {
          try {
            const full = oid.length === 40 ? oid : await git.expandOid({ fs: nodeFs, gitdir: commonDir, oid, cache });
            return (await git.readBlob({ fs: nodeFs, gitdir: commonDir, oid: full, cache })).blob;
          } catch {
            return null;
          }
        },
      },
    });
    if (plan.failures.length > 0) {
      const paths = [...new Set(plan.failures.map((failure) => failure.path))];
      throw new GitClientError(
        "patch_failed",
        `The patch does not apply; nothing was changed.\n${plan.failures.map((failure) => `${failure.path}: ${failure.reason}`).join("\n")}`,
        { paths },
      );
    }
    throwIfAborted(options.signal);
    await writePlan(root, plan);
    const conflicts = plan.files.filter((file) => file.conflicted).map((file) => file.path);
    if (conflicts.length > 0) {
      throw new GitClientError("conflict", `The patch was merged with conflicts in ${conflicts.join(", ")}; resolve the conflict markers.`, {
        paths: conflicts,
      });
    }
  }

  async commit(repo: string, options: { message: string; author?: GitAuthor } & GitOptions): Promise<string> {
    const git = await loadIsomorphicGit();
    const root = await this.#mainRoot(repo, options.signal, "commit");
    throwIfAborted(options.signal);
    const cache = {};
    const matrix = await this.#call(() => git.statusMatrix({ fs: nodeFs, dir: root, cache }));
    const hasHead = await git.resolveRef({ fs: nodeFs, dir: root, ref: "HEAD" }).then(
      () => true,
      () => false,
    );
    const modes = await this.#call(() => modeChanges(root, hasHead, cache));
    const changed = matrix.filter(([filepath, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1) || modes.has(filepath));
    const differsFromHead = changed.some(([_filepath, head, workdir]) => !(head === 1 && workdir === 1) && !(head === 0 && workdir === 0)) || modes.size > 0;
    if (!differsFromHead && hasHead) {
      throw new GitClientError("nothing_to_commit", "There is nothing to commit: the work tree matches HEAD.");
    }
    for (const [filepath, , workdir] of changed) {
      throwIfAborted(options.signal);
      if (workdir === 0) await this.#call(() => git.remove({ fs: nodeFs, dir: root, filepath, cache }));
      else await this.#call(() => git.add({ fs: nodeFs, dir: root, filepath, cache }));
    }
    const author = options.author ? { name: options.author.name, email: options.author.email } : undefined;
    return this.#call(() => git.commit({ fs: nodeFs, dir: root, message: options.message, author, cache }));
  }

  async clone(url: string, path: string, options: { ref?: string; depth?: number } & GitOptions = {}): Promise<void> {
    throwIfAborted(options.signal);
    if (!/^https?:\/\//i.test(url))
      throw new SdkError("unsupported", `IsomorphicGitClient clones http(s) URLs only, not ${url}. Use GitCliClient for ssh, file:// and local paths.`, {
        operation: "clone",
      });
    const git = await loadIsomorphicGit();
    const { default: http } = await import("isomorphic-git/http/node");
    await this.#call(() =>
      git.clone({ fs: nodeFs, http, dir: path, url, singleBranch: true, depth: options.depth, ...(options.ref ? { ref: options.ref } : {}) }),
    );
    throwIfAborted(options.signal);
  }

  /** Runs an isomorphic-git call and wraps its errors (they carry `code` and `data`) into GitClientError. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof GitClientError || error instanceof SdkError) throw error;
      const code = (error as { code?: unknown }).code;
      throw new GitClientError(
        "command_failed",
        `isomorphic-git failed${typeof code === "string" ? ` (${code})` : ""}: ${(error as Error).message}`,
        {},
        { cause: error },
      );
    }
  }
}
