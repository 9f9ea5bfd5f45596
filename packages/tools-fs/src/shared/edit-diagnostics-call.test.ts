import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolPlugin, type ToolRegistry, composeToolRegistry } from "@agent-tools/core";
import { type DiagnosticsFileChange, EDIT_DIAGNOSTICS_SLOT, type EditDiagnostics, type EditDiagnosticsReport } from "@agent-tools/core/diagnostics";
import { afterEach, describe, expect, it } from "vitest";
import { fsTools } from "../fs-tools-plugin.js";

/** A hand-written provider (a test double of the diagnostics port) that records what it saw of the disk at each step. */
function recordingProvider(dir: string, report: (changes: readonly DiagnosticsFileChange[]) => EditDiagnosticsReport | undefined) {
  const events: string[] = [];
  const snapshot = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "<missing>");
  const provider: EditDiagnostics = {
    async before(paths) {
      events.push(`before ${paths.map((p) => `${path.relative(dir, p)}=${snapshot(p)}`).join(",")}`);
      return { paths };
    },
    async after(baseline, changes) {
      events.push(`after ${changes.map((c) => `${c.displayPath}:${c.change}=${snapshot(c.path)}`).join(",")} (baseline ${baseline.paths.length})`);
      return report(changes);
    },
  };
  return { provider, events };
}

function providerPlugin(provider: EditDiagnostics): ToolPlugin {
  return {
    id: "diagnostics-double",
    scopes: ["chat", "cron"],
    child: "omit",
    create: (host) => {
      host.contribute(EDIT_DIAGNOSTICS_SLOT, provider);
      return [];
    },
  };
}

const NEW_PROBLEM: EditDiagnosticsReport = {
  text: "New problems:\na.ts:1:7 error TS2322: Type 'string' is not assignable to type 'number'.",
  details: {
    status: "new_problems",
    introduced: [{ path: "a.ts", line: 1, character: 7, severity: "error", message: "Type 'string' is not assignable to type 'number'.", code: 2322 }],
    resolvedCount: 0,
    waitedMs: 3,
  },
};

let dir: string;
let registry: ToolRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function setup(provider?: EditDiagnostics) {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "fs-diagnostics-")));
  writeFileSync(path.join(dir, "a.ts"), "const a: number = 1;\n");
  registry = await composeToolRegistry({
    workdir: dir,
    dataDir: path.join(dir, ".data"),
    plugins: [fsTools(), ...(provider ? [providerPlugin(provider)] : [])],
  });
  return registry;
}

const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((part) => part.text ?? "").join("");

