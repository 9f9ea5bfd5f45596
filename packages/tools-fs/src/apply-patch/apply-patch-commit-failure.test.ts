/**
 * A patch whose commit fails midway (the workspace's write of its third
 * file fails, as a full disk or a dropped connection would): the files
 * already written are restored from their pre-images and the answer names
 * them. And inside a checkpoint, every file's pre-image is recorded before
 * the first one is written.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FileChangeRequest, createToolRegistry, toolResultText } from "@agent-tools/core";
import { type MemoryWorkspace, type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { afterEach, describe, expect, it } from "vitest";
import { createFsToolBundle } from "../index.js";

const ROOT = "/srv/apply/root";
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** The memory workspace with its atomic write failing for the paths `failing` accepts (and its stat for those `failingStat` accepts). */
function failingWrites(memory: MemoryWorkspace, failing: (file: string) => boolean, failingStat: (file: string) => boolean = () => false): Workspace {
  const fs = new Proxy(memory.fs, {
    get(target, key) {
      if (key === "writeFileAtomic") {
        return (file: string, data: Uint8Array, options?: object) => {
          if (failing(file)) return Promise.reject(Object.assign(new Error("No space left on device"), { code: "io" }));
          return target.writeFileAtomic(file, data, options);
        };
      }
      if (key === "stat") {
        return (file: string) => (failingStat(file) ? Promise.reject(Object.assign(new Error("connection lost"), { code: "io" })) : target.stat(file));
      }
      if (key === "lstat") {
        // big.txt passes for a file of 100 MiB (more than a deletion keeps a copy of).
        return async (file: string) => {
          const stats = await target.lstat(file);
          return file.endsWith("/big.txt") ? { ...stats, size: 100 * 1024 * 1024 } : stats;
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return new Proxy(memory, {
    get(target, key) {
      if (key === "fs") return fs;
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("ApplyPatch when a commit fails midway", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function setUp(
    workspace: Workspace,
    recorder?: { beforeChange(request: FileChangeRequest): Promise<void>; afterChange(request: FileChangeRequest): Promise<void> },
  ) {
    const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-apply-fail-"));
    const registry = createToolRegistry({
      workdir: ROOT,
      dataDir: data,
      ports: { workspace, fileCheckpoints: recorder },
      bundles: [createFsToolBundle()],
      loopBreaker: false,
    });
    cleanups.push(async () => {
      await registry.close();
      rmSync(data, { recursive: true, force: true });
    });
    return async (args: Record<string, unknown>, checkpointId?: string) => {
      const result = await registry.executeToolCall(
        { id: `f${cleanups.length}`, name: "ApplyPatch", arguments: args },
        checkpointId ? { checkpointId } : undefined,
      );
      return { ...result, text: toolResultText(result) };
    };
  }

  it("restores the files already written and says which", async () => {
    const memory = createMemoryWorkspace({ root: ROOT, files: { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "d.txt": "d\n" } });
    cleanups.push(() => memory.close());
    const call = setUp(failingWrites(memory, (file) => file.endsWith("/c.txt")));
    const result = await call({
      patch: patch(
        "*** Update File: a.txt",
        "@@",
        "-a",
        "+A",
        "*** Delete File: b.txt",
        "*** Update File: c.txt",
        "@@",
        "-c",
        "+C",
        "*** Add File: e.txt",
        "+e",
      ),
    });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "io", path: "c.txt", restored: ["b.txt", "a.txt"], notRestored: [] });
    expect(result.text).toContain("ApplyPatch failed while writing c.txt");
    expect(result.text).toContain("restored to their previous content: b.txt, a.txt");
    const text = async (name: string) => (await memory.fs.readFile(`${ROOT}/${name}`)).toString("utf8");
    expect([await text("a.txt"), await text("b.txt"), await text("c.txt"), await text("d.txt")]).toEqual(["a\n", "b\n", "c\n", "d\n"]);
    await expect(memory.fs.stat(`${ROOT}/e.txt`)).rejects.toMatchObject({ code: "not_found" });
  });

  it("restores a file whose write landed though the stat after it failed", async () => {
    const memory = createMemoryWorkspace({ root: ROOT, files: { "a.txt": "a\n", "c.txt": "c\n" } });
    cleanups.push(() => memory.close());
    let aWritten = false;
    const workspace = failingWrites(
      memory,
      (file) => {
        if (file.endsWith("/a.txt")) aWritten = true;
        return file.endsWith("/c.txt");
      },
      (file) => aWritten && file.endsWith("/a.txt"),
    );
    const call = setUp(workspace);
    const result = await call({ patch: patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: c.txt", "@@", "-c", "+C") });
    expect(result.details).toMatchObject({ code: "io", path: "c.txt", restored: ["a.txt"] });
    expect((await memory.fs.readFile(`${ROOT}/a.txt`)).toString("utf8")).toBe("a\n");
  });

  it("deletes a file too large to keep a copy of only after every other change, so a failure before leaves it", async () => {
    const memory = createMemoryWorkspace({ root: ROOT, files: { "big.txt": "big\n", "a.txt": "a\n", "c.txt": "c\n" } });
    cleanups.push(() => memory.close());
    const call = setUp(failingWrites(memory, (file) => file.endsWith("/c.txt")));
    const result = await call({
      patch: patch("*** Delete File: big.txt", "*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: c.txt", "@@", "-c", "+C"),
    });
    expect(result.details).toMatchObject({ code: "io", path: "c.txt", restored: ["a.txt"], notRestored: [] });
    expect((await memory.fs.readFile(`${ROOT}/big.txt`)).toString("utf8")).toBe("big\n");
    expect((await memory.fs.readFile(`${ROOT}/a.txt`)).toString("utf8")).toBe("a\n");
  });

  it("never overwrites a file another writer made at an added path or a move destination after the plan", async () => {
    for (const [text, racer] of [
      [patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Add File: new.txt", "+mine"), "new.txt"],
      [patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: m.txt", "*** Move to: moved.txt"), "moved.txt"],
    ] as const) {
      const memory = createMemoryWorkspace({ root: ROOT, files: { "a.txt": "a\n", "m.txt": "m\n" } });
      cleanups.push(() => memory.close());
      // The write of a.txt lets a writer that ignores the lock make the racer's file.
      const workspace = new Proxy(memory, {
        get(target, key) {
          if (key !== "fs") {
            const value = Reflect.get(target, key);
            return typeof value === "function" ? value.bind(target) : value;
          }
          return new Proxy(target.fs, {
            get(fs, name) {
              if (name === "writeFileAtomic") {
                return async (file: string, data: Uint8Array, options?: object) => {
                  await fs.writeFileAtomic(file, data, options);
                  if (file.endsWith("/a.txt")) await fs.writeFileAtomic(`${ROOT}/${racer}`, Buffer.from("theirs\n"));
                };
              }
              const value = Reflect.get(fs, name);
              return typeof value === "function" ? value.bind(fs) : value;
            },
          });
        },
      });
      const call = setUp(workspace);
      const result = await call({ patch: text });
      expect(result.details, text).toMatchObject({ code: "conflict", restored: ["a.txt"] });
      expect(result.text).toContain(`${racer} appeared while the patch was being written`);
      expect((await memory.fs.readFile(`${ROOT}/${racer}`)).toString("utf8")).toBe("theirs\n");
      expect((await memory.fs.readFile(`${ROOT}/a.txt`)).toString("utf8")).toBe("a\n");
      expect((await memory.fs.readFile(`${ROOT}/m.txt`)).toString("utf8")).toBe("m\n");
    }
  });

  it("names a file it could not restore", async () => {
    const memory = createMemoryWorkspace({ root: ROOT, files: { "a.txt": "a\n", "c.txt": "c\n" } });
    cleanups.push(() => memory.close());
    let writesOfA = 0;
    // a.txt is written once (the patch), then its restore fails too; c.txt always fails.
    const call = setUp(failingWrites(memory, (file) => file.endsWith("/c.txt") || (file.endsWith("/a.txt") && ++writesOfA > 1)));
    const result = await call({ patch: patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: c.txt", "@@", "-c", "+C") });
    expect(result.details).toMatchObject({ code: "io", restored: [], notRestored: ["a.txt"] });
    expect(result.text).toContain("could not be restored and may hold the patch's change: a.txt");
  });

  it("records every file's pre-image in the checkpoint before the first write", async () => {
    const memory = createMemoryWorkspace({ root: ROOT, files: { "a.txt": "a\n", "b.txt": "b\n" } });
    cleanups.push(() => memory.close());
    const seen: string[] = [];
    const note = (phase: string) => async (request: FileChangeRequest) => {
      const state = await memory.fs.readFile(request.path).then(
        (bytes) => bytes.toString("utf8").trim(),
        () => "absent",
      );
      seen.push(`${phase} ${path.posix.basename(request.path)} ${state}`);
    };
    const call = setUp(memory, { beforeChange: note("before"), afterChange: note("after") });
    const result = await call(
      { patch: patch("*** Update File: b.txt", "@@", "-b", "+B", "*** Update File: a.txt", "@@", "-a", "+A", "*** Add File: n.txt", "+n") },
      "turn",
    );
    expect(result.isError, result.text).toBe(false);
    expect(seen.slice(0, 3).sort()).toEqual(["before a.txt a", "before b.txt b", "before n.txt absent"]);
    expect(seen.slice(3).sort()).toEqual(["after a.txt A", "after b.txt B", "after n.txt n"]);
  });
});
