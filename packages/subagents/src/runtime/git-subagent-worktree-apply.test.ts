import fs from "node:fs";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { afterEach, describe, expect, it } from "vitest";
import { type TestRepository, createTestRepository } from "./__fixtures__/git-subagent-worktree-repository.js";
import { GitSubagentWorktrees } from "./git-subagent-worktrees.js";

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});
const git = new GitCliClient();
const worktrees = new GitSubagentWorktrees({ git });
const lines = (count: number, change: Record<number, string> = {}) =>
  `${Array.from({ length: count }, (_, index) => change[index + 1] ?? `line ${index + 1}`).join("\n")}\n`;
const BINARY = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13, 0, 128]);

async function setUp(files: Record<string, string | Buffer> = { "a.txt": lines(10), "dir/b.txt": "b\n", "gone.txt": "gone\n", ".gitignore": "*.log\n" }) {
  const repo = createTestRepository(files);
  repositories.push(repo);
  const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
  const child = {
    write(relative: string, content: string | Buffer) {
      fs.mkdirSync(path.dirname(path.join(worktree.path, relative)), { recursive: true });
      fs.writeFileSync(path.join(worktree.path, relative), content);
    },
    remove: (relative: string) => fs.rmSync(path.join(worktree.path, relative)),
  };
  /** The parent's staging area, to check it is never touched. */
  const index = () => repo.git(["ls-files", "--stage", "--debug"]) + repo.git(["diff", "--cached", "--name-status"]);
  return { repo, worktree, child, index };
}

describe("GitSubagentWorktrees.changes", () => {
  it("reports modified, untracked, deleted and binary files against the start commit, ignored files left out", async () => {
    const { worktree, child } = await setUp();
    child.write("a.txt", lines(10, { 3: "changed 3" }));
    child.write("new/added.txt", "added\n");
    child.remove("gone.txt");
    child.write("image.bin", BINARY);
    child.write("debug.log", "ignored\n");
    const changes = await worktrees.changes(worktree, { maxDiffChars: 20_000 });
    expect(changes.changedPaths).toEqual(["a.txt", "gone.txt", "image.bin", "new/added.txt"]);
    expect(changes.diff).toContain("-line 3\n+changed 3\n");
    expect(changes.diff).toContain("deleted file mode");
    expect(changes.diff).toContain("GIT binary patch");
    expect(changes.diff).not.toContain("debug.log");
    expect(changes.diffTruncated).toBe(false);
    expect(changes.diffChars).toBe(changes.diff.length);
  });

  it("counts commits made inside the worktree, and reports nothing when nothing changed", async () => {
    const { repo, worktree, child } = await setUp();
    expect(await worktrees.changes(worktree, { maxDiffChars: 100 })).toEqual({ changedPaths: [], diff: "", diffTruncated: false, diffChars: 0 });
    child.write("committed.txt", "committed\n");
    child.write("dir/b.txt", "b changed\n");
    repo.git(["add", "-A"], worktree.path);
    repo.git(["commit", "-q", "-m", "child commit"], worktree.path);
    expect(repo.git(["status", "--porcelain"], worktree.path)).toBe("");
    expect((await worktrees.changes(worktree, { maxDiffChars: 100 })).changedPaths).toEqual(["committed.txt", "dir/b.txt"]);
  });

  it("truncates the diff to maxDiffChars and says how long it was", async () => {
    const { worktree, child } = await setUp();
    child.write("big.txt", "x".repeat(5_000));
    const changes = await worktrees.changes(worktree, { maxDiffChars: 1_000 });
    expect(changes.diff).toHaveLength(1_000);
    expect(changes.diffTruncated).toBe(true);
    expect(changes.diffChars).toBeGreaterThan(5_000);
    expect(changes.changedPaths).toEqual(["big.txt"]);
  });

  it("reads paths git quotes (spaces, non-ASCII)", async () => {
    const { worktree, child } = await setUp();
    child.write("with space/ä ö.txt", "umlaut\n");
    child.write('quote"d.txt', "quoted\n");
    expect((await worktrees.changes(worktree, { maxDiffChars: 20_000 })).changedPaths).toEqual(['quote"d.txt', "with space/ä ö.txt"]);
  });
});

