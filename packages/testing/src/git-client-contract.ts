/**
 * The contract every {@link GitClient} adapter meets, as a vitest suite run
 * on real temp repositories made with the git CLI.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SdkError, isAbortError } from "@agent-tools/core";
import type { GitClient } from "@agent-tools/core";
import { GitClientError } from "@agent-tools/core";
import { type GitTestRepository, TEST_AUTHOR, cloneGitTestRepository, createGitTestRepository } from "./git-test-repository.js";

/** A GitClient adapter under test. */
export interface GitClientContractTarget {
  /** Shown in the suite's title. */
  name: string;
  create(): GitClient | Promise<GitClient>;
  /** False when the adapter rejects worktree add/remove with `SdkError("unsupported")`; default true. */
  supportsWorktrees?: boolean;
  /** False when the adapter clones http(s) URLs only and rejects a local repository with `SdkError("unsupported")`; default true. */
  supportsLocalClone?: boolean;
  /** False when the adapter rejects a 3-way apply that needs a merge with `SdkError("unsupported")`; default true. */
  supportsThreeWay?: boolean;
}

const numbered = (count: number, change?: Record<number, string>) =>
  `${Array.from({ length: count }, (_, index) => change?.[index + 1] ?? `line ${index + 1}`).join("\n")}\n`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
}

/**
 * Runs the GitClient contract: repository root, status, commit, diff (with
 * untracked and binary files, against HEAD or another base), apply (plain,
 * all-or-nothing, 3-way merge and conflict), branch deletion, worktrees
 * (add, list, remove, prune, and an untrusted worktree's snapshot) and abort.
 *
 * @example
 * runGitClientContract({ name: "git CLI", create: () => new GitCliClient() });
 */
