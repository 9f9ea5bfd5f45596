import { existsSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

describe("Delete", () => {
  it("deletes a file", async () => {
    ws = createTestWorkspace({ "a.txt": "x" });
    const result = await ws.call("Delete", { path: "a.txt" });
    expect(result.text).toBe("Deleted file: a.txt");
    expect(result.details).toMatchObject({ kind: "delete", targetKind: "file", path: "a.txt" });
    expect(existsSync(`${ws.dir}/a.txt`)).toBe(false);
  });

  it("deletes a directory recursively", async () => {
    ws = createTestWorkspace({ "dir/a.txt": "x", "dir/sub/b.txt": "y" });
    const result = await ws.call("Delete", { path: "dir" });
    expect(result.details).toMatchObject({ targetKind: "directory" });
    expect(existsSync(`${ws.dir}/dir`)).toBe(false);
  });

  it("deletes a symlink, not its target, even one pointing outside", async () => {
    ws = createTestWorkspace({ "target.txt": "keep" });
    const outside = mkdtempSync(path.join(os.tmpdir(), "tools-fs-out-"));
    writeFileSync(path.join(outside, "secret.txt"), "s");
    try {
      symlinkSync(`${ws.dir}/target.txt`, `${ws.dir}/link.txt`);
      symlinkSync(path.join(outside, "secret.txt"), `${ws.dir}/out-link.txt`);
      expect((await ws.call("Delete", { path: "link.txt" })).details).toMatchObject({ targetKind: "symlink" });
      expect(existsSync(`${ws.dir}/target.txt`)).toBe(true);
      expect((await ws.call("Delete", { path: "out-link.txt" })).details).toMatchObject({ targetKind: "symlink" });
      expect(existsSync(path.join(outside, "secret.txt"))).toBe(true);
      expect(() => lstatSync(`${ws.dir}/out-link.txt`)).toThrow();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("refuses the workspace root, missing paths and paths through an escaping symlinked directory", async () => {
    ws = createTestWorkspace({ "a.txt": "x" });
    const outside = mkdtempSync(path.join(os.tmpdir(), "tools-fs-out-"));
    mkdirSync(path.join(outside, "d"));
    writeFileSync(path.join(outside, "d", "f.txt"), "f");
    try {
      symlinkSync(path.join(outside, "d"), `${ws.dir}/linked-dir`);
      expect((await ws.call("Delete", { path: "." })).details).toMatchObject({ code: "unsupported_target" });
      expect((await ws.call("Delete", { path: "nope.txt" })).details).toMatchObject({ code: "not_found" });
      expect((await ws.call("Delete", { path: "linked-dir/f.txt" })).details).toMatchObject({ code: "out_of_bounds" });
      expect(existsSync(path.join(outside, "d", "f.txt"))).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("clears the file state so a recreated file is not stale", async () => {
    ws = createTestWorkspace({ "a.txt": "one\n" });
    await ws.call("Read", { path: "a.txt" });
    await ws.call("Delete", { path: "a.txt" });
    writeFileSync(`${ws.dir}/a.txt`, "two\n");
    const read = await ws.call("Read", { path: "a.txt" });
    expect(read.details).toMatchObject({ reusedExisting: false });
  });
});
