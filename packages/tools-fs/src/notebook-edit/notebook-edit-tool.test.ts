/**
 * NotebookEdit through a registry, on the local disk and on the memory
 * workspace: read-before-write and stale refusals, the committed bytes,
 * outputs cleared, chained edits, the path policy on a symlink leading out.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolRegistry, toolResultText } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { afterEach, describe, expect, it } from "vitest";
import type { BehaviourHarness } from "../__fixtures__/workspace-behaviour-cases.js";
import { createFsToolBundle } from "../index.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__");
const TEST45 = readFileSync(path.join(FIXTURES, "nbformat-test4.5.ipynb"));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function localHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-notebook-")));
  const root = path.join(base, "root");
  mkdirSync(root);
  const put = async (relative: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  };
  for (const [relative, content] of Object.entries(files)) await put(relative, content);
  const registry = createToolRegistry({ workdir: root, dataDir: path.join(base, "data"), bundles: [createFsToolBundle()], loopBreaker: false });
  const harness: BehaviourHarness = {
    registry,
    root,
    write: put,
    read: async (relative) => readFileSync(path.join(root, relative)),
    symlink: async (target, relative) => symlinkSync(target, path.join(root, relative)),
    close: async () => {
      await registry.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
  cleanups.push(harness.close);
  return harness;
}

async function memoryHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const root = "/srv/notebooks/root";
  const workspace = createMemoryWorkspace({ root, files });
  const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-notebook-data-"));
  const registry = createToolRegistry({ workdir: root, dataDir: data, ports: { workspace }, bundles: [createFsToolBundle()], loopBreaker: false });
  const harness: BehaviourHarness = {
    registry,
    root,
    write: (relative, content) => workspace.fs.writeFileAtomic(`${root}/${relative}`, Buffer.from(content)),
    read: (relative) => workspace.fs.readFile(`${root}/${relative}`),
    symlink: (target, relative) => workspace.symlink(target, `${root}/${relative}`),
    close: async () => {
      await registry.close();
      await workspace.close();
      rmSync(data, { recursive: true, force: true });
    },
  };
  cleanups.push(harness.close);
  return harness;
}

let counter = 0;
async function call(harness: BehaviourHarness, name: string, args: Record<string, unknown>) {
  const result = await harness.registry.executeToolCall({ id: `nb_${++counter}`, name, arguments: args });
  return { ...result, text: toolResultText(result, "") };
}

type Notebook = { cells: Array<Record<string, unknown>> };
const parse = (bytes: Buffer | undefined) => JSON.parse(bytes!.toString("utf8")) as Notebook;

describe.each([
  ["the local disk", localHarness],
  ["the memory workspace", memoryHarness],
])("NotebookEdit on %s", (_name, makeHarness) => {
  it("refuses a notebook not read yet, edits it after Read, and shows the ids Read gave", async () => {
    const harness = await makeHarness({ "nb.ipynb": TEST45 });
    const ids = parse(TEST45).cells.map((cell) => cell.id as string);
    const unread = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_index: 1, new_source: "# x" });
    expect(unread.isError).toBe(true);
    expect(unread.error?.code).toBe("requires_full_read");
    expect(await harness.read("nb.ipynb")).toEqual(TEST45);
    const read = await call(harness, "Read", { path: "nb.ipynb", cell_limit: 2 });
    expect(read.text).toContain(`Cell 1 [markdown] id=${ids[0]}\n# nbconvert latex test`);
    const edited = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_id: ids[0], new_source: "# Title" });
    expect(edited.isError, edited.text).toBe(false);
    expect(edited.text).toBe(`NotebookEdit: nb.ipynb\nreplaced cell 1 [markdown] id=${ids[0]}\ncells=${ids.length}`);
    expect(edited.details).toMatchObject({ kind: "notebook_edit", editMode: "replace", cellNumber: 1, cellId: ids[0], totalCells: ids.length });
    const after = await harness.read("nb.ipynb");
    expect(parse(after).cells[0]!.source).toEqual(["# Title"]);
    // Only the first cell's bytes changed.
    const start = TEST45.indexOf('"# nbconvert latex test"');
    expect(after!.subarray(0, start).equals(TEST45.subarray(0, start))).toBe(true);
    const end = start + '"# nbconvert latex test"'.length;
    expect(after!.subarray(after!.length - (TEST45.length - end)).equals(TEST45.subarray(end))).toBe(true);
  });

  it("clears an edited code cell's outputs; chained edits need no new Read; insert and delete renumber", async () => {
    const harness = await makeHarness({ "nb.ipynb": TEST45 });
    const cells = parse(TEST45).cells;
    const code = cells.findIndex((cell) => cell.cell_type === "code" && (cell.outputs as unknown[]).length > 0);
    await call(harness, "Read", { path: "nb.ipynb" });
    const replaced = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_index: code + 1, new_source: "print(2)" });
    expect(replaced.text).toContain("outputs and execution_count cleared");
    expect(parse(await harness.read("nb.ipynb")).cells[code]).toMatchObject({ outputs: [], execution_count: null, source: ["print(2)"] });
    const inserted = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_index: 0, edit_mode: "insert", cell_type: "markdown", new_source: "intro" });
    expect(inserted.isError, inserted.text).toBe(false);
    expect(inserted.text).toContain(`the ${cells.length} cells after it are renumbered`);
    const newId = (inserted.details as { cellId: string }).cellId;
    expect(newId).toMatch(/^[0-9a-f]{8}$/);
    const deleted = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_id: newId, edit_mode: "delete", new_source: "" });
    expect(deleted.isError, deleted.text).toBe(false);
    const final = parse(await harness.read("nb.ipynb"));
    expect(final.cells).toHaveLength(cells.length);
    expect(final.cells.filter((_, index) => index !== code)).toEqual(cells.filter((_, index) => index !== code));
  });

  it("refuses a notebook changed on disk since the Read (stale_file), writing nothing", async () => {
    const harness = await makeHarness({ "nb.ipynb": TEST45 });
    await call(harness, "Read", { path: "nb.ipynb" });
    const changed = Buffer.from(TEST45.toString("utf8").replace("nbconvert latex test", "changed by someone"));
    await harness.write("nb.ipynb", changed);
    const stale = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_index: 1, new_source: "# x" });
    expect(stale.error?.code).toBe("stale_file");
    expect(await harness.read("nb.ipynb")).toEqual(changed);
  });

  it("refuses what is not a notebook: another extension, invalid JSON, an unknown id", async () => {
    const harness = await makeHarness({ "nb.ipynb": TEST45, "data.json": TEST45, "bad.ipynb": "{ not json" });
    expect((await call(harness, "NotebookEdit", { path: "data.json", cell_index: 1, new_source: "" })).error?.code).toBe("unsupported_target");
    await call(harness, "Read", { path: "bad.ipynb" });
    const bad = await call(harness, "NotebookEdit", { path: "bad.ipynb", cell_index: 1, new_source: "" });
    expect(bad.error?.code).toBe("requires_full_read"); // Read refused it too, so it was never read
    await call(harness, "Read", { path: "nb.ipynb" });
    const missing = await call(harness, "NotebookEdit", { path: "nb.ipynb", cell_id: "nope", new_source: "" });
    expect(missing.error?.code).toBe("not_found");
    expect(missing.text).toContain("Cell ids: 1=");
    expect(await harness.read("nb.ipynb")).toEqual(TEST45);
  });

  it("refuses a notebook symlinked from outside the workspace", async () => {
    const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-notebook-outside-")));
    cleanups.push(async () => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(path.join(outside, "secret.ipynb"), TEST45);
    const harness = await makeHarness({ "nb.ipynb": TEST45 });
    await harness.symlink(path.join(outside, "secret.ipynb"), "link.ipynb");
    const refused = await call(harness, "NotebookEdit", { path: "link.ipynb", cell_index: 1, new_source: "# pwned" });
    expect(refused.isError).toBe(true);
    expect(refused.error?.code, refused.text).toBe("out_of_bounds");
    expect(readFileSync(path.join(outside, "secret.ipynb"))).toEqual(TEST45);
  });
});
