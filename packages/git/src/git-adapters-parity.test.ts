import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type GitTestRepository, cloneGitTestRepository, createGitTestRepository } from "./testing/git-test-repository.js";
import { GitCliClient } from "./index.js";
import { IsomorphicGitClient } from "./index.js";

const cli = new GitCliClient();
const isomorphic = new IsomorphicGitClient();
const adapters = [
  ["git CLI", cli],
  ["isomorphic-git", isomorphic],
] as const;

/** The patch without `index` lines, whose id abbreviation differs between adapters. */
const withoutIndexLines = (patch: string) => patch.replace(/^index .*\n/gm, "");

describe("GitCliClient and IsomorphicGitClient agree", () => {
  let repo: GitTestRepository & { cleanup(): Promise<void> };
  beforeEach(async () => {
    repo = await createGitTestRepository();
    await writeFile(repo.path("text.txt"), `${Array.from({ length: 30 }, (_, index) => `row ${index + 1}`).join("\n")}\n`);
    await writeFile(repo.path("no-newline.txt"), "last line without newline");
    await writeFile(repo.path("tool.sh"), "#!/bin/sh\necho hi\n");
    await writeFile(repo.path("blob.bin"), Buffer.concat([Buffer.from([0]), randomBytes(4000)]));
    await writeFile(repo.path("latin1.txt"), Buffer.from("caf\xe9\n", "latin1"));
    await writeFile(repo.path("tool-gone.txt"), "to be deleted\n");
    repo.git(["add", "-A"]);
    repo.git(["commit", "-q", "-m", "initial"]);
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  const change = async () => {
    await writeFile(
      repo.path("text.txt"),
      `${Array.from({ length: 30 }, (_, index) => (index === 14 ? "row fifteen" : `row ${index + 1}`)).join("\n")}\nappended\n`,
    );
    await writeFile(repo.path("no-newline.txt"), "last line changed, still without newline");
    await chmod(repo.path("tool.sh"), 0o755);
    const blob = await readFile(repo.path("blob.bin"));
    blob[100] = (blob[100]! + 1) % 256;
    await writeFile(repo.path("blob.bin"), Buffer.concat([blob, randomBytes(10)]));
    await mkdir(repo.path("dir with space/ünïcode"), { recursive: true });
    await writeFile(repo.path("dir with space/ünïcode/naïve file.txt"), "héllo\n");
    await writeFile(repo.path("empty.txt"), "");
    await rm(repo.path("tool-gone.txt"));
  };

  it("produce the same text patch and the same status", async () => {
    await change();
    const [cliPatch, isomorphicPatch] = [await cli.diff(repo.root), await isomorphic.diff(repo.root)];
    const comparable = (patch: string) => withoutIndexLines(patch).replace(/GIT binary patch\n(?:.+\n)+\n(?:.+\n)+\n/g, "BINARY\n");
    expect(cliPatch).toContain("@@ -12,7 +12,7 @@");
    expect(comparable(isomorphicPatch)).toBe(comparable(cliPatch));
  });

  it("apply what the other produced, in all four directions", async () => {
    await change();
    for (const [producerName, producer] of adapters) {
      const patch = await producer.diff(repo.root);
      const expectedStatus = await producer.status(repo.root);
      for (const [consumerName, consumer] of adapters) {
        const label = `${producerName} diff -> ${consumerName} apply`;
        const target = cloneGitTestRepository(repo, `target-${producerName}-${consumerName}`.replace(/\W+/g, "-"));
        await consumer.apply(target.root, patch);
        for (const file of ["text.txt", "no-newline.txt", "blob.bin", "dir with space/ünïcode/naïve file.txt", "empty.txt"]) {
          expect(Buffer.compare(await readFile(target.path(file)), await readFile(repo.path(file))), `${label}: ${file}`).toBe(0);
        }
        expect((await stat(target.path("tool.sh"))).mode & 0o111, label).not.toBe(0);
        await expect(stat(target.path("tool-gone.txt")), label).rejects.toMatchObject({ code: "ENOENT" });
        expect(await consumer.status(target.root), label).toEqual(expectedStatus);
      }
    }
  });

  it("round-trips a text file that is not UTF-8", async () => {
    await writeFile(repo.path("latin1.txt"), Buffer.from("na\xefve caf\xe9\n", "latin1"));
    for (const [name, adapter] of adapters) {
      const patch = await adapter.diff(repo.root);
      const target = cloneGitTestRepository(repo, `latin1-${name.replace(/\W+/g, "-")}`);
      for (const [, consumer] of adapters) {
        target.git(["checkout", "-q", "--", "."]);
        await consumer.apply(target.root, patch);
        expect((await readFile(target.path("latin1.txt"))).toString("latin1")).toBe("na\xefve caf\xe9\n");
      }
    }
  });

  it("report the same status for staged, unstaged and mixed changes", async () => {
    await writeFile(repo.path("text.txt"), "staged\n");
    repo.git(["add", "text.txt"]);
    await writeFile(repo.path("text.txt"), "staged then changed\n");
    await writeFile(repo.path("added.txt"), "a\n");
    repo.git(["add", "added.txt"]);
    await writeFile(repo.path("added.txt"), "a2\n");
    await writeFile(repo.path("added-gone.txt"), "x\n");
    repo.git(["add", "added-gone.txt"]);
    await rm(repo.path("added-gone.txt"));
    repo.git(["rm", "-q", "--cached", "no-newline.txt"]);
    await writeFile(repo.path("tool.sh"), "changed\n");
    repo.git(["add", "tool.sh"]);
    await rm(repo.path("tool.sh"));
    await rm(repo.path("blob.bin"));
    expect(await isomorphic.status(repo.root)).toEqual(await cli.status(repo.root));
  });

  it("list the same linked worktrees", async () => {
    const worktree = path.join(path.dirname(repo.root), "linked");
    await cli.addWorktree(repo.root, { path: worktree, branch: "agent" });
    repo.git(["worktree", "add", "-q", "--detach", path.join(path.dirname(repo.root), "detached")]);
    const expected = await cli.listWorktrees(repo.root);
    expect(expected).toHaveLength(3);
    expect(await isomorphic.listWorktrees(repo.root)).toEqual(expected);
  });
});

describe("IsomorphicGitClient commits what git sees", () => {
  it("commits a mode-only change and staged deletions like the CLI", async () => {
    const repo = await createGitTestRepository();
    try {
      await writeFile(repo.path("run.sh"), "#!/bin/sh\n");
      await writeFile(repo.path("gone.txt"), "bye\n");
      repo.git(["add", "-A"]);
      repo.git(["commit", "-q", "-m", "initial"]);
      await chmod(repo.path("run.sh"), 0o755);
      await rm(repo.path("gone.txt"));
      expect(await isomorphic.status(repo.root)).toEqual(await cli.status(repo.root));
      const id = await isomorphic.commit(repo.root, { message: "chmod" });
      expect(repo.git(["rev-parse", "HEAD"]).trim()).toBe(id);
      expect(repo.git(["ls-tree", "HEAD"])).toMatch(/^100755 blob [0-9a-f]+\trun\.sh$/m);
      expect(repo.git(["ls-tree", "HEAD"])).not.toContain("gone.txt");
      expect(repo.git(["status", "--porcelain"])).toBe("");
    } finally {
      await repo.cleanup();
    }
  });
});

describe("IsomorphicGitClient in a linked worktree made by git", () => {
  it("refuses status, diff and commit as unsupported, and applies patches", async () => {
    const repo = await createGitTestRepository();
    try {
      await writeFile(repo.path("a.txt"), "a\n");
      repo.git(["add", "-A"]);
      repo.git(["commit", "-q", "-m", "initial"]);
      const worktree = path.join(path.dirname(repo.root), "linked");
      await cli.addWorktree(repo.root, { path: worktree, branch: "agent" });
      await writeFile(path.join(worktree, "a.txt"), "changed\n");
      for (const call of [() => isomorphic.status(worktree), () => isomorphic.diff(worktree), () => isomorphic.commit(worktree, { message: "x" })]) {
        await expect(call()).rejects.toMatchObject({ name: "SdkError", code: "unsupported" });
      }
      const patch = await cli.diff(worktree);
      await writeFile(path.join(worktree, "a.txt"), "a\n");
      await isomorphic.apply(worktree, patch);
      expect(await readFile(path.join(worktree, "a.txt"), "utf8")).toBe("changed\n");
      expect((await isomorphic.listWorktrees(worktree)).map((entry) => entry.branch)).toEqual(["main", "agent"]);
    } finally {
      await repo.cleanup();
    }
  });
});
