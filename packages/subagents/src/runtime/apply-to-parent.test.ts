import fs from "node:fs";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { acquireFileLock, anchorDirectory, openContainedTree } from "@agent-tools/file-io/internal";
import { afterEach, describe, expect, it } from "vitest";
import { type TestRepository, createTestRepository } from "./__fixtures__/git-subagent-worktree-repository.js";
import { APPLY_JOURNAL_FILE, journalOf, writeJournal } from "./apply-journal.js";
import { GitSubagentWorktrees } from "./git-subagent-worktrees.js";

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});
const worktrees = new GitSubagentWorktrees({ git: new GitCliClient() });
const BINARY = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13, 0, 128]);
const lines = (count: number, change: Record<number, string> = {}) =>
  `${Array.from({ length: count }, (_, index) => change[index + 1] ?? `line ${index + 1}`).join("\n")}\n`;

async function setUp(files: Record<string, string | Buffer> = { "a.txt": lines(10), "dir/b.txt": "b\n", "image.bin": BINARY, "run.sh": "#!/bin/sh\n" }) {
  const repo = createTestRepository(files);
  repositories.push(repo);
  const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
  const child = {
    write(relative: string, content: string | Buffer) {
      fs.mkdirSync(path.dirname(path.join(worktree.path, relative)), { recursive: true });
      fs.writeFileSync(path.join(worktree.path, relative), content);
    },
    remove: (relative: string) => fs.rmSync(path.join(worktree.path, relative), { recursive: true }),
  };
  const state = (relative: string) => {
    const full = path.join(repo.root, relative);
    const info = fs.lstatSync(full, { throwIfNoEntry: false });
    if (info === undefined) return null;
    if (info.isSymbolicLink()) return `-> ${fs.readlinkSync(full)}`;
    return info.isDirectory() ? "<directory>" : fs.readFileSync(full, "latin1");
  };
  return { repo, worktree, child, state, stateFolder: path.join(repo.root, ".git", "agent-tools") };
}

describe("GitSubagentWorktrees.apply: conflicts write nothing", () => {
  it("names every conflicting path with its reason, and writes none of the other changes", async () => {
    const { repo, worktree, child, state } = await setUp();
    child.write("a.txt", lines(10, { 3: "child 3" }));
    child.write("image.bin", Buffer.concat([BINARY, BINARY]));
    child.write("dir/b.txt", "child b\n");
    child.remove("run.sh");
    child.write("created.txt", "child\n");
    child.write("clean.txt", "clean\n");
    repo.write("image.bin", Buffer.from([9, 0, 9]));
    fs.rmSync(path.join(repo.root, "dir/b.txt"));
    repo.write("run.sh", "#!/bin/sh\necho parent\n");
    repo.write("created.txt", "parent\n");
    const outcome = await worktrees.apply(worktree);
    expect(outcome).toMatchObject({ applyStatus: "failed", conflictFiles: ["created.txt", "dir/b.txt", "image.bin", "run.sh"] });
    expect(outcome.error).toContain("4 files conflict with the workspace: created.txt (it was created in the workspace too, with other content)");
    expect(outcome.error).toContain("dir/b.txt (it was deleted in the workspace since the subagent started)");
    expect(outcome.error).toContain("image.bin (it was changed in the workspace too, and a binary file cannot be merged)");
    expect(outcome.error).toContain("run.sh (it was changed in the workspace since the subagent started, and the subagent deletes it)");
    expect(state("a.txt")).toBe(lines(10));
    expect(state("clean.txt")).toBeNull();
  });

  it("conflicts with a folder, a symlink or a special file where the child changes a file", async () => {
    const { repo, worktree, child } = await setUp();
    child.write("a.txt", "child\n");
    child.write("dir/b.txt", "child b\n");
    child.write("run.sh", "#!/bin/sh\necho child\n");
    fs.rmSync(path.join(repo.root, "a.txt"));
    fs.mkdirSync(path.join(repo.root, "a.txt"));
    fs.rmSync(path.join(repo.root, "dir"), { recursive: true });
    fs.symlinkSync(repo.base, path.join(repo.root, "dir"));
    fs.rmSync(path.join(repo.root, "run.sh"));
    fs.symlinkSync("a.txt", path.join(repo.root, "run.sh"));
    const outcome = await worktrees.apply(worktree);
    expect(outcome.conflictFiles).toEqual(["a.txt", "dir/b.txt", "run.sh"]);
    expect(outcome.error).toContain("a.txt (it is a folder in the workspace)");
    expect(outcome.error).toContain("dir/b.txt (a folder on its path is a symlink)");
    expect(outcome.error).toContain("run.sh (it is a symlink in the workspace)");
    expect(fs.existsSync(path.join(repo.base, "b.txt"))).toBe(false);
  });
});

