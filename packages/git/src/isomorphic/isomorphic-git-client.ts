import type { GitClient } from "@agent-tools/core";
import type { GitAuthor, GitOptions, GitStatusEntry, GitWorktree, GitWorktreeSnapshot } from "@agent-tools/core/git";
import { type OptionalPeer, loadIsomorphicEngine } from "./load-isomorphic-engine.js";

/**
 * A {@link GitClient} on isomorphic-git, for hosts without a git binary.
 * Works on the main work tree of a repository.
 *
 * isomorphic-git, diff and diff3 are optional peer dependencies: they are
 * imported on the first call, and a missing one rejects that call with
 * `SdkError("unsupported")` naming the package to install.
 *
 * What it cannot do, on purpose and documented: `addWorktree`,
 * `removeWorktree`, `pruneWorktrees` and `snapshotWorktree` reject with
 * `SdkError("unsupported")` (isomorphic-git has no linked worktrees), and so do `status`, `diff` and `commit` inside a
 * linked worktree made by git (`apply` works there); `listWorktrees` reads the
 * worktree records git keeps on disk; `diff`'s `base` must be a ref name or a (possibly abbreviated)
 * commit id, not a revision expression like `HEAD~1`; commits run no hooks.
 * Patches are produced and applied by this package (text hunks, git binary
 * literals and deltas, 3-way merges with the same diff3 engine
 * isomorphic-git uses). `clone` takes http(s) URLs only (isomorphic-git's
 * Node HTTP transport); other URLs reject with `SdkError("unsupported")`.
 *
 * @example
 * const git = new IsomorphicGitClient();
 * const patch = await git.diff("/repo");
 * await git.commit("/repo", { message: "Save work", author: { name: "Agent", email: "agent@example.com" } });
 */
export class IsomorphicGitClient implements GitClient {
  #engine: Promise<GitClient> | undefined;
  readonly #peers: readonly OptionalPeer[] | undefined;

  /** `peers` is for tests that simulate a missing package; hosts pass nothing. */
  constructor(options: { peers?: readonly OptionalPeer[] } = {}) {
    this.#peers = options.peers;
  }

  #load(): Promise<GitClient> {
    // A failed load is not cached: the host may install the package and retry.
    this.#engine ??= loadIsomorphicEngine(this.#peers).then(
      (Engine) => new Engine(),
      (error: unknown) => {
        this.#engine = undefined;
        throw error;
      },
    );
    return this.#engine;
  }

  async repositoryRoot(cwd: string, options?: GitOptions): Promise<string | null> {
    return (await this.#load()).repositoryRoot(cwd, options);
  }

  async addWorktree(repo: string, options: { path: string; branch: string; startPoint?: string } & GitOptions): Promise<void> {
    return (await this.#load()).addWorktree(repo, options);
  }

  async removeWorktree(repo: string, options: { path: string; force?: boolean } & GitOptions): Promise<void> {
    return (await this.#load()).removeWorktree(repo, options);
  }

  async pruneWorktrees(repo: string, options?: GitOptions): Promise<void> {
    return (await this.#load()).pruneWorktrees(repo, options);
  }

  async deleteBranch(repo: string, options: { branch: string } & GitOptions): Promise<void> {
    return (await this.#load()).deleteBranch(repo, options);
  }

  async snapshotWorktree(repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions): Promise<GitWorktreeSnapshot> {
    return (await this.#load()).snapshotWorktree(repo, options);
  }

  async listWorktrees(repo: string, options?: GitOptions): Promise<GitWorktree[]> {
    return (await this.#load()).listWorktrees(repo, options);
  }

  async status(repo: string, options?: GitOptions): Promise<GitStatusEntry[]> {
    return (await this.#load()).status(repo, options);
  }

  async diff(repo: string, options?: { base?: string } & GitOptions): Promise<string> {
    return (await this.#load()).diff(repo, options);
  }

  async apply(repo: string, patch: string, options?: { threeWay?: boolean } & GitOptions): Promise<void> {
    return (await this.#load()).apply(repo, patch, options);
  }

  async commit(repo: string, options: { message: string; author?: GitAuthor } & GitOptions): Promise<string> {
    return (await this.#load()).commit(repo, options);
  }

  async clone(url: string, path: string, options?: { ref?: string; depth?: number } & GitOptions): Promise<void> {
    return (await this.#load()).clone(url, path, options);
  }
}