describe("GitSubagentWorktrees.apply", () => {
  it("applies every change with git apply, binary and deletions included, without touching the parent's index", async () => {
    const { repo, worktree, child, index } = await setUp();
    repo.write("staged.txt", "staged by the host\n");
    repo.git(["add", "staged.txt"]);
    const indexBefore = index();
    child.write("a.txt", lines(10, { 3: "changed 3" }));
    child.write("new/added.txt", "added\n");
    child.remove("gone.txt");
    child.write("image.bin", BINARY);
    expect(await worktrees.apply(worktree)).toEqual({ applyStatus: "applied", applyMethod: "git_apply", copiedFiles: [], deletedFiles: [], conflictFiles: [] });
    expect(repo.read("a.txt")).toBe(lines(10, { 3: "changed 3" }));
    expect(repo.read("new/added.txt")).toBe("added\n");
    expect(repo.exists("gone.txt")).toBe(false);
    expect(fs.readFileSync(path.join(repo.root, "image.bin")).equals(BINARY)).toBe(true);
    expect(index()).toBe(indexBefore);
  });

  it("still applies when the parent changed other files or other parts of the file", async () => {
    const { repo, worktree, child } = await setUp({ "a.txt": lines(40), "other.txt": "other\n" });
    child.write("a.txt", lines(40, { 3: "child 3" }));
    repo.write("a.txt", lines(40, { 35: "parent 35" }));
    repo.write("other.txt", "parent changed\n");
    expect(await worktrees.apply(worktree)).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply_3way" });
    expect(repo.read("a.txt")).toBe(lines(40, { 3: "child 3", 35: "parent 35" }));
    expect(repo.read("other.txt")).toBe("parent changed\n");
  });

  it("merges with git apply --3way when the hunk's context changed in the parent, still leaving the index alone", async () => {
    const { repo, worktree, child, index } = await setUp({ "a.txt": lines(10) });
    const indexBefore = index();
    child.write("a.txt", lines(10, { 3: "child 3" }));
    repo.write("a.txt", lines(10, { 6: "parent 6" }));
    expect(await worktrees.apply(worktree)).toEqual({
      applyStatus: "applied",
      applyMethod: "git_apply_3way",
      copiedFiles: [],
      deletedFiles: [],
      conflictFiles: [],
    });
    expect(repo.read("a.txt")).toBe(lines(10, { 3: "child 3", 6: "parent 6" }));
    expect(index()).toBe(indexBefore);
  });

  it("writes nothing on a conflicting parent change: the outcome names the file and why, the parent and the worktree keep their changes", async () => {
    const { repo, worktree, child, index } = await setUp();
    const indexBefore = index();
    child.write("a.txt", lines(10, { 3: "child 3" }));
    child.remove("gone.txt");
    child.write("new.txt", "new\n");
    repo.write("a.txt", lines(10, { 3: "parent 3" }));
    const outcome = await worktrees.apply(worktree);
    expect(outcome).toMatchObject({ applyStatus: "failed", copiedFiles: [], deletedFiles: [], conflictFiles: ["a.txt"] });
    expect(outcome.applyMethod).toBeUndefined();
    expect(outcome.error).toBe(
      "The subagent's changes were not applied, nothing in the workspace changed: 1 file conflicts with the workspace: a.txt (it was changed in the workspace too, and the changes overlap (a 3-way merge conflicts)). The changes stay in the subagent's worktree: merge them by hand, or run the agent again on the current files.",
    );
    expect(repo.read("a.txt")).toBe(lines(10, { 3: "parent 3" }));
    expect(repo.exists("new.txt")).toBe(false);
    expect(repo.read("gone.txt")).toBe("gone\n");
    expect(fs.readFileSync(path.join(worktree.path, "a.txt"), "utf8")).toBe(lines(10, { 3: "child 3" }));
    expect(index()).toBe(indexBefore);
  });

  it("applies executable bits, binary files and symbolic links (the parent's permission bits kept), then finds them applied", async () => {
    const { repo, worktree, child } = await setUp();
    fs.chmodSync(path.join(repo.root, "dir/b.txt"), 0o640);
    child.write("dir/b.txt", "b changed\n");
    fs.chmodSync(path.join(worktree.path, "dir/b.txt"), 0o755);
    child.write("run.sh", "#!/bin/sh\necho hi\n");
    fs.chmodSync(path.join(worktree.path, "run.sh"), 0o755);
    child.write("image.bin", BINARY);
    fs.symlinkSync("dir/b.txt", path.join(worktree.path, "link"));
    expect(await worktrees.apply(worktree)).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply", conflictFiles: [] });
    expect(fs.statSync(path.join(repo.root, "dir/b.txt")).mode & 0o777).toBe(0o750);
    expect(fs.statSync(path.join(repo.root, "run.sh")).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(path.join(repo.root, "image.bin")).equals(BINARY)).toBe(true);
    expect(fs.readlinkSync(path.join(repo.root, "link"))).toBe("dir/b.txt");
    expect((await worktrees.apply(worktree)).skipReason).toBe("already_applied");
  });

  it("skips with already_applied when the parent already holds exactly these contents", async () => {
    const { repo, worktree, child } = await setUp();
    child.write("a.txt", lines(10, { 3: "changed 3" }));
    child.remove("gone.txt");
    child.write("image.bin", BINARY);
    expect((await worktrees.apply(worktree)).applyStatus).toBe("applied");
    expect(await worktrees.apply(worktree)).toEqual({
      applyStatus: "skipped",
      skipReason: "already_applied",
      copiedFiles: [],
      deletedFiles: [],
      conflictFiles: [],
    });
    // Almost the same is not the same.
    repo.write("a.txt", lines(10, { 3: "changed 3", 4: "parent 4" }));
    expect((await worktrees.apply(worktree)).skipReason).not.toBe("already_applied");
  });

  it("skips with empty_patch when nothing changed or nothing matches the paths", async () => {
    const { worktree, child } = await setUp();
    expect(await worktrees.apply(worktree)).toEqual({
      applyStatus: "skipped",
      skipReason: "empty_patch",
      copiedFiles: [],
      deletedFiles: [],
      conflictFiles: [],
    });
    child.write("a.txt", "changed\n");
    expect(await worktrees.apply(worktree, { paths: ["dir", "missing.txt"] })).toMatchObject({ applyStatus: "skipped", skipReason: "empty_patch" });
  });

  it("applies only the given paths (files, or directories holding them)", async () => {
    const { repo, worktree, child } = await setUp();
    child.write("a.txt", "child a\n");
    child.write("dir/b.txt", "child b\n");
    child.write("dir/deeper/c.txt", "child c\n");
    child.write("dirt.txt", "not in dir\n");
    expect(await worktrees.apply(worktree, { paths: ["dir/"] })).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply" });
    expect(repo.read("dir/b.txt")).toBe("child b\n");
    expect(repo.read("dir/deeper/c.txt")).toBe("child c\n");
    expect(repo.read("a.txt")).toBe(lines(10));
    expect(repo.exists("dirt.txt")).toBe(false);
    expect(await worktrees.apply(worktree, { paths: ["a.txt"] })).toMatchObject({ applyStatus: "applied" });
    expect(repo.read("a.txt")).toBe("child a\n");
    expect(repo.exists("dirt.txt")).toBe(false);
  });

  it("looks only at the given paths: a conflict outside them does not stop the apply", async () => {
    const { repo, worktree, child } = await setUp();
    child.write("a.txt", lines(10, { 3: "child 3" }));
    child.write("dir/b.txt", "child b\n");
    repo.write("a.txt", lines(10, { 3: "parent 3" }));
    expect(await worktrees.apply(worktree, { paths: ["a.txt"] })).toMatchObject({ applyStatus: "failed", conflictFiles: ["a.txt"] });
    expect(await worktrees.apply(worktree, { paths: ["dir"] })).toMatchObject({ applyStatus: "applied", conflictFiles: [] });
    expect(repo.read("dir/b.txt")).toBe("child b\n");
    expect(repo.read("a.txt")).toBe(lines(10, { 3: "parent 3" }));
  });
});
