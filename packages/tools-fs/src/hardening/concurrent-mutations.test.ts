import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createToolRegistry } from "@agent-tools/core";
import { afterEach, describe, expect, it } from "vitest";
import { editLines, lineLabel, numberedLines } from "../__fixtures__/edit-lines.js";
import { type TestWorkspace, createTestWorkspace } from "../__fixtures__/workspace.js";
import { createFsToolBundle } from "../fs-tool-bundle.js";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const childScript = path.join(packageDirectory, "src/__fixtures__/edit-lines-child.ts");

let ws: TestWorkspace;
afterEach(async () => {
  await ws?.registry.close();
  ws?.cleanup();
});

/** Every line whose Edit reported success holds its tag in the final file. */
function expectAllLanded(text: string, tag: string, lines: readonly number[]): void {
  for (const line of lines) expect(text).toContain(`${lineLabel(line)}: ${tag}\n`);
}

describe("concurrent mutations of one file", () => {
  it("keeps both of two concurrent Edits through one registry (20 trials)", async () => {
    ws = createTestWorkspace();
    for (let trial = 0; trial < 20; trial += 1) {
      const file = `pair-${trial}.txt`;
      ws.write(file, numberedLines(10));
      const succeeded = await editLines(ws.registry, file, "new", [2, 7]);
      expect(succeeded).toEqual([2, 7]);
      expectAllLanded(readFileSync(path.join(ws.dir, file), "utf8"), "new", succeeded);
    }
  });

  it("keeps all of 50 concurrent Edits through one registry", async () => {
    ws = createTestWorkspace({ "fifty.txt": numberedLines(50) });
    const lines = Array.from({ length: 50 }, (_, index) => index);
    const succeeded = await editLines(ws.registry, "fifty.txt", "new", lines);
    expect(succeeded).toEqual(lines);
    const text = readFileSync(path.join(ws.dir, "fifty.txt"), "utf8");
    expectAllLanded(text, "new", lines);
    expect(text).not.toContain(": old");
  });

  it("never loses a reported success across two registries on one workdir", async () => {
    ws = createTestWorkspace({ "shared.txt": numberedLines(60) });
    const second = createToolRegistry({ workdir: ws.dir, bundles: [createFsToolBundle()], loopBreaker: false });
    try {
      const [first, other] = await Promise.all([
        editLines(
          ws.registry,
          "shared.txt",
          "one",
          Array.from({ length: 30 }, (_, index) => index),
        ),
        editLines(
          second,
          "shared.txt",
          "two",
          Array.from({ length: 30 }, (_, index) => 30 + index),
        ),
      ]);
      const text = readFileSync(path.join(ws.dir, "shared.txt"), "utf8");
      expect(first.length).toBeGreaterThan(0);
      expect(other.length).toBeGreaterThan(0);
      expectAllLanded(text, "one", first);
      expectAllLanded(text, "two", other);
    } finally {
      await second.close();
    }
  });

  it("never loses a reported success across two processes", async () => {
    ws = createTestWorkspace({ "procs.txt": numberedLines(80) });
    const startAt = Date.now() + 2500;
    const child = promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--conditions=@agent-tools/source", childScript, ws.dir, "procs.txt", "child", "40", "40", String(startAt)],
      {
        cwd: packageDirectory,
        timeout: 60_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
    const mine = await editLines(
      ws.registry,
      "procs.txt",
      "parent",
      Array.from({ length: 40 }, (_, index) => index),
    );
    const theirs = JSON.parse((await child).stdout) as number[];
    const text = readFileSync(path.join(ws.dir, "procs.txt"), "utf8");
    expect(mine.length + theirs.length).toBeGreaterThan(0);
    expectAllLanded(text, "parent", mine);
    expectAllLanded(text, "child", theirs);
  });

  it("keeps every reported Write of distinct files in one directory and no sidecar files", async () => {
    ws = createTestWorkspace();
    const writes = Array.from({ length: 40 }, (_, index) => ws.call("Write", { path: `many/f${index}.txt`, content: `content ${index}\n` }));
    const results = await Promise.all(writes);
    expect(results.every((result) => !result.isError)).toBe(true);
    for (let index = 0; index < 40; index += 1) expect(readFileSync(path.join(ws.dir, `many/f${index}.txt`), "utf8")).toBe(`content ${index}\n`);
    const listed = await ws.call("List", { path: "many" });
    expect(listed.text).not.toMatch(/\.tmp|\.lock/);
  });
});
