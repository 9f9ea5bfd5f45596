import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

// Reproduces an adversarial run: a symlink loop made canonicalizeTarget recurse
// without a bound ("Maximum call stack size exceeded"). These tests sit beside
// Image because they cover the path policy through every file tool.

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

function loopWorkspace(): TestWorkspace {
  const workspace = createTestWorkspace({ "ok.txt": "ok\n" });
  symlinkSync("b", path.join(workspace.dir, "a"));
  symlinkSync("a", path.join(workspace.dir, "b"));
  symlinkSync("self", path.join(workspace.dir, "self"));
  symlinkSync("loopdir", path.join(workspace.dir, "loopdir"));
  return workspace;
}

const LOOP_MESSAGE = /symlink loop \(or too many levels of symlinks\)/;

describe("symlink loops", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["Read", { path: "a" }],
    ["Read", { path: "self" }],
    ["Read", { path: "loopdir/x.txt" }],
    ["Edit", { path: "b", old_string: "x", new_string: "y" }],
    ["Edit", { path: "loopdir/x.txt", old_string: "x", new_string: "y" }],
    ["Write", { path: "a", content: "x" }],
    ["Write", { path: "self", content: "x" }],
    ["Write", { path: "loopdir/x.txt", content: "x" }],
    ["List", { path: "a" }],
    ["List", { path: "loopdir" }],
    ["Image", { path: "self" }],
    ["Image", { path: "loopdir/x.png" }],
    ["Delete", { path: "loopdir/x.txt" }],
  ];

  for (const [tool, args] of cases) {
    it(`${tool} ${JSON.stringify(args.path)} answers invalid_path, not a stack overflow`, async () => {
      ws = loopWorkspace();
      const result = await ws.call(tool, args);
      expect(result.isError).toBe(true);
      expect(result.text).not.toMatch(/call stack/i);
      expect(result.details).toMatchObject({ code: "invalid_path" });
      expect(result.text).toMatch(LOOP_MESSAGE);
      expect(result.text).toMatch(/[Dd]elete the link or point it at an existing file/);
    });
  }

  it("an absolute path to a loop link answers invalid_path too", async () => {
    ws = loopWorkspace();
    const result = await ws.call("Read", { path: path.join(ws.dir, "a") });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(LOOP_MESSAGE);
  });

  it("Delete removes the loop link itself", async () => {
    ws = loopWorkspace();
    for (const name of ["a", "self", "loopdir"]) {
      const result = await ws.call("Delete", { path: name });
      expect(result.isError, result.text).toBe(false);
      expect(existsSync(path.join(ws.dir, name)) || isLink(path.join(ws.dir, name))).toBe(false);
    }
    // b now dangles (its target a is gone): it is an ordinary dangling link again.
    expect(isLink(path.join(ws.dir, "b"))).toBe(true);
  });

  it("List of the workspace still lists around a loop", async () => {
    ws = loopWorkspace();
    const result = await ws.call("List", {});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain("ok.txt");
  });

  it("a long chain of links (more than 40) is refused like a loop", async () => {
    ws = createTestWorkspace();
    mkdirSync(path.join(ws.dir, "chain"));
    for (let index = 0; index < 45; index += 1) symlinkSync(`l${index + 1}`, path.join(ws.dir, "chain", `l${index}`));
    const result = await ws.call("Read", { path: "chain/l0" });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(LOOP_MESSAGE);
  });

  it("a dangling link whose target leaves the workspace is still refused", async () => {
    ws = createTestWorkspace();
    symlinkSync("/nonexistent-agent-tools-dir/x.txt", path.join(ws.dir, "out"));
    symlinkSync("out", path.join(ws.dir, "out2"));
    for (const name of ["out", "out2"]) {
      const result = await ws.call("Write", { path: name, content: "x" });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "out_of_bounds" });
    }
  });
});

function isLink(target: string): boolean {
  try {
    return lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}
