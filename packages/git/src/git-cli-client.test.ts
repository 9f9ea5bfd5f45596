import { readFile, writeFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { isAbortError } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";
import { runGitClientContract } from "./testing/git-client-contract.js";
import { cloneGitTestRepository, createGitTestRepository } from "./testing/git-test-repository.js";
import { GitCliClient } from "./index.js";

runGitClientContract({ name: "GitCliClient", create: () => new GitCliClient() });

describe("GitCliClient through the ProcessRunner port", () => {
  const runner = new ExecaProcessRunner();
  afterAll(() => runner.close());

  it("runs every git call through the runner", async () => {
    const repo = await createGitTestRepository();
    try {
      const git = new GitCliClient({ processRunner: runner });
      await writeFile(repo.path("a.txt"), "one\n");
      const first = await git.commit(repo.root, { message: "first" });
      expect(repo.git(["rev-parse", "HEAD"]).trim()).toBe(first);
      await writeFile(repo.path("a.txt"), "two\n");
      expect(await git.status(repo.root)).toEqual([{ path: "a.txt", index: " ", workTree: "M" }]);
      const patch = await git.diff(repo.root);
      expect(patch).toContain("+two");
      const clone = cloneGitTestRepository(repo, "clone");
      await git.apply(clone.root, patch);
      expect(await readFile(clone.path("a.txt"), "utf8")).toBe("two\n");
      expect(clone.git(["diff", "--name-only"]).trim()).toBe("a.txt");
      const controller = new AbortController();
      controller.abort();
      expect(isAbortError(await git.status(repo.root, { signal: controller.signal }).catch((error: unknown) => error))).toBe(true);
    } finally {
      await repo.cleanup();
    }
  });

  it("names a missing git binary clearly", async () => {
    const repo = await createGitTestRepository();
    try {
      const git = new GitCliClient({ processRunner: runner, gitBinary: "/nonexistent/git" });
      expect(await git.repositoryRoot(repo.root)).toBeNull();
      await expect(git.status(repo.root)).rejects.toThrow(/git status .* failed \(exit 127\)/);
    } finally {
      await repo.cleanup();
    }
  });
});
