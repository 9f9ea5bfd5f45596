import fs from "node:fs";
import path from "node:path";
import { GitClientError } from "@agent-tools/core";
import { RecordingGitClient } from "@agent-tools/core/testing";
import { GitCliClient } from "@agent-tools/git";
import { afterEach, describe, expect, it } from "vitest";
import { type TestRepository, createTestRepository } from "./__fixtures__/git-subagent-worktree-repository.js";
import { SnapshotOverrideGitClient } from "./__fixtures__/snapshot-override-git-client.js";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";
import { GitSubagentWorktrees, sanitiseWorktreeLabel } from "./git-subagent-worktrees.js";

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});
function repository(files?: Record<string, string | Buffer>): TestRepository {
  const created = createTestRepository(files);
  repositories.push(created);
  return created;
}
function suffixes(...values: string[]): () => string {
  let index = 0;
  return () => values[index++] ?? `extra${index}`;
}
const git = new GitCliClient();

describe("GitSubagentWorktrees.create", () => {
  it("adds a worktree on a new branch beside the repository, at the workdir's offset, from HEAD", async () => {
    const repo = repository({ "packages/app/index.ts": "export {};\n", "README.md": "hello\n" });
    const head = repo.git(["rev-parse", "HEAD"]).trim();
    const worktrees = new GitSubagentWorktrees({ git, randomSuffix: suffixes("abc123") });
    const worktree = await worktrees.create({ workdir: path.join(repo.root, "packages/app"), label: "session-call_1-1-Reviewer" });
    const expectedPath = path.join(repo.base, ".agent-tools-subagents", "repo", "session-call_1-1-Reviewer-abc123");
    expect(worktree).toEqual({
      repositoryRoot: repo.root,
      path: expectedPath,
      branch: "agent-tools/subagent/session-call_1-1-Reviewer-abc123",
      workdir: path.join(expectedPath, "packages/app"),
      baseCommit: head,
    });
    expect(fs.readFileSync(path.join(worktree.workdir, "index.ts"), "utf8")).toBe("export {};\n");
    expect(repo.git(["rev-parse", worktree.branch]).trim()).toBe(head);
    expect(repo.git(["worktree", "list", "--porcelain"])).toContain(`worktree ${expectedPath}\n`);
    // The parent's own branch and index are untouched.
    expect(repo.git(["symbolic-ref", "--short", "HEAD"]).trim()).toBe("main");
    expect(repo.git(["status", "--porcelain"])).toBe("");
  });

  it("creates the child workdir when the offset exists only in the parent's work tree", async () => {
    const repo = repository({ "a.txt": "a\n" });
    fs.mkdirSync(path.join(repo.root, "untracked/deep"), { recursive: true });
    const worktree = await new GitSubagentWorktrees({ git }).create({ workdir: path.join(repo.root, "untracked/deep"), label: "x" });
    expect(worktree.workdir).toBe(path.join(worktree.path, "untracked/deep"));
    expect(fs.statSync(worktree.workdir).isDirectory()).toBe(true);
    expect(path.basename(worktree.path)).toMatch(/^x-[0-9a-f]{8}$/);
  });

  it("sanitises the label to [A-Za-z0-9._-] with a bounded length", async () => {
    expect(sanitiseWorktreeLabel("sess 1/call:2..x")).toBe("sess-1-call-2.x");
    expect(sanitiseWorktreeLabel("..--.lead")).toBe("lead");
    expect(sanitiseWorktreeLabel("日本")).toBe("agent");
    expect(sanitiseWorktreeLabel("a".repeat(200))).toHaveLength(60);
    expect(sanitiseWorktreeLabel(`${"b".repeat(59)}.c`)).toBe("b".repeat(59));
    const repo = repository({ "a.txt": "a\n" });
    const worktree = await new GitSubagentWorktrees({ git, randomSuffix: suffixes("s1") }).create({ workdir: repo.root, label: "sess 1/call:2..x" });
    expect(worktree.branch).toBe("agent-tools/subagent/sess-1-call-2.x-s1");
  });

  it("retries with a new suffix when the branch or the path is taken", async () => {
    const repo = repository({ "a.txt": "a\n" });
    repo.git(["branch", "agent-tools/subagent/job-taken1"]);
    fs.mkdirSync(path.join(repo.base, ".agent-tools-subagents/repo/job-taken2"), { recursive: true });
    const worktree = await new GitSubagentWorktrees({ git, randomSuffix: suffixes("taken1", "taken2", "free") }).create({ workdir: repo.root, label: "job" });
    expect(worktree.branch).toBe("agent-tools/subagent/job-free");
    expect(worktree.path).toBe(path.join(repo.base, ".agent-tools-subagents/repo/job-free"));
    // The failed attempt on the taken branch left no worktree or directory behind.
    expect(fs.existsSync(path.join(repo.base, ".agent-tools-subagents/repo/job-taken1"))).toBe(false);
    expect(repo.git(["worktree", "list"]).split("\n").filter(Boolean)).toHaveLength(2);
  });

  it("fails with provision_failed after 8 taken names", async () => {
    const repo = repository({ "a.txt": "a\n" });
    repo.git(["branch", "agent-tools/subagent/job-same"]);
    const worktrees = new GitSubagentWorktrees({ git, randomSuffix: () => "same" });
    const error = await worktrees.create({ workdir: repo.root, label: "job" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SubagentWorktreeError);
    expect(error).toMatchObject({ code: "provision_failed" });
    expect((error as SubagentWorktreeError).details.attempts).toHaveLength(8);
  });

  it("fails with provision_failed for other failures (the worktree folder cannot be made)", async () => {
    const blocked = repository({ "a.txt": "a\n" });
    fs.writeFileSync(path.join(blocked.base, ".agent-tools-subagents"), "a file where the folder should be");
    const failure = await new GitSubagentWorktrees({ git }).create({ workdir: blocked.root, label: "job" }).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(SubagentWorktreeError);
    expect(failure).toMatchObject({ code: "provision_failed" });
  });

  it("fails with worktree_unavailable outside a repository and in a repository without a commit", async () => {
    const repo = repository();
    const outside = path.join(repo.base, "outside");
    fs.mkdirSync(outside);
    const worktrees = new GitSubagentWorktrees({ git });
    await expect(worktrees.create({ workdir: outside, label: "job" })).rejects.toMatchObject({ code: "worktree_unavailable", name: "SubagentWorktreeError" });
    await expect(worktrees.create({ workdir: repo.root, label: "job" })).rejects.toMatchObject({ code: "worktree_unavailable" });
    expect(fs.existsSync(path.join(repo.base, ".agent-tools-subagents"))).toBe(false);
  });
});

describe("GitSubagentWorktrees and abort", () => {
  it("rejects with an AbortError, not an issue code, and creates nothing when the signal is already aborted", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const controller = new AbortController();
    controller.abort();
    const error = await new GitSubagentWorktrees({ git })
      .create({ workdir: repo.root, label: "job", signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(fs.existsSync(path.join(repo.base, ".agent-tools-subagents"))).toBe(false);
  });
});

describe("GitSubagentWorktrees.remove", () => {
  it("removes the worktree with its local changes and deletes its branch; twice is fine", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const worktrees = new GitSubagentWorktrees({ git });
    const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
    fs.writeFileSync(path.join(worktree.path, "a.txt"), "changed\n");
    fs.writeFileSync(path.join(worktree.path, "new.txt"), "untracked\n");
    await worktrees.remove(worktree);
    expect(fs.existsSync(worktree.path)).toBe(false);
    expect(repo.git(["branch", "--list", worktree.branch])).toBe("");
    expect(repo.git(["worktree", "list"]).split("\n").filter(Boolean)).toHaveLength(1);
    expect(fs.existsSync(path.join(repo.base, ".agent-tools-subagents"))).toBe(false);
    await worktrees.remove(worktree);
    expect(repo.read("a.txt")).toBe("a\n");
  });

  it("cleans up when the directory was deleted by hand, and keeps sibling worktrees", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const worktrees = new GitSubagentWorktrees({ git });
    const gone = await worktrees.create({ workdir: repo.root, label: "gone" });
    const sibling = await worktrees.create({ workdir: repo.root, label: "sibling" });
    fs.rmSync(gone.path, { recursive: true, force: true });
    await worktrees.remove(gone);
    expect(repo.git(["branch", "--list", gone.branch])).toBe("");
    expect(repo.git(["worktree", "list", "--porcelain"])).not.toContain(gone.path);
    expect(fs.existsSync(sibling.path)).toBe(true);
    expect(repo.git(["branch", "--list", sibling.branch])).toContain(sibling.branch);
  });
});

