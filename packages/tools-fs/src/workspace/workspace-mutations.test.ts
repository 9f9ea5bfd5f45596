import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FileChangeRequest, createToolRegistry, toolResultText } from "@agent-tools/core";
import { type MemoryWorkspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFsToolBundle } from "../index.js";

const ROOT = "/srv/mutations/root";

describe("Write, Edit and Delete on a memory workspace", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function setUp(
    files: Record<string, string>,
    options: { recorder?: { beforeChange(request: FileChangeRequest): Promise<void>; afterChange(request: FileChangeRequest): Promise<void> } } = {},
  ) {
    const workspace = createMemoryWorkspace({ root: ROOT, files });
    const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-mutations-"));
    const registry = createToolRegistry({
      workdir: ROOT,
      dataDir: data,
      ports: { workspace, fileCheckpoints: options.recorder },
      bundles: [createFsToolBundle()],
      loopBreaker: false,
    });
    cleanups.push(async () => {
      await registry.close();
      await workspace.close();
      rmSync(data, { recursive: true, force: true });
    });
    let counter = 0;
    const call = async (name: string, args: Record<string, unknown>, checkpointId?: string) => {
      const result = await registry.executeToolCall({ id: `m${++counter}`, name, arguments: args }, checkpointId ? { checkpointId } : undefined);
      return { ...result, text: toolResultText(result) };
    };
    return { workspace, registry, call };
  }

  const text = async (workspace: MemoryWorkspace, relative: string) => (await workspace.fs.readFile(`${ROOT}/${relative}`)).toString("utf8");

  it("keeps the permission bits of a file it rewrites", async () => {
    const { workspace, call } = setUp({ "run.sh": "#!/bin/sh\necho one\n" });
    await workspace.fs.writeFileAtomic(`${ROOT}/run.sh`, Buffer.from("#!/bin/sh\necho one\n"), { mode: 0o755 });
    const edited = await call("Edit", { path: "run.sh", old_string: "echo one", new_string: "echo two" });
    expect(edited.isError).toBeFalsy();
    expect((await workspace.fs.stat(`${ROOT}/run.sh`)).mode & 0o777).toBe(0o755);
    expect(await text(workspace, "run.sh")).toBe("#!/bin/sh\necho two\n");
  });

  it("lands two concurrent Edits of different lines of one file, one after the other", async () => {
    const { workspace, call } = setUp({ "list.txt": "a\nb\nc\n" });
    await call("Read", { path: "list.txt" });
    const [first, second] = await Promise.all([
      call("Edit", { path: "list.txt", old_string: "a\n", new_string: "A\n" }),
      call("Edit", { path: "list.txt", old_string: "c\n", new_string: "C\n" }),
    ]);
    expect(first.text).toBe("Edit: list.txt\nreplacements=1\nreplaceAll=false");
    expect(second.text).toBe("Edit: list.txt\nreplacements=1\nreplaceAll=false");
    expect(await text(workspace, "list.txt")).toBe("A\nb\nC\n");
  });

  it("waits for another client's lock of the file before it writes", async () => {
    const { workspace, call } = setUp({ "shared.txt": "v1\n" });
    const other = workspace.openClient();
    const held = await other.fs.lock(`${ROOT}/shared.txt`);
    await call("Read", { path: "shared.txt" });
    const writing = call("Write", { path: "shared.txt", content: "v2\n" });
    let settled = false;
    void writing.then(() => (settled = true));
    // Generous: the Write has had every chance to run while the lock is held.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    expect(await text(workspace, "shared.txt")).toBe("v1\n");
    await held.release();
    expect((await writing).text).toBe("File updated successfully at: shared.txt");
    expect(await text(workspace, "shared.txt")).toBe("v2\n");
    await other.close();
  });

  it("inside a checkpoint, hands the recorder each touched path with the workspace (a directory Delete: parents first), before and after", async () => {
    const seen: Array<{ phase: string; path: string; label: string | undefined; content: string | undefined }> = [];
    let workspaceRef: MemoryWorkspace | undefined;
    const note = (phase: string) => async (request: FileChangeRequest) => {
      const content = await request.workspace?.fs.readFile(request.path).then(
        (bytes) => bytes.toString("utf8"),
        () => undefined,
      );
      seen.push({ phase, path: request.path, label: request.workspace?.label, content });
      expect(request.workspace).toBe(workspaceRef);
    };
    const recorder = { beforeChange: note("before"), afterChange: note("after") };
    const { workspace, call } = setUp({ "keep.txt": "keep\n", "dir/a.txt": "a\n", "dir/sub/b.txt": "b\n" }, { recorder });
    workspaceRef = workspace;
    const written = await call("Write", { path: "keep.txt", content: "new\n" }, "turn-1");
    expect(written.isError).toBeFalsy();
    expect(seen).toEqual([
      { phase: "before", path: `${ROOT}/keep.txt`, label: workspace.label, content: "keep\n" },
      { phase: "after", path: `${ROOT}/keep.txt`, label: workspace.label, content: "new\n" },
    ]);
    seen.length = 0;
    const deleted = await call("Delete", { path: "dir" }, "turn-1");
    expect(deleted.text).toBe("Deleted directory: dir");
    expect(seen.filter((entry) => entry.phase === "before").map((entry) => entry.path)).toEqual([
      `${ROOT}/dir`,
      `${ROOT}/dir/a.txt`,
      `${ROOT}/dir/sub`,
      `${ROOT}/dir/sub/b.txt`,
    ]);
  });

  it("sees an outside change that keeps the size and the mtime (the hash decides)", async () => {
    // The memory workspace stamps mtimes from Date.now(): frozen, the outside write keeps the mtime (as whole-second SFTP mtimes do).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    try {
      const { workspace, call } = setUp({ "same.txt": "abc\n" });
      await call("Read", { path: "same.txt" });
      const before = await workspace.fs.stat(`${ROOT}/same.txt`);
      await workspace.fs.writeFileAtomic(`${ROOT}/same.txt`, Buffer.from("xyz\n"));
      const after = await workspace.fs.stat(`${ROOT}/same.txt`);
      expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
      const stale = await call("Edit", { path: "same.txt", old_string: "abc", new_string: "def" });
      expect(stale.details).toMatchObject({ code: "stale_file" });
      expect(await text(workspace, "same.txt")).toBe("xyz\n");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("Grep on a memory workspace with a catastrophic pattern", () => {
  it("stops at the regex time budget instead of blocking the event loop", async () => {
    const workspace = createMemoryWorkspace({ root: ROOT, files: { "evil.txt": `${"a".repeat(28)}!\n`, "fine.txt": "aaa\n" } });
    const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-budget-"));
    const registry = createToolRegistry({
      workdir: ROOT,
      dataDir: data,
      ports: { workspace },
      bundles: [createFsToolBundle({ regexTimeBudgetMs: 500 })],
      loopBreaker: false,
    });
    try {
      // The event loop keeps turning while the worker is stuck: a timer scheduled now fires before the answer.
      let ticked = false;
      setTimeout(() => (ticked = true), 50);
      const result = await registry.executeToolCall({ id: "evil", name: "Grep", arguments: { pattern: "(a+)+$", ignore_case: false } });
      expect(ticked).toBe(true);
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "timeout" });
      expect(toolResultText(result)).toContain('Grep stopped: matching the pattern "(a+)+$" took longer than the regex time budget (500 ms)');
    } finally {
      await registry.close();
      await workspace.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe("Image on a memory workspace", () => {
  it("refuses an absolute path outside the workspace without reading anything", async () => {
    const workspace = createMemoryWorkspace({ root: ROOT, files: { "in.png": "x" } });
    await workspace.fs.mkdir("/elsewhere", { recursive: true });
    await workspace.fs.writeFileAtomic("/elsewhere/secret.png", Buffer.from("not for the model"));
    const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-image-"));
    const registry = createToolRegistry({ workdir: ROOT, dataDir: data, ports: { workspace }, bundles: [createFsToolBundle()], loopBreaker: false });
    try {
      const result = await registry.executeToolCall({ id: "img", name: "Image", arguments: { path: "/elsewhere/secret.png" } });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "out_of_bounds" });
      expect(toolResultText(result)).toContain(`/elsewhere/secret.png is outside the workspace memory:${ROOT}`);
    } finally {
      await registry.close();
      await workspace.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});
