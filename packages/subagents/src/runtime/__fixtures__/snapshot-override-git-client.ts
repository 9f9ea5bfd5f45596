// A GitClient double for the worktree tests: forwards every call to a real client (recording it), except
// snapshotWorktree, which runs the test's own function (e.g. to reject as an adapter would).
import type { GitOptions, GitWorktreeSnapshot } from "@agent-tools/core/git";
import type { GitClient } from "@agent-tools/core";
import { RecordingGitClient } from "@agent-tools/core/testing";

/** What the double's `snapshotWorktree` does instead of the real one. */
export type SnapshotOverride = (repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions) => Promise<GitWorktreeSnapshot>;

/** A {@link RecordingGitClient} over `inner` whose `snapshotWorktree` is `override`. */
export class SnapshotOverrideGitClient extends RecordingGitClient {
  readonly #override: SnapshotOverride;

  constructor(inner: GitClient, override: SnapshotOverride) {
    super(inner);
    this.#override = override;
  }

  override snapshotWorktree(repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions): Promise<GitWorktreeSnapshot> {
    return this.#override(repo, options);
  }
}