describe("GitSubagentWorktrees.apply: what it writes", () => {
  it("merges a mode change with the parent's content change, and a content change with the parent's mode change", async () => {
    const { repo, worktree, child, state } = await setUp({ "run.sh": "#!/bin/sh\n", "a.txt": lines(10) });
    fs.chmodSync(path.join(worktree.path, "run.sh"), 0o755);
    repo.write("run.sh", "#!/bin/sh\necho parent\n");
    child.write("a.txt", lines(10, { 2: "child 2" }));
    fs.chmodSync(path.join(repo.root, "a.txt"), 0o600);
    expect(await worktrees.apply(worktree)).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply_3way" });
    expect(state("run.sh")).toBe("#!/bin/sh\necho parent\n");
    expect(fs.statSync(path.join(repo.root, "run.sh")).mode & 0o111).not.toBe(0);
    expect(state("a.txt")).toBe(lines(10, { 2: "child 2" }));
    expect(fs.statSync(path.join(repo.root, "a.txt")).mode & 0o777).toBe(0o600);
  });

  it("turns a file into a symlink, removes folders a deletion empties, and makes new files with the umask", async () => {
    const { repo, worktree, child, state } = await setUp({ "a.txt": "a\n", "dir/b.txt": "b\n", "dir/deeper/c.txt": "c\n", "keep.txt": "keep\n" });
    child.remove("dir");
    child.remove("keep.txt");
    fs.symlinkSync("a.txt", path.join(worktree.path, "keep.txt"));
    child.write("tool.sh", "#!/bin/sh\n");
    fs.chmodSync(path.join(worktree.path, "tool.sh"), 0o755);
    child.write("new/inside.txt", "inside\n");
    const outcome = await worktrees.apply(worktree);
    expect(outcome, outcome.error).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply" });
    expect(state("keep.txt")).toBe("-> a.txt");
    expect(state("dir")).toBeNull();
    const umask = process.umask();
    expect(fs.statSync(path.join(repo.root, "tool.sh")).mode & 0o777).toBe(0o777 & ~umask);
    expect(fs.statSync(path.join(repo.root, "new/inside.txt")).mode & 0o777).toBe(0o666 & ~umask);
    expect((await worktrees.apply(worktree)).skipReason).toBe("already_applied");
  });

  it("never creates a symlink leading outside the repository", async () => {
    const { worktree, state } = await setUp();
    fs.symlinkSync("../../outside", path.join(worktree.path, "escape"));
    const outcome = await worktrees.apply(worktree);
    expect(outcome.applyStatus).toBe("failed");
    expect(state("escape")).toBeNull();
  });

  it("applies one after the other across instances (each its own queue): the second sees the first's change and conflicts", async () => {
    const { repo, worktree } = await setUp({ "log.txt": "base\n" });
    const other = new GitSubagentWorktrees({ git: new GitCliClient() });
    const second = await other.create({ workdir: repo.root, label: "second" });
    fs.appendFileSync(path.join(worktree.path, "log.txt"), "first\n");
    fs.appendFileSync(path.join(second.path, "log.txt"), "second\n");
    const outcomes = await Promise.all([worktrees.apply(worktree), other.apply(second)]);
    expect(outcomes.map((outcome) => outcome.applyStatus).sort()).toEqual(["applied", "failed"]);
    const winner = outcomes[0]!.applyStatus === "applied" ? "first" : "second";
    expect(repo.read("log.txt")).toBe(`base\n${winner}\n`);
    expect(outcomes.find((outcome) => outcome.applyStatus === "failed")!.conflictFiles).toEqual(["log.txt"]);
  });
});