export function runGitClientContract(target: GitClientContractTarget): void {
  describe(`GitClient contract: ${target.name}`, () => {
    let repo: GitTestRepository & { cleanup(): Promise<void> };
    let git: GitClient;

    beforeEach(async () => {
      repo = await createGitTestRepository();
      await writeFile(repo.path("a.txt"), numbered(20));
      await mkdir(repo.path("src"));
      await writeFile(repo.path("src/b.txt"), "bee\n");
      await writeFile(repo.path(".gitignore"), "ignored/\n*.log\n");
      repo.git(["add", "-A"]);
      repo.git(["commit", "-q", "-m", "initial"]);
      git = await target.create();
    });

    afterEach(async () => {
      await repo.cleanup();
    });

    it("finds the repository root from a subdirectory, and null outside a repository", async () => {
      expect(await git.repositoryRoot(repo.path("src"))).toBe(repo.root);
      expect(await git.repositoryRoot(path.dirname(repo.root))).toBeNull();
    });

    it("reports status with untracked files expanded, ignored files left out, sorted", async () => {
      await writeFile(repo.path("a.txt"), numbered(20, { 3: "changed" }));
      await rm(repo.path("src/b.txt"));
      await mkdir(repo.path("new/deep"), { recursive: true });
      await writeFile(repo.path("new/deep/c.txt"), "c\n");
      await writeFile(repo.path("staged.txt"), "s\n");
      repo.git(["add", "staged.txt"]);
      await mkdir(repo.path("ignored"));
      await writeFile(repo.path("ignored/x.txt"), "x\n");
      await writeFile(repo.path("debug.log"), "log\n");
      expect(await git.status(repo.root)).toEqual([
        { path: "a.txt", index: " ", workTree: "M" },
        { path: "new/deep/c.txt", index: "?", workTree: "?" },
        { path: "src/b.txt", index: " ", workTree: "D" },
        { path: "staged.txt", index: "A", workTree: " " },
      ]);
    });

    it("reports a clean work tree as an empty status and an empty diff", async () => {
      expect(await git.status(repo.root)).toEqual([]);
      expect(await git.diff(repo.root)).toBe("");
    });

    it("commits everything and returns the new commit id", async () => {
      await writeFile(repo.path("a.txt"), "rewritten\n");
      await writeFile(repo.path("untracked.txt"), "u\n");
      const id = await git.commit(repo.root, { message: "Second commit\n\nWith a body.", author: { name: "Ada", email: "ada@example.invalid" } });
      expect(id).toMatch(/^[0-9a-f]{40}$/);
      expect(repo.git(["rev-parse", "HEAD"]).trim()).toBe(id);
      expect(repo.git(["log", "-1", "--format=%an <%ae>%n%B"]).trim()).toBe("Ada <ada@example.invalid>\nSecond commit\n\nWith a body.");
      expect(repo.git(["show", "HEAD:untracked.txt"])).toBe("u\n");
      expect(await git.status(repo.root)).toEqual([]);
    });

    it("commits with the configured user when no author is given, and refuses an empty commit", async () => {
      await writeFile(repo.path("a.txt"), "again\n");
      await git.commit(repo.root, { message: "by config" });
      expect(repo.git(["log", "-1", "--format=%an <%ae>"]).trim()).toBe(`${TEST_AUTHOR.name} <${TEST_AUTHOR.email}>`);
      const error = await rejection(git.commit(repo.root, { message: "nothing" }));
      expect(error).toBeInstanceOf(GitClientError);
      expect((error as GitClientError).code).toBe("nothing_to_commit");
    });

    it("diffs modified, deleted and untracked files without touching the index", async () => {
      await writeFile(repo.path("a.txt"), numbered(20, { 5: "five" }));
      await rm(repo.path("src/b.txt"));
      await writeFile(repo.path("fresh.txt"), "fresh\n");
      await writeFile(repo.path("debug.log"), "ignored\n");
      await writeFile(repo.path("staged.txt"), "s\n");
      repo.git(["add", "staged.txt"]);
      const indexBefore = repo.git(["ls-files", "--stage"]);
      const patch = await git.diff(repo.root);
      expect(repo.git(["ls-files", "--stage"])).toBe(indexBefore);
      expect(patch).toContain("diff --git a/a.txt b/a.txt");
      expect(patch).toContain("-line 5\n+five\n");
      expect(patch).toContain("diff --git a/src/b.txt b/src/b.txt\ndeleted file mode 100644");
      expect(patch).toContain("diff --git a/fresh.txt b/fresh.txt\nnew file mode 100644");
      expect(patch).toContain("+fresh\n");
      expect(patch).toContain("diff --git a/staged.txt b/staged.txt");
      expect(patch).not.toContain("debug.log");
      // The patch is what git itself accepts.
      const clone = cloneGitTestRepository(repo, "check");
      clone.git(["apply", "--check", "-"], { input: patch });
    });

    it("sees same-size rewrites made right after a commit (racy-clean files)", async () => {
      for (let round = 0; round < 4; round++) {
        await writeFile(repo.path("racy.txt"), `old${round}\n`);
        await git.commit(repo.root, { message: `round ${round}` });
        await writeFile(repo.path("racy.txt"), `new${round}\n`);
        expect(await git.status(repo.root)).toEqual([{ path: "racy.txt", index: " ", workTree: "M" }]);
        expect(await git.diff(repo.root)).toContain(`-old${round}\n+new${round}\n`);
      }
    });

    it("diffs against another base", async () => {
      const first = repo.git(["rev-parse", "HEAD"]).trim();
      await writeFile(repo.path("src/b.txt"), "bee two\n");
      repo.git(["commit", "-q", "-am", "second"]);
      await writeFile(repo.path("a.txt"), numbered(20, { 1: "one" }));
      const patch = await git.diff(repo.root, { base: first });
      expect(patch).toContain("-bee\n+bee two\n");
      expect(patch).toContain("-line 1\n+one\n");
      expect(await git.diff(repo.root, { base: "HEAD" })).not.toContain("bee two");
    });

    it("round-trips a binary file byte for byte through diff and apply", async () => {
      const original = Buffer.concat([Buffer.from([0, 1, 2, 255, 254]), randomBytes(3000)]);
      await writeFile(repo.path("image.bin"), original);
      repo.git(["add", "image.bin"]);
      repo.git(["commit", "-q", "-m", "binary"]);
      const changed = Buffer.concat([original.subarray(0, 1000), randomBytes(500), Buffer.from([0, 0, 0])]);
      await writeFile(repo.path("image.bin"), changed);
      const added = randomBytes(700);
      added[0] = 0;
      await writeFile(repo.path("added.bin"), added);
      const patch = await git.diff(repo.root);
      expect(patch).toContain("GIT binary patch");
      const clone = cloneGitTestRepository(repo, "binary-target");
      await git.apply(clone.root, patch);
      expect(Buffer.compare(await readFile(clone.path("image.bin")), changed)).toBe(0);
      expect(Buffer.compare(await readFile(clone.path("added.bin")), added)).toBe(0);
    });

    it("applies a plain patch with text, new and deleted files to the work tree only", async () => {
      const clone = cloneGitTestRepository(repo, "plain-target");
      await writeFile(repo.path("a.txt"), numbered(20, { 2: "two", 19: "nineteen" }));
      await writeFile(repo.path("made.txt"), "made\n");
      await rm(repo.path("src/b.txt"));
      const patch = await git.diff(repo.root);
      await git.apply(clone.root, patch);
      expect(await readFile(clone.path("a.txt"), "utf8")).toBe(numbered(20, { 2: "two", 19: "nineteen" }));
      expect(await readFile(clone.path("made.txt"), "utf8")).toBe("made\n");
      expect(await rejection(readFile(clone.path("src/b.txt")))).toMatchObject({ code: "ENOENT" });
      expect(clone.git(["diff", "--cached", "--name-only"])).toBe("");
    });

    it("applies all or nothing: a failing file leaves every file unchanged", async () => {
      const clone = cloneGitTestRepository(repo, "atomic-target");
      await writeFile(repo.path("a.txt"), numbered(20, { 10: "ten" }));
      await writeFile(repo.path("src/b.txt"), "bee changed\n");
      const patch = await git.diff(repo.root);
      await writeFile(clone.path("src/b.txt"), "something else entirely\n");
      const error = await rejection(git.apply(clone.root, patch));
      expect(error).toBeInstanceOf(GitClientError);
      expect((error as GitClientError).code).toBe("patch_failed");
      expect((error as GitClientError).data.paths).toContain("src/b.txt");
      expect(await readFile(clone.path("a.txt"), "utf8")).toBe(numbered(20));
    });

    it("applies with a 3-way merge when the context moved on", async () => {
      const clone = cloneGitTestRepository(repo, "merge-target");
      await writeFile(repo.path("a.txt"), numbered(20, { 10: "ten from the patch" }));
      const patch = await git.diff(repo.root);
      await writeFile(clone.path("a.txt"), numbered(20, { 8: "eight from the target" }));
      expect(((await rejection(git.apply(clone.root, patch))) as GitClientError).code).toBe("patch_failed");
      const merged = git.apply(clone.root, patch, { threeWay: true });
      if (target.supportsThreeWay === false) {
        const error = await rejection(merged);
        expect(error).toBeInstanceOf(SdkError);
        expect((error as SdkError).code).toBe("unsupported");
        return;
      }
      await merged;
      expect(await readFile(clone.path("a.txt"), "utf8")).toBe(numbered(20, { 8: "eight from the target", 10: "ten from the patch" }));
      expect(clone.git(["diff", "--cached", "--name-only"])).toBe("");
    });

    it("reports a 3-way conflict with the path and leaves conflict markers", async () => {
      const clone = cloneGitTestRepository(repo, "conflict-target");
      await writeFile(repo.path("a.txt"), numbered(20, { 10: "ten from the patch" }));
      const patch = await git.diff(repo.root);
      await writeFile(clone.path("a.txt"), numbered(20, { 10: "ten from the target" }));
      const error = await rejection(git.apply(clone.root, patch, { threeWay: true }));
      if (target.supportsThreeWay === false) {
        expect((error as SdkError).code).toBe("unsupported");
        return;
      }
      expect(error).toBeInstanceOf(GitClientError);
      expect((error as GitClientError).code).toBe("conflict");
      expect((error as GitClientError).data.paths).toEqual(["a.txt"]);
      const text = await readFile(clone.path("a.txt"), "utf8");
      expect(text).toMatch(/^<<<<<<< /m);
      expect(text).toContain("ten from the target");
      expect(text).toContain("ten from the patch");
      expect(text).toMatch(/^>>>>>>> /m);
    });

    it("lists the main worktree first", async () => {
      const worktrees = await git.listWorktrees(repo.root);
      expect(worktrees[0]).toEqual({ path: repo.root, branch: "main", head: repo.git(["rev-parse", "HEAD"]).trim() });
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

    it("works in a repository without commits: status, diff against the empty tree, first commit", async () => {
      const fresh = await createGitTestRepository(path.join(path.dirname(repo.root), "fresh-parent"));
      await writeFile(fresh.path("first.txt"), "first\n");
      await writeFile(fresh.path("blob.bin"), Buffer.from([0, 1, 2, 3]));
      expect(await git.status(fresh.root)).toEqual([
        { path: "blob.bin", index: "?", workTree: "?" },
        { path: "first.txt", index: "?", workTree: "?" },
      ]);
      expect(await git.listWorktrees(fresh.root)).toEqual([{ path: fresh.root, branch: "main", head: null }]);
      const patch = await git.diff(fresh.root);
      expect(patch).toContain("diff --git a/first.txt b/first.txt\nnew file mode 100644");
      expect(patch).toContain("GIT binary patch");
      const id = await git.commit(fresh.root, { message: "root commit" });
      expect(fresh.git(["rev-parse", "HEAD"]).trim()).toBe(id);
      expect(fresh.git(["ls-tree", "--name-only", "HEAD"])).toBe("blob.bin\nfirst.txt\n");
    });

    describe("clone", () => {
      let destination: string;
      beforeEach(async () => {
        destination = path.join(path.dirname(repo.root), `clone-${randomBytes(4).toString("hex")}`);
        repo.git(["tag", "v1"]);
        await writeFile(repo.path("a.txt"), "changed on main\n");
        repo.git(["commit", "-q", "-am", "second"]);
      });
      afterEach(async () => {
        await rm(destination, { recursive: true, force: true });
      });

      if (target.supportsLocalClone === false) {
        it("rejects a local repository as unsupported", async () => {
          const error = await rejection(git.clone(repo.root, destination));
          expect(error).toBeInstanceOf(SdkError);
          expect((error as SdkError).code).toBe("unsupported");
        });
        return;
      }

      it("clones the default branch, shallow when asked", async () => {
        await git.clone(repo.root, destination, { depth: 1 });
        expect(await readFile(path.join(destination, "a.txt"), "utf8")).toBe("changed on main\n");
        expect(await readFile(path.join(destination, "src/b.txt"), "utf8")).toBe("bee\n");
      });

      it("checks out a tag and a commit id", async () => {
        await git.clone(repo.root, destination, { ref: "v1", depth: 1 });
        expect(await readFile(path.join(destination, "a.txt"), "utf8")).toBe(numbered(20));
        const first = repo.git(["rev-parse", "HEAD~1"]).trim();
        const second = `${destination}-commit`;
        try {
          await git.clone(repo.root, second, { ref: first, depth: 1 });
          expect(await readFile(path.join(second, "a.txt"), "utf8")).toBe(numbered(20));
        } finally {
          await rm(second, { recursive: true, force: true });
        }
      });

      it("rejects an unknown ref and a missing repository with a GitClientError", async () => {
        expect(await rejection(git.clone(repo.root, destination, { ref: "no-such-branch" }))).toBeInstanceOf(GitClientError);
        expect(await rejection(git.clone(path.join(repo.root, "missing"), `${destination}-missing`))).toBeInstanceOf(GitClientError);
      });
    });

    it("rejects with an AbortError when the signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort();
      expect(isAbortError(await rejection(git.status(repo.root, { signal: controller.signal })))).toBe(true);
      expect(isAbortError(await rejection(git.diff(repo.root, { signal: controller.signal })))).toBe(true);
      expect(isAbortError(await rejection(git.deleteBranch(repo.root, { branch: "main", signal: controller.signal })))).toBe(true);
      expect(isAbortError(await rejection(git.pruneWorktrees(repo.root, { signal: controller.signal })))).toBe(true);
      const snapshot = git.snapshotWorktree(repo.root, { worktree: repo.root, signal: controller.signal });
      expect(isAbortError(await rejection(snapshot))).toBe(true);
    });
  });
}
