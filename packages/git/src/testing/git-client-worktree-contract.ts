/**
 * The worktree part of the GitClient contract: branch deletion, worktrees
 * (add, list, remove, prune) and an untrusted worktree's snapshot. Registered
 * by {@link runGitClientContract} inside its suite, on the suite's repository.
 */
import { readFile, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, expect, it } from "vitest";
import { SdkError } from "@agent-tools/core";
import type { GitClient } from "@agent-tools/core";
import { GitClientError } from "@agent-tools/core";
import { type GitClientContractTarget, numbered, rejection } from "./git-client-contract-helpers.js";
import type { GitTestRepository } from "./git-test-repository.js";

/** The suite's current repository and client (made anew before each test). */
export interface GitClientContractFixture {
  readonly repo: GitTestRepository;
  readonly git: GitClient;
}

/**
 * Registers the worktree tests in the enclosing suite; `fixture` gives each
 * test the repository and client of its own `beforeEach`.
 */
export function registerGitClientWorktreeContract(target: GitClientContractTarget, fixture: () => GitClientContractFixture): void {
  let repo: GitTestRepository;
  let git: GitClient;
  beforeEach(() => {
    ({ repo, git } = fixture());
  });
  it("deletes a branch, also one merged nowhere, and does nothing for a missing one", async () => {
    repo.git(["checkout", "-q", "-b", "side"]);
    await writeFile(repo.path("side.txt"), "side\n");
    repo.git(["add", "side.txt"]);
    repo.git(["commit", "-q", "-m", "side only"]);
    repo.git(["checkout", "-q", "main"]);
    await git.deleteBranch(repo.root, { branch: "side" });
    expect(repo.git(["branch", "--list", "side"])).toBe("");
    await git.deleteBranch(repo.root, { branch: "side" });
    await git.deleteBranch(repo.root, { branch: "never-existed" });
    expect(repo.git(["branch", "--list"]).trim()).toBe("* main");
  });

  if (target.supportsWorktrees === false) {
    it("rejects worktree add and remove as unsupported", async () => {
      const add = await rejection(git.addWorktree(repo.root, { path: path.join(path.dirname(repo.root), "wt"), branch: "agent-1" }));
      expect(add).toBeInstanceOf(SdkError);
      expect((add as SdkError).code).toBe("unsupported");
      const remove = await rejection(git.removeWorktree(repo.root, { path: path.join(path.dirname(repo.root), "wt") }));
      expect((remove as SdkError).code).toBe("unsupported");
    });

    it("rejects worktree prune and snapshot as unsupported", async () => {
      expect(await rejection(git.pruneWorktrees(repo.root))).toMatchObject({ code: "unsupported" });
      const snapshot = await rejection(git.snapshotWorktree(repo.root, { worktree: path.join(path.dirname(repo.root), "wt") }));
      expect(snapshot).toBeInstanceOf(SdkError);
      expect((snapshot as SdkError).code).toBe("unsupported");
    });
  } else {
    it("prunes the record of a worktree whose folder is gone, and keeps one still on disk", async () => {
      const gone = path.join(path.dirname(repo.root), "wt-gone");
      const kept = path.join(path.dirname(repo.root), "wt-kept");
      await git.addWorktree(repo.root, { path: gone, branch: "gone" });
      await git.addWorktree(repo.root, { path: kept, branch: "kept" });
      const keptCanonical = await realpath(kept);
      await rm(gone, { recursive: true, force: true });
      await git.pruneWorktrees(repo.root);
      expect((await git.listWorktrees(repo.root)).map((worktree) => worktree.path)).toEqual([repo.root, keptCanonical]);
      await git.deleteBranch(repo.root, { branch: "gone" });
      expect(repo.git(["branch", "--list", "gone"])).toBe("");
      // A branch checked out in a worktree is refused, not deleted.
      expect(await rejection(git.deleteBranch(repo.root, { branch: "kept" }))).toBeInstanceOf(GitClientError);
      expect(repo.git(["branch", "--list", "kept"]).trim()).toBe("+ kept");
    });

    it("snapshots a linked worktree against its base without running what the worktree names, and stops at maxBytes", async () => {
      const worktreePath = path.join(path.dirname(repo.root), "wt-snapshot");
      const base = repo.git(["rev-parse", "HEAD"]).trim();
      await git.addWorktree(repo.root, { path: worktreePath, branch: "snapshot", startPoint: base });
      const marker = path.join(path.dirname(repo.root), "driver-ran");
      repo.git(["config", "filter.evil.clean", `touch '${marker}'; cat`]);
      repo.git(["config", "filter.evil.required", "true"]);
      await writeFile(path.join(worktreePath, ".gitattributes"), "* filter=evil\n");
      await writeFile(path.join(worktreePath, "a.txt"), numbered(20, { 2: "two in the worktree" }));
      await writeFile(path.join(worktreePath, "new.txt"), "new\n");
      await rm(path.join(worktreePath, "src", "b.txt"));
      // The worktree's .git names a git directory that does not exist: the snapshot never reads it.
      await writeFile(path.join(worktreePath, ".git"), "gitdir: /nonexistent\n");

      const snapshot = await git.snapshotWorktree(repo.root, { worktree: worktreePath, base });
      expect(snapshot.changes).toEqual([
        { path: ".gitattributes", oldMode: "000000", newMode: "100644" },
        { path: "a.txt", oldMode: "100644", newMode: "100644" },
        { path: "new.txt", oldMode: "000000", newMode: "100644" },
        { path: "src/b.txt", oldMode: "100644", newMode: "000000" },
      ]);
      expect(snapshot.excluded).toEqual([]);
      expect(snapshot.patch).toContain("+two in the worktree");
      expect(await rejection(readFile(marker))).toMatchObject({ code: "ENOENT" });
      expect(repo.git(["status", "--porcelain"])).toBe("");

      const large = await rejection(git.snapshotWorktree(repo.root, { worktree: worktreePath, base, maxBytes: 8 }));
      expect(large).toBeInstanceOf(GitClientError);
      expect((large as GitClientError).code).toBe("too_large");
    });

    it("adds, lists, diffs and removes a linked worktree", async () => {
      const worktreePath = path.join(path.dirname(repo.root), "wt-agent-1");
      await git.addWorktree(repo.root, { path: worktreePath, branch: "agent-1" });
      const canonical = await realpath(worktreePath);
      const head = repo.git(["rev-parse", "HEAD"]).trim();
      expect(await git.listWorktrees(repo.root)).toEqual([
        { path: repo.root, branch: "main", head },
        { path: canonical, branch: "agent-1", head },
      ]);
      expect(await git.repositoryRoot(worktreePath)).toBe(canonical);
      await writeFile(path.join(worktreePath, "a.txt"), numbered(20, { 4: "four in the worktree" }));
      const patch = await git.diff(worktreePath);
      expect(patch).toContain("+four in the worktree");
      await git.apply(repo.root, patch);
      expect(await readFile(repo.path("a.txt"), "utf8")).toBe(numbered(20, { 4: "four in the worktree" }));
      const dirtyRemove = await rejection(git.removeWorktree(repo.root, { path: worktreePath }));
      expect(dirtyRemove).toBeInstanceOf(GitClientError);
      await git.removeWorktree(repo.root, { path: worktreePath, force: true });
      expect((await git.listWorktrees(repo.root)).map((worktree) => worktree.path)).toEqual([repo.root]);
      expect(await rejection(readFile(path.join(worktreePath, "a.txt")))).toMatchObject({ code: "ENOENT" });
    });

    it("adds a worktree at a start point and refuses an existing branch", async () => {
      const first = repo.git(["rev-parse", "HEAD"]).trim();
      await writeFile(repo.path("a.txt"), "second\n");
      repo.git(["commit", "-q", "-am", "second"]);
      const worktreePath = path.join(path.dirname(repo.root), "wt-start");
      await git.addWorktree(repo.root, { path: worktreePath, branch: "from-first", startPoint: first });
      expect((await git.listWorktrees(repo.root))[1]).toMatchObject({ branch: "from-first", head: first });
      const again = await rejection(git.addWorktree(repo.root, { path: path.join(path.dirname(repo.root), "wt-again"), branch: "from-first" }));
      expect(again).toBeInstanceOf(GitClientError);
    });
  }
}
