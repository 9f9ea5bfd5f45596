import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FileChangeRequest, type FileCheckpointRecorder, type ToolRegistry, createToolRegistry, toolResultText } from "@agent-tools/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFsToolBundle } from "../fs-tool-bundle.js";

/** What the fake recorder saw of a path when it was called. */
interface Seen {
  phase: "before" | "after";
  request: FileChangeRequest;
  state: string;
}

/** The on-disk state of a path, as text: absent, a symlink's target, a directory, or a file's content. */
function stateOf(file: string): string {
  try {
    const info = lstatSync(file);
    if (info.isSymbolicLink()) return `link:${readlinkSync(file)}`;
    if (info.isDirectory()) return "dir";
    return `file:${readFileSync(file, "utf8")}`;
  } catch {
    return "absent";
  }
}

/** A recorder that notes the state of each path when called, and can be told to fail. */
function recordingRecorder(): FileCheckpointRecorder & { seen: Seen[]; failBefore: boolean } {
  const recorder = {
    seen: [] as Seen[],
    failBefore: false,
    async beforeChange(request: FileChangeRequest) {
      if (recorder.failBefore) throw new Error("store is read-only");
      recorder.seen.push({ phase: "before", request, state: stateOf(request.path) });
    },
    async afterChange(request: FileChangeRequest) {
      recorder.seen.push({ phase: "after", request, state: stateOf(request.path) });
    },
  };
  return recorder;
}

describe("file tools inside a checkpoint", () => {
  let dir: string;
  let recorder: ReturnType<typeof recordingRecorder>;
  let registry: ToolRegistry;
  let counter = 0;
  const call = async (name: string, args: Record<string, unknown>, checkpointId?: string) => {
    const result = await registry.executeToolCall({ id: `c${++counter}`, name, arguments: args }, checkpointId ? { checkpointId } : undefined);
    return { ...result, text: toolResultText(result) };
  };

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-checkpoint-")));
    recorder = recordingRecorder();
    registry = createToolRegistry({
      workdir: dir,
      dataDir: path.join(dir, ".data-unused"),
      bundles: [createFsToolBundle({ ripgrepPath: false })],
      ports: { fileCheckpoints: recorder },
      checkpoint: { id: "turn-1" },
      loopBreaker: false,
    });
  });
  afterEach(async () => {
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("records the state each Write, Edit and Delete replaced and the state it left, with the call's tool and id", async () => {
    expect((await call("Write", { path: "a.txt", content: "one\n" })).isError).toBe(false);
    expect((await call("Edit", { path: "a.txt", old_string: "one", new_string: "two" })).isError).toBe(false);
    expect((await call("Delete", { path: "a.txt" })).isError).toBe(false);
    const file = path.join(dir, "a.txt");
    expect(recorder.seen.map((entry) => [entry.phase, entry.request.toolName, entry.request.path, entry.state])).toEqual([
      ["before", "Write", file, "absent"],
      ["after", "Write", file, "file:one\n"],
      ["before", "Edit", file, "file:one\n"],
      ["after", "Edit", file, "file:two\n"],
      ["before", "Delete", file, "file:two\n"],
      ["after", "Delete", file, "absent"],
    ]);
    expect(new Set(recorder.seen.map((entry) => entry.request.checkpointId))).toEqual(new Set(["turn-1"]));
    expect(recorder.seen[0]!.request.callId).toBe(recorder.seen[1]!.request.callId);
    expect(recorder.seen[0]!.request.callId).not.toBe(recorder.seen[2]!.request.callId);
  });

  it("uses a call's own checkpoint over the registry's", async () => {
    await call("Write", { path: "b.txt", content: "x" }, "turn-2");
    expect(recorder.seen.map((entry) => entry.request.checkpointId)).toEqual(["turn-2", "turn-2"]);
  });

  it("records every entry of a deleted folder, parents first, and a symlink as the link", async () => {
    mkdirSync(path.join(dir, "tree/sub"), { recursive: true });
    writeFileSync(path.join(dir, "tree/a.txt"), "A");
    writeFileSync(path.join(dir, "tree/sub/b.txt"), "B");
    symlinkSync("../a.txt", path.join(dir, "tree/sub/link"));
    expect((await call("Delete", { path: "tree" })).isError).toBe(false);
    const before = recorder.seen.filter((entry) => entry.phase === "before").map((entry) => [path.relative(dir, entry.request.path), entry.state]);
    expect(before).toEqual([
      ["tree", "dir"],
      ["tree/a.txt", "file:A"],
      ["tree/sub", "dir"],
      ["tree/sub/b.txt", "file:B"],
      ["tree/sub/link", "link:../a.txt"],
    ]);
    expect(recorder.seen.filter((entry) => entry.phase === "after").every((entry) => entry.state === "absent")).toBe(true);
  });

  it("refuses the change and leaves the file as it was when the pre-image cannot be recorded", async () => {
    writeFileSync(path.join(dir, "keep.txt"), "old\n");
    recorder.failBefore = true;
    for (const [name, args] of [
      ["Write", { path: "keep.txt", content: "new\n" }],
      ["Edit", { path: "keep.txt", old_string: "old", new_string: "new" }],
      ["Delete", { path: "keep.txt" }],
      ["Write", { path: "fresh.txt", content: "new\n" }],
    ] as const) {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "unavailable", checkpointId: "turn-1" });
      expect(result.text).toContain(`${name} refused`);
      expect(result.text).toContain("store is read-only");
      expect(result.text).toContain("Nothing was changed");
    }
    expect(readFileSync(path.join(dir, "keep.txt"), "utf8")).toBe("old\n");
    expect(existsSync(path.join(dir, "fresh.txt"))).toBe(false);
    expect(recorder.seen).toEqual([]);
  });

  it("records nothing for a call outside any checkpoint", async () => {
    const plain = createToolRegistry({ workdir: dir, bundles: [createFsToolBundle({ ripgrepPath: false })], ports: { fileCheckpoints: recorder } });
    try {
      await plain.executeToolCall({ id: "p1", name: "Write", arguments: { path: "c.txt", content: "c" } });
      expect(recorder.seen).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it("keeps concurrent Edits of one file in order: each pre-image is the previous Edit's post-image", async () => {
    writeFileSync(path.join(dir, "many.txt"), Array.from({ length: 10 }, (_, index) => `line ${index}\n`).join(""));
    await call("Read", { path: "many.txt" });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => call("Edit", { path: "many.txt", old_string: `line ${index}\n`, new_string: `LINE ${index}\n` })),
    );
    expect(results.every((result) => !result.isError)).toBe(true);
    const states = recorder.seen.map((entry) => entry.state);
    for (let index = 1; index < states.length - 1; index += 2) expect(states[index + 1]).toBe(states[index]);
    expect(states.at(-1)).toBe(`file:${Array.from({ length: 10 }, (_, index) => `LINE ${index}\n`).join("")}`);
  });
});
