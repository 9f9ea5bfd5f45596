import fs from "node:fs";
import path from "node:path";
import type { FileChangeRequest, FileCheckpointRecorder, ToolContext } from "@agent-tools/core";
import { GitCliClient } from "@agent-tools/git";
import { afterEach, describe, expect, it } from "vitest";
import type { SubagentApplyRecorder } from "../ports/subagent-worktrees.js";
import { type TestRepository, createTestRepository } from "./__fixtures__/git-subagent-worktree-repository.js";
import { createApplyCheckpointRecorder, recordedPaths } from "./apply-checkpoint-recording.js";
import { GitSubagentWorktrees } from "./git-subagent-worktrees.js";

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});
const worktrees = new GitSubagentWorktrees({ git: new GitCliClient() });
const lines = (count: number, change: Record<number, string> = {}) =>
  `${Array.from({ length: count }, (_, index) => change[index + 1] ?? `line ${index + 1}`).join("\n")}\n`;

async function setUp() {
  const repo = createTestRepository({ "a.txt": lines(10), "dir/b.txt": "b\n", "gone.txt": "gone\n" });
  repositories.push(repo);
  const worktree = await worktrees.create({ workdir: repo.root, label: "job" });
  const child = {
    write(relative: string, content: string) {
      fs.mkdirSync(path.dirname(path.join(worktree.path, relative)), { recursive: true });
      fs.writeFileSync(path.join(worktree.path, relative), content);
    },
    remove: (relative: string) => fs.rmSync(path.join(worktree.path, relative)),
  };
  return { repo, worktree, child, at: (relative: string) => path.join(repo.root, relative) };
}

/** What a path holds now: its text, `<directory>`, or null when it is missing. */
const stateOf = (file: string) => (!fs.existsSync(file) ? null : fs.statSync(file).isDirectory() ? "<directory>" : fs.readFileSync(file, "utf8"));

/** A recorder double that logs each call with what every path held at that moment. */
function recordingDouble(options: { failBefore?: Error; failAfter?: Error } = {}) {
  const events: Array<{ call: "before" | "after"; states: Record<string, string | null> }> = [];
  const log = (call: "before" | "after", paths: readonly string[]) =>
    events.push({ call, states: Object.fromEntries(paths.map((file) => [file, stateOf(file)])) });
  const recorder: SubagentApplyRecorder = {
    async before(paths) {
      log("before", paths);
      if (options.failBefore) throw options.failBefore;
    },
    async after(paths) {
      log("after", paths);
      if (options.failAfter) throw options.failAfter;
    },
  };
  return { recorder, events };
}

