import type { GitAuthor, GitClient, GitOptions, GitStatusEntry, GitWorktree, GitWorktreeSnapshot } from "../ports/git-client.js";

/** One call a {@link RecordingGitClient} saw. */
export interface RecordedGitCall {
  method: keyof GitClient;
  /** The repository (or `cwd` for `repositoryRoot`). */
  repo: string;
  /** The options without `signal`, plus `patch` for `apply`. */
  options: Record<string, unknown>;
  /** `ok` once resolved, `error` once rejected, `pending` before. */
  outcome: "pending" | "ok" | "error";
  error?: unknown;
}

function withoutSignal(options: GitOptions | undefined): Record<string, unknown> {
  if (!options) return {};
  const { signal: _signal, ...rest } = options as GitOptions & Record<string, unknown>;
  return rest;
}

/**
 * A GitClient that forwards to another one and records every call: for
 * tests of code that uses git (e.g. asserting that a subagent's worktree was
 * removed) without mocking modules.
 *
 * @example
 * const git = new RecordingGitClient(new GitCliClient());
 * await runSubagent({ gitClient: git });
 * expect(git.calls.map((call) => call.method)).toContain("removeWorktree");
 */
export class RecordingGitClient implements GitClient {
  /** Every call, in order. */
  readonly calls: RecordedGitCall[] = [];
  readonly #inner: GitClient;

  constructor(inner: GitClient) {
    this.#inner = inner;
  }

  async #record<T>(method: keyof GitClient, repo: string, options: Record<string, unknown>, run: () => Promise<T>): Promise<T> {
    const call: RecordedGitCall = { method, repo, options, outcome: "pending" };
    this.calls.push(call);
    try {
      const result = await run();
      call.outcome = "ok";
      return result;
    } catch (error) {
      call.outcome = "error";
      call.error = error;
      throw error;
    }
  }

  repositoryRoot(cwd: string, options?: GitOptions): Promise<string | null> {
    return this.#record("repositoryRoot", cwd, withoutSignal(options), () => this.#inner.repositoryRoot(cwd, options));
  }

  addWorktree(repo: string, options: { path: string; branch: string; startPoint?: string } & GitOptions): Promise<void> {
    return this.#record("addWorktree", repo, withoutSignal(options), () => this.#inner.addWorktree(repo, options));
  }

  removeWorktree(repo: string, options: { path: string; force?: boolean } & GitOptions): Promise<void> {
    return this.#record("removeWorktree", repo, withoutSignal(options), () => this.#inner.removeWorktree(repo, options));
  }

  pruneWorktrees(repo: string, options?: GitOptions): Promise<void> {
    return this.#record("pruneWorktrees", repo, withoutSignal(options), () => this.#inner.pruneWorktrees(repo, options));
  }

  deleteBranch(repo: string, options: { branch: string } & GitOptions): Promise<void> {
    return this.#record("deleteBranch", repo, withoutSignal(options), () => this.#inner.deleteBranch(repo, options));
  }

  snapshotWorktree(repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions): Promise<GitWorktreeSnapshot> {
    return this.#record("snapshotWorktree", repo, withoutSignal(options), () => this.#inner.snapshotWorktree(repo, options));
  }

  listWorktrees(repo: string, options?: GitOptions): Promise<GitWorktree[]> {
    return this.#record("listWorktrees", repo, withoutSignal(options), () => this.#inner.listWorktrees(repo, options));
  }

  status(repo: string, options?: GitOptions): Promise<GitStatusEntry[]> {
    return this.#record("status", repo, withoutSignal(options), () => this.#inner.status(repo, options));
  }

  diff(repo: string, options?: { base?: string } & GitOptions): Promise<string> {
    return this.#record("diff", repo, withoutSignal(options), () => this.#inner.diff(repo, options));
  }

  apply(repo: string, patch: string, options?: { threeWay?: boolean } & GitOptions): Promise<void> {
    return this.#record("apply", repo, { ...withoutSignal(options), patch }, () => this.#inner.apply(repo, patch, options));
  }

  commit(repo: string, options: { message: string; author?: GitAuthor } & GitOptions): Promise<string> {
    return this.#record("commit", repo, withoutSignal(options), () => this.#inner.commit(repo, options));
  }

  clone(url: string, path: string, options?: { ref?: string; depth?: number } & GitOptions): Promise<void> {
    return this.#record("clone", path, { url, ...withoutSignal(options) }, () => this.#inner.clone(url, path, options));
  }
}
