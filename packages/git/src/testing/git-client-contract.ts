/**
 * The contract every {@link GitClient} adapter meets, as a vitest suite run
 * on real temp repositories made with the git CLI.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SdkError, isAbortError } from "@agent-tools/core";
import type { GitClient } from "@agent-tools/core";
import { GitClientError } from "@agent-tools/core";
import { type GitClientContractTarget, numbered, rejection } from "./git-client-contract-helpers.js";
import { type GitTestRepository, TEST_AUTHOR, cloneGitTestRepository, createGitTestRepository } from "./git-test-repository.js";
import { registerGitClientWorktreeContract } from "./git-client-worktree-contract.js";

export type { GitClientContractTarget } from "./git-client-contract-helpers.js";

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

    registerGitClientWorktreeContract(target, () => ({ repo, git }));

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