describe("GitSubagentWorktrees.apply with a recorder", () => {
  it("records every modified, created and deleted file before the apply changes anything, and the state it left after", async () => {
    const { worktree, child, at } = await setUp();
    child.write("a.txt", lines(10, { 3: "changed 3" }));
    child.write("new/added.txt", "added\n");
    child.remove("gone.txt");
    const { recorder, events } = recordingDouble();
    expect(await worktrees.apply(worktree, { recorder })).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply" });
    expect(events).toEqual([
      { call: "before", states: { [at("a.txt")]: lines(10), [at("gone.txt")]: "gone\n", [at("new/added.txt")]: null } },
      { call: "after", states: { [at("a.txt")]: lines(10, { 3: "changed 3" }), [at("gone.txt")]: null, [at("new/added.txt")]: "added\n" } },
    ]);
  });

  it("records around a merge, and records nothing when a conflict stops the apply before any write", async () => {
    const { repo, worktree, child, at } = await setUp();
    child.write("a.txt", lines(10, { 3: "child 3" }));
    repo.write("a.txt", lines(10, { 8: "parent 8" }));
    const merged = recordingDouble();
    expect(await worktrees.apply(worktree, { recorder: merged.recorder })).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply_3way" });
    expect(merged.events).toEqual([
      { call: "before", states: { [at("a.txt")]: lines(10, { 8: "parent 8" }) } },
      { call: "after", states: { [at("a.txt")]: lines(10, { 3: "child 3", 8: "parent 8" }) } },
    ]);
    repo.write("a.txt", lines(10, { 3: "parent 3" }));
    const conflicting = recordingDouble();
    expect(await worktrees.apply(worktree, { recorder: conflicting.recorder })).toMatchObject({ applyStatus: "failed", conflictFiles: ["a.txt"] });
    expect(conflicting.events).toEqual([]);
  });

  it("changes nothing when before rejects: the apply fails with the reason, after is not called, the worktree keeps its changes", async () => {
    const { worktree, child, at } = await setUp();
    child.write("a.txt", lines(10, { 3: "changed 3" }));
    child.write("new/added.txt", "added\n");
    child.remove("gone.txt");
    const { recorder, events } = recordingDouble({ failBefore: new Error("checkpoint store is read-only") });
    const outcome = await worktrees.apply(worktree, { recorder });
    expect(outcome).toEqual({
      applyStatus: "failed",
      copiedFiles: [],
      deletedFiles: [],
      conflictFiles: [],
      error: "The subagent's changes were not applied, nothing in the workspace changed: checkpoint store is read-only",
    });
    expect(events.map((event) => event.call)).toEqual(["before"]);
    expect(stateOf(at("a.txt"))).toBe(lines(10));
    expect(stateOf(at("gone.txt"))).toBe("gone\n");
    expect(fs.existsSync(at("new"))).toBe(false);
    expect((await worktrees.changes(worktree, { maxDiffChars: 10_000 })).changedPaths).toEqual(["a.txt", "gone.txt", "new/added.txt"]);
    // Without the failing recorder, the same apply goes through.
    expect((await worktrees.apply(worktree)).applyStatus).toBe("applied");
  });

  it("keeps the outcome when after rejects, records only the selected paths, and records nothing for an empty or already applied patch", async () => {
    const { worktree, child, at } = await setUp();
    child.write("a.txt", "child a\n");
    child.write("dir/b.txt", "child b\n");
    const failing = recordingDouble({ failAfter: new Error("store went away") });
    expect(await worktrees.apply(worktree, { paths: ["dir"], recorder: failing.recorder })).toMatchObject({ applyStatus: "applied" });
    expect(failing.events).toEqual([
      { call: "before", states: { [at("dir/b.txt")]: "b\n" } },
      { call: "after", states: { [at("dir/b.txt")]: "child b\n" } },
    ]);
    const quiet = recordingDouble();
    expect(await worktrees.apply(worktree, { paths: ["dir"], recorder: quiet.recorder })).toMatchObject({ skipReason: "already_applied" });
    expect(await worktrees.apply(worktree, { paths: ["missing"], recorder: quiet.recorder })).toMatchObject({ skipReason: "empty_patch" });
    expect(quiet.events).toEqual([]);
  });

  it("undoes what it wrote when a file changes between the plan and its write, and records the restored state after", async () => {
    const { worktree, child, at } = await setUp();
    child.write("a.txt", lines(10, { 3: "child 3" }));
    child.write("dir/b.txt", "child b\n");
    const events: string[] = [];
    const recorder: SubagentApplyRecorder = {
      async before(paths) {
        events.push(`before ${paths.map((file) => path.relative(path.dirname(at("a.txt")), file)).join(" ")}`);
        // Another writer, after the plan read the parent and before the apply writes it (a.txt is written first).
        fs.writeFileSync(at("dir/b.txt"), "written meanwhile\n");
      },
      async after() {
        events.push(`after a.txt=${JSON.stringify(stateOf(at("a.txt")))} dir/b.txt=${JSON.stringify(stateOf(at("dir/b.txt")))}`);
      },
    };
    const outcome = await worktrees.apply(worktree, { recorder });
    expect(outcome).toMatchObject({ applyStatus: "failed", conflictFiles: ["dir/b.txt"] });
    expect(outcome.error).toContain("dir/b.txt (it changed in the workspace while the apply ran)");
    expect(events).toEqual(["before a.txt dir/b.txt", `after a.txt=${JSON.stringify(lines(10))} dir/b.txt=${JSON.stringify("written meanwhile\n")}`]);
    expect(stateOf(at("a.txt"))).toBe(lines(10));
  });
});