describe("diagnostics after a change", () => {
  it("Edit: before sees the old file, after the new one; the report's text follows a blank line and its details sit under diagnostics", async () => {
    const { provider, events } = recordingProvider(realpathSync(os.tmpdir()), () => NEW_PROBLEM);
    const tools = await setup(provider);
    const result = await tools.executeToolCall({ id: "1", name: "Edit", arguments: { path: "a.ts", old_string: "= 1", new_string: '= "x"' } });
    expect(result.isError).toBe(false);
    expect(events).toEqual([
      `before ${path.relative(realpathSync(os.tmpdir()), path.join(dir, "a.ts"))}=const a: number = 1;\n`,
      'after a.ts:modified=const a: number = "x";\n (baseline 1)',
    ]);
    expect(text(result)).toBe(`Edit: a.ts\nreplacements=1\nreplaceAll=false\nautoRead=full\n\n${NEW_PROBLEM.text}`);
    expect(result.details).toMatchObject({ kind: "edit", diagnostics: NEW_PROBLEM.details });
  });

  it("Write, Delete and ApplyPatch report created, modified, deleted and a move as deleted + created", async () => {
    const seen: string[] = [];
    const { provider } = recordingProvider(os.tmpdir(), (changes) => {
      seen.push(changes.map((c) => `${c.displayPath}:${c.change}`).join(","));
      return { text: "", details: { status: "clean", introduced: [], resolvedCount: 0, waitedMs: 1 } };
    });
    const tools = await setup(provider);
    const write = await tools.executeToolCall({ id: "1", name: "Write", arguments: { path: "b.ts", content: "export const b = 1;\n" } });
    expect(text(write)).toBe("File created successfully at: b.ts");
    expect(write.details).toMatchObject({ diagnostics: { status: "clean" } });
    const patch = "*** Begin Patch\n*** Update File: b.ts\n*** Move to: c.ts\n@@\n-export const b = 1;\n+export const c = 1;\n*** End Patch";
    expect((await tools.executeToolCall({ id: "2", name: "ApplyPatch", arguments: { patch } })).isError).toBe(false);
    expect((await tools.executeToolCall({ id: "3", name: "Delete", arguments: { path: "c.ts" } })).isError).toBe(false);
    expect(seen).toEqual(["b.ts:created", "b.ts:deleted,c.ts:created", "c.ts:deleted"]);
  });

  it("NotebookEdit reports the notebook modified", async () => {
    const seen: string[] = [];
    const { provider } = recordingProvider(os.tmpdir(), (changes) => {
      seen.push(changes.map((c) => `${c.displayPath}:${c.change}`).join(","));
      return undefined;
    });
    const tools = await setup(provider);
    const notebook = {
      cells: [{ cell_type: "code", id: "c1", metadata: {}, source: ["x = 1"], outputs: [], execution_count: null }],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    writeFileSync(path.join(dir, "n.ipynb"), `${JSON.stringify(notebook, null, 1)}\n`);
    await tools.executeToolCall({ id: "0", name: "Read", arguments: { path: "n.ipynb" } });
    const result = await tools.executeToolCall({ id: "1", name: "NotebookEdit", arguments: { path: "n.ipynb", cell_id: "c1", new_source: "x = 2" } });
    expect(result.isError, text(result)).toBe(false);
    expect(seen).toEqual(["n.ipynb:modified"]);
    expect(result.details).not.toHaveProperty("diagnostics");
  });

  it("a failed change asks only before; a throwing provider leaves the result whole with status unavailable", async () => {
    let afterCalls = 0;
    const throwing: EditDiagnostics = {
      before: async (paths) => ({ paths }),
      after: async () => {
        afterCalls += 1;
        throw new Error("server crashed");
      },
    };
    const tools = await setup(throwing);
    const failed = await tools.executeToolCall({ id: "1", name: "Edit", arguments: { path: "a.ts", old_string: "nowhere", new_string: "x" } });
    expect(failed.isError).toBe(true);
    expect(afterCalls).toBe(0);
    const result = await tools.executeToolCall({ id: "2", name: "Edit", arguments: { path: "a.ts", old_string: "= 1", new_string: "= 2" } });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe("Edit: a.ts\nreplacements=1\nreplaceAll=false\nautoRead=full");
    expect(result.details).toMatchObject({ diagnostics: { status: "unavailable", introduced: [], reason: "server crashed" } });
    expect(readFileSync(path.join(dir, "a.ts"), "utf8")).toBe("const a: number = 2;\n");
  });

  it("a provider that throws in before still lets the change through", async () => {
    const tools = await setup({
      before: async () => {
        throw new Error("no baseline");
      },
      after: async () => NEW_PROBLEM,
    });
    const result = await tools.executeToolCall({ id: "1", name: "Write", arguments: { path: "n.ts", content: "x\n" } });
    expect(result.isError).toBe(false);
    expect(result.details).toMatchObject({ diagnostics: { status: "unavailable", reason: "no baseline" } });
  });

  it("a provider with nothing to say (after answers undefined) and no provider at all leave the output unchanged", async () => {
    const quiet = await setup({ before: async (paths) => ({ paths }), after: async () => undefined });
    const withQuiet = await quiet.executeToolCall({ id: "1", name: "Write", arguments: { path: "n.ts", content: "x\n" } });
    await registry?.close();
    registry = undefined;
    rmSync(dir, { recursive: true, force: true });
    const plain = await setup();
    const withNone = await plain.executeToolCall({ id: "1", name: "Write", arguments: { path: "n.ts", content: "x\n" } });
    expect(text(withQuiet)).toBe(text(withNone));
    expect(withQuiet.details).not.toHaveProperty("diagnostics");
    expect(withNone.details).not.toHaveProperty("diagnostics");
  });

  it("a call cancelled during before skips after", async () => {
    const controller = new AbortController();
    let afterCalls = 0;
    const tools = await setup({
      before: async (paths) => {
        controller.abort();
        return { paths };
      },
      after: async () => {
        afterCalls += 1;
        return NEW_PROBLEM;
      },
    });
    const result = await tools.executeToolCall({ id: "1", name: "Write", arguments: { path: "n.ts", content: "x\n" } }, { signal: controller.signal });
    expect(afterCalls).toBe(0);
    expect(text(result)).not.toContain("New problems");
    expect(result.details).not.toHaveProperty("diagnostics");
  });
});