describe("GitSubagentWorktrees.apply: writers of the workspace meanwhile", () => {
  it("waits for a file tool's lock on a file, and conflicts (undoing what it wrote) when the file changed under it", async () => {
    const { repo, worktree, child, state } = await setUp({ "a.txt": lines(10), "b.txt": lines(10) });
    child.write("a.txt", lines(10, { 1: "child 1" }));
    child.write("b.txt", lines(10, { 1: "child 1" }));
    // A Write of b.txt in another registry holds the lock the file tools take.
    const directory = anchorDirectory(repo.root);
    const lock = await acquireFileLock(directory, "b.txt", { toolName: "Write", displayPath: "b.txt" });
    const applying = worktrees.apply(worktree);
    // a.txt is written first; then the apply waits for b.txt's lock.
    for (let waited = 0; state("a.txt") !== lines(10, { 1: "child 1" }) && waited < 30_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state("a.txt")).toBe(lines(10, { 1: "child 1" }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    repo.write("b.txt", lines(10, { 9: "written by the tool" }));
    lock.release();
    directory.close();
    const outcome = await applying;
    expect(outcome).toMatchObject({ applyStatus: "failed", conflictFiles: ["b.txt"] });
    expect(outcome.error).toContain("b.txt (it changed in the workspace while the apply ran)");
    expect([state("a.txt"), state("b.txt")]).toEqual([lines(10), lines(10, { 9: "written by the tool" })]);
  });
});

describe("GitSubagentWorktrees.recover", () => {
  /** Leaves the state a process killed mid-apply leaves: the journal of changing a.txt, b.txt and new.txt, with a.txt and new.txt written. */
  async function interrupted() {
    const context = await setUp({ "a.txt": "a\n", "dir/b.txt": "b\n" });
    const { repo, stateFolder } = context;
    const plan = {
      writes: [
        {
          path: "a.txt",
          pre: { kind: "file" as const, bytes: Buffer.from("a\n"), mode: 0o644 },
          post: { kind: "file" as const, bytes: Buffer.from("A\n"), mode: 0o644 },
          merged: false,
        },
        { path: "dir/b.txt", pre: { kind: "file" as const, bytes: Buffer.from("b\n"), mode: 0o644 }, post: { kind: "missing" as const }, merged: false },
        { path: "new/new.txt", pre: { kind: "missing" as const }, post: { kind: "file" as const, bytes: Buffer.from("new\n"), mode: 0o644 }, merged: false },
      ],
      conflicts: [],
      createdDirectories: ["new"],
    };
    fs.chmodSync(path.join(repo.root, "a.txt"), 0o644);
    fs.chmodSync(path.join(repo.root, "dir/b.txt"), 0o644);
    fs.mkdirSync(stateFolder, { recursive: true });
    const folder = openContainedTree(stateFolder);
    await writeJournal(folder, journalOf(repo.root, plan, Date.now()));
    folder.close();
    repo.write("a.txt", "A\n");
    fs.chmodSync(path.join(repo.root, "a.txt"), 0o644);
    fs.rmSync(path.join(repo.root, "dir/b.txt"));
    repo.write("new/new.txt", "new\n");
    fs.chmodSync(path.join(repo.root, "new/new.txt"), 0o644);
    return context;
  }

  it("rolls back an interrupted apply from its journal: written paths restored, created ones removed, the journal gone", async () => {
    const { repo, state, stateFolder } = await interrupted();
    const recovery = await worktrees.recover({ workdir: path.join(repo.root, "dir") });
    expect(recovery).toEqual({ repositoryRoot: repo.root, rolledBack: ["a.txt", "dir/b.txt", "new/new.txt"], conflicts: [] });
    expect([state("a.txt"), state("dir/b.txt"), state("new")]).toEqual(["a\n", "b\n", null]);
    expect(fs.existsSync(path.join(stateFolder, APPLY_JOURNAL_FILE))).toBe(false);
    expect(repo.git(["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(await worktrees.recover({ workdir: repo.root })).toBeUndefined();
  });

  it("leaves a path changed again since the interruption, and reports it", async () => {
    const { repo, state } = await interrupted();
    repo.write("a.txt", "changed after the crash\n");
    const recovery = await worktrees.recover({ workdir: repo.root });
    expect(recovery?.rolledBack).toEqual(["dir/b.txt", "new/new.txt"]);
    expect(recovery?.conflicts.map((conflict) => conflict.path)).toEqual(["a.txt"]);
    expect(state("a.txt")).toBe("changed after the crash\n");
  });

  it("is done by the next apply to the repository before it plans", async () => {
    const { repo, worktree, child, state } = await interrupted();
    child.write("dir/b.txt", "child b\n");
    expect(await worktrees.apply(worktree)).toMatchObject({ applyStatus: "applied" });
    expect([state("a.txt"), state("dir/b.txt"), state("new")]).toEqual(["a\n", "child b\n", null]);
    expect(repo.git(["status", "--porcelain"])).toBe(" M dir/b.txt\n");
  });

  it("sets an unreadable journal aside instead of acting on it", async () => {
    const { repo, stateFolder } = await setUp();
    fs.mkdirSync(stateFolder, { recursive: true });
    fs.writeFileSync(path.join(stateFolder, APPLY_JOURNAL_FILE), '{"version":1,"entries":[{"path":"../../etc/passwd"}]}');
    const recovery = await worktrees.recover({ workdir: repo.root });
    expect(recovery).toMatchObject({ rolledBack: [], conflicts: [] });
    expect(recovery?.unreadableJournal).toMatch(/^apply-journal\.json\.unreadable-\d+$/);
    expect(fs.existsSync(path.join(stateFolder, APPLY_JOURNAL_FILE))).toBe(false);
  });

  it.each([
    ["a path with a .git segment", { path: "sub/.GIT./config", pre: { kind: "file", mode: 0o644, base64: "" }, post: { kind: "missing" } }, /\.git entry/],
    ["a symlink leaving the tree", { path: "evil", pre: { kind: "link", target: "../../outside" }, post: { kind: "missing" } }, /leaves the work tree/],
    ["a symlink into .git", { path: "evil", pre: { kind: "link", target: "sub/.git/hooks" }, post: { kind: "missing" } }, /\.git entry/],
    ["a folder", { path: "sub", pre: { kind: "directory" }, post: { kind: "missing" } }, /no file/],
    ["a climbing path", { path: "a/../../x", pre: { kind: "missing" }, post: { kind: "missing" } }, /not a plain relative path/],
  ])("refuses a journal holding %s, acts on none of it, and sets it aside with the reason", async (_name, entry, reason) => {
    const { repo, stateFolder, state } = await setUp();
    const journal = { version: 1, pid: 1, repositoryRoot: repo.root, startedAt: 0, createdDirectories: [], entries: [entry] };
    fs.writeFileSync(path.join(stateFolder, APPLY_JOURNAL_FILE), JSON.stringify(journal));
    const recovery = await worktrees.recover({ workdir: repo.root });
    expect(recovery?.journalRefused).toMatch(reason);
    expect(recovery?.unreadableJournal).toMatch(/^apply-journal\.json\.unreadable-\d+$/);
    expect([state("evil"), state("sub"), state("x")]).toEqual([null, null, null]);
  });
});