describe("recordedPaths", () => {
  it("gives canonical absolute paths in the parent, once each", async () => {
    const { repo } = await setUp();
    fs.symlinkSync(repo.root, path.join(repo.base, "alias"));
    expect(recordedPaths(path.join(repo.base, "alias"), ["a.txt", "new/x.txt", "a.txt"])).toEqual(
      ["a.txt", "new/x.txt"].map((relative) => path.join(repo.root, relative)),
    );
  });
});

describe("createApplyCheckpointRecorder", () => {
  /** A checkpoint recorder double; `failOn` makes beforeChange of that path reject. */
  function checkpoints(failOn?: string) {
    const calls: Array<[string, FileChangeRequest]> = [];
    const recorder: FileCheckpointRecorder = {
      async beforeChange(request) {
        calls.push(["beforeChange", request]);
        if (request.path === failOn) throw new Error("disk full");
      },
      async afterChange(request) {
        calls.push(["afterChange", request]);
        if (request.path === "/repo/after-fails") throw new Error("gone");
      },
    };
    return { recorder, calls };
  }
  const warnings: unknown[] = [];
  const contextOf = (fileCheckpoints: FileCheckpointRecorder | undefined, checkpointId: string | undefined) =>
    ({
      toolName: "Agent",
      callId: "call-7",
      checkpointId,
      ports: { fileCheckpoints },
      logger: { debug() {}, info() {}, warn: (...args: unknown[]) => warnings.push(args), error() {} },
    }) as unknown as ToolContext;

  it("is undefined without a checkpoint or without a recorder", () => {
    expect(createApplyCheckpointRecorder(contextOf(checkpoints().recorder, undefined))).toBeUndefined();
    expect(createApplyCheckpointRecorder(contextOf(checkpoints().recorder, ""))).toBeUndefined();
    expect(createApplyCheckpointRecorder(contextOf(undefined, "turn-1"))).toBeUndefined();
  });

  it("records each path with the Agent call's name and id; after logs its failures and never rejects", async () => {
    const { recorder, calls } = checkpoints();
    const apply = createApplyCheckpointRecorder(contextOf(recorder, "turn-1"))!;
    await apply.before(["/repo/a", "/repo/after-fails"]);
    await apply.after(["/repo/a", "/repo/after-fails"]);
    const request = (file: string) => ({ checkpointId: "turn-1", path: file, toolName: "Agent", callId: "call-7" });
    expect(calls).toEqual([
      ["beforeChange", request("/repo/a")],
      ["beforeChange", request("/repo/after-fails")],
      ["afterChange", request("/repo/a")],
      ["afterChange", request("/repo/after-fails")],
    ]);
    expect(JSON.stringify(warnings.at(-1))).toContain("/repo/after-fails");
  });

  it("rejects naming the path and the checkpoint when one pre-image cannot be saved, closing the ones already saved", async () => {
    const { recorder, calls } = checkpoints("/repo/b");
    const apply = createApplyCheckpointRecorder(contextOf(recorder, "turn-1"))!;
    await expect(apply.before(["/repo/a", "/repo/b", "/repo/c"])).rejects.toThrow(
      /previous state of \/repo\/b could not be saved in checkpoint "turn-1" \(disk full\)/,
    );
    expect(calls.map(([call, request]) => `${call} ${request.path}`)).toEqual(["beforeChange /repo/a", "beforeChange /repo/b", "afterChange /repo/a"]);
  });
});