describe("GitSubagentWorktrees through the GitClient port", () => {
  it("runs every git operation through the port: add, snapshot, remove, branch deletion", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const recording = new RecordingGitClient(git);
    const worktrees = new GitSubagentWorktrees({ git: recording });
    const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
    fs.writeFileSync(path.join(worktree.path, "a.txt"), "changed\n");
    expect((await worktrees.changes(worktree, { maxDiffChars: 10_000 })).changedPaths).toEqual(["a.txt"]);
    await worktrees.remove(worktree);
    expect(recording.calls.map((call) => call.method)).toEqual([
      "repositoryRoot",
      "listWorktrees",
      "addWorktree",
      "snapshotWorktree",
      "removeWorktree",
      "deleteBranch",
    ]);
    expect(recording.calls[3]!.options).toEqual({ worktree: worktree.path, base: worktree.baseCommit, maxBytes: 64 * 1024 * 1024 });
    expect(recording.calls[5]!.options).toEqual({ branch: worktree.branch });
    expect(repo.git(["branch", "--list", worktree.branch])).toBe("");
  });

  it("prunes through the port when git refuses to remove a worktree whose .git was rewritten", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const recording = new RecordingGitClient(git);
    const worktrees = new GitSubagentWorktrees({ git: recording });
    const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
    fs.writeFileSync(path.join(worktree.path, ".git"), "gitdir: /nonexistent\n");
    await worktrees.remove(worktree);
    expect(recording.calls.map((call) => call.method).slice(-4)).toEqual(["removeWorktree", "pruneWorktrees", "listWorktrees", "deleteBranch"]);
    expect(recording.calls.at(-4)!.outcome).toBe("error");
    expect(fs.existsSync(worktree.path)).toBe(false);
    expect(repo.git(["worktree", "list", "--porcelain"])).not.toContain(worktree.path);
  });

  it("fails with worktree_unreadable when the worktree is gone", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const worktrees = new GitSubagentWorktrees({ git });
    const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
    fs.rmSync(worktree.path, { recursive: true });
    const error = await worktrees.changes(worktree, { maxDiffChars: 100 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SubagentWorktreeError);
    expect(error).toMatchObject({
      code: "worktree_unreadable",
      message: `The worktree ${worktree.path} is gone (or not a folder).`,
      details: { worktreePath: worktree.path },
    });
  });

  it("reports an adapter's too_large as worktree_unreadable saying what to do, and rethrows an abort as it is", async () => {
    const repo = repository({ "a.txt": "a\n" });
    const tooLarge = new SnapshotOverrideGitClient(git, async (_repo, options) => {
      throw new GitClientError(
        "too_large",
        `The changes of the worktree ${options.worktree} are larger than ${options.maxBytes} bytes (of changed files), more than the host reads.`,
      );
    });
    const worktree = await new GitSubagentWorktrees({ git }).create({ workdir: repo.root, label: "job" });
    const error = await new GitSubagentWorktrees({ git: tooLarge }).apply(worktree).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "worktree_unreadable",
      message: `The changes of the worktree ${worktree.path} are larger than 67108864 bytes (of changed files), more than the host reads; nothing was read or applied. Look at the worktree by hand, or have the agent leave fewer or smaller files.`,
      details: { worktreePath: worktree.path, maxPatchBytes: 67108864 },
    });
    const aborted = new DOMException("stopped", "AbortError");
    const aborting = new SnapshotOverrideGitClient(git, async () => {
      throw aborted;
    });
    expect(await new GitSubagentWorktrees({ git: aborting }).changes(worktree, { maxDiffChars: 1 }).catch((caught: unknown) => caught)).toBe(aborted);
  });
});
