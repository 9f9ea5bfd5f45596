import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFsToolBundle } from "./fs-tool-bundle.js";
import { createTestWorkspace, type TestWorkspace } from "./__fixtures__/workspace.js";

let ws: TestWorkspace | undefined;
const extra: string[] = [];
afterEach(() => {
  ws?.cleanup();
  ws = undefined;
  for (const dir of extra.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NAMES = ["Read", "Image", "Write", "Edit", "ApplyPatch", "NotebookEdit", "Delete", "List", "Glob", "Grep"];

describe("createFsToolBundle", () => {
  it("offers the ten file tools in both scopes with their metadata", () => {
    const bundle = createFsToolBundle();
    expect(bundle.id).toBe("fs");
    expect(bundle.trusted).toBe(true);
    const tools = bundle.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(NAMES);
    const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.metadata.isReadOnly]));
    expect(readOnly).toEqual({
      Read: true,
      Image: true,
      Write: false,
      Edit: false,
      ApplyPatch: false,
      NotebookEdit: false,
      Delete: false,
      List: true,
      Glob: true,
      Grep: true,
    });
    for (const tool of tools) {
      expect(tool.metadata.groupId).toBe("fs");
      expect(tool.scopes).toEqual(["chat", "cron"]);
    }
  });

  it.each(NAMES)("%s JSON Schema (what the model sees)", (name) => {
    const tool = createFsToolBundle()
      .listTools()
      .find((candidate) => candidate.name === name)!;
    expect({ description: tool.description, inputSchema: tool.jsonSchema }).toMatchSnapshot();
  });

  it("keeps file state per bundle: a second registry does not see the first one's reads", async () => {
    ws = createTestWorkspace({ "a.txt": "x\n" });
    await ws.call("Read", { path: "a.txt" });
    expect((await ws.call("Read", { path: "a.txt" })).details).toMatchObject({ reusedExisting: true });
    const second = createTestWorkspace({}, { dir: ws.dir });
    expect((await second.call("Read", { path: "a.txt" })).details).toMatchObject({ reusedExisting: false });
  });

  it("reads granted roots and refuses writes to read-only roots", async () => {
    const rootDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-root-")));
    extra.push(rootDir);
    mkdirSync(path.join(rootDir, "sub"));
    writeFileSync(path.join(rootDir, "sub", "notes.md"), "TODO in root\n");
    ws = createTestWorkspace({ "a.txt": "x" }, { additionalRoots: [{ alias: "docs", path: rootDir, access: "read" }] });
    const read = await ws.call("Read", { path: "root://docs/sub/notes.md" });
    expect(read.text).toContain("Read: root://docs/sub/notes.md");
    const grep = await ws.call("Grep", { pattern: "todo", path: "root://docs" });
    expect(grep.text).toContain("root://docs/sub/notes.md:1: TODO in root");
    const glob = await ws.call("Glob", { pattern: "**/*.md", path: "root://docs" });
    expect(glob.text).toContain("root://docs/sub/notes.md");
    const list = await ws.call("List", { path: "root://docs" });
    expect(list.text).toContain("[DIR] root://docs/sub");
    for (const [name, args] of [
      ["Write", { path: "root://docs/new.md", content: "x" }],
      ["Edit", { path: "root://docs/sub/notes.md", old_string: "TODO", new_string: "DONE" }],
      ["Delete", { path: "root://docs/sub/notes.md" }],
    ] as const) {
      const result = await ws.call(name, args);
      expect(result.isError, name).toBe(true);
      expect(result.details).toMatchObject({ code: "permission_denied" });
      expect(result.text).toContain("Read-only roots support Read/List/Glob/Grep/Image but not Write/Edit/Delete");
    }
  });

  it("writes into write roots", async () => {
    const rootDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-root-")));
    extra.push(rootDir);
    ws = createTestWorkspace({}, { additionalRoots: [{ alias: "out", path: rootDir, access: "write" }] });
    const result = await ws.call("Write", { path: "root://out/made.txt", content: "ok\n" });
    expect(result.text).toBe("File created successfully at: root://out/made.txt");
  });

  it("cancels a running search when the signal aborts", async () => {
    ws = createTestWorkspace();
    for (let index = 0; index < 400; index += 1) ws.write(`many/dir${index % 20}/file${index}.txt`, "content line\n".repeat(200));
    for (const ripgrepPath of [undefined, false as const]) {
      const local = createTestWorkspace({}, { dir: ws.dir, ripgrepPath });
      const controller = new AbortController();
      const running = local.call("Grep", { pattern: "content" }, { signal: controller.signal });
      controller.abort();
      const result = await running;
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ cancelled: true });
    }
    const controller = new AbortController();
    controller.abort();
    const before = await ws.call("Write", { path: "never.txt", content: "x" }, { signal: controller.signal });
    expect(before.details).toMatchObject({ cancelled: true });
  });
});

describe("search caches", () => {
  it("are per registry, survive across calls and are dropped by registry.close()", async () => {
    ws = createTestWorkspace(
      { ".gitignore": "*.log\n/build/\n", "src/a.ts": "TODO a\n", "src/b.log": "TODO b\n", "build/c.ts": "TODO c\n" },
      { ripgrepPath: false },
    );
    const second = createTestWorkspace({}, { dir: ws.dir, ripgrepPath: false });
    try {
      expect(ws.searchCaches.isEmpty).toBe(true);
      expect((await ws.call("Glob", { pattern: "**/*" })).text).toContain("src/a.ts");
      const compiled = ws.searchCaches.ignoreFiles.get("*.log\n/build/\n");
      expect(compiled).toBeDefined();
      expect(ws.searchCaches.cachedVerdicts).toBeGreaterThan(0);
      // The other registry has seen nothing.
      expect(second.searchCaches.isEmpty).toBe(true);

      // A second call of the same registry reuses the compiled file; Grep keeps its text buffer.
      const grep = await ws.call("Grep", { pattern: "todo" });
      expect(grep.text).toContain("src/a.ts:1: TODO a");
      expect(grep.text).not.toContain("b.log");
      expect(grep.text).not.toContain("build/");
      expect(ws.searchCaches.ignoreFiles.get("*.log\n/build/\n")).toBe(compiled);
      expect(ws.searchCaches.spare).toBeDefined();

      // The other registry compiles its own.
      expect((await second.call("List", { path: "." })).text).not.toContain("b.log");
      const own = second.searchCaches.ignoreFiles.get("*.log\n/build/\n");
      expect(own).toBeDefined();
      expect(own).not.toBe(compiled);

      await ws.registry.close();
      expect(ws.searchCaches.isEmpty).toBe(true);
      expect(ws.searchCaches.isClosed).toBe(true);
      expect(second.searchCaches.isEmpty).toBe(false);
      expect(second.searchCaches.ignoreFiles.get("*.log\n/build/\n")).toBe(own);
    } finally {
      second.cleanup();
    }
  });
});
