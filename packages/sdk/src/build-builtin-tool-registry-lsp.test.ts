/**
 * The done-when of the LSP work, end to end through the SDK: real
 * typescript-language-server and pyright, started by the registry; an Edit
 * that introduces a type error reports it; definition and references; a
 * killed server restarts on the next call; Read deny rules judge LSP;
 * closing the registry leaves no server process.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, type ToolRegistry, toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-lsp-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function project(files: Record<string, string>) {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  const workdir = path.join(base, "project");
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workdir, name)), { recursive: true });
    fs.writeFileSync(path.join(workdir, name), content);
  }
  return { workdir, dataDir: path.join(base, "data"), memory: false as const };
}

/** Live (non-zombie) processes whose command line mentions `needle` and whose cwd is `cwd`. */
function serverPids(needle: string, cwd: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue;
      if (cmdline.includes(needle) && fs.readlinkSync(`/proc/${entry}/cwd`) === cwd) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** The command lines of a process's ancestors, nearest first. */
function ancestors(pid: number): string[] {
  const out: string[] = [];
  for (let current = pid; current > 1; ) {
    try {
      const stat = fs.readFileSync(`/proc/${current}/stat`, "utf8");
      current = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push(fs.readFileSync(`/proc/${current}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      break;
    }
  }
  return out;
}

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["**/*.ts"] });
const BUDGET = { diagnosticsAfterEdits: { budgetMs: 20_000 } };

describe("buildBuiltinToolRegistry: lsp", () => {
  it("is off by default; wrong option keys and values throw naming them", async () => {
    const registry = await buildBuiltinToolRegistry(project({ "a.ts": "export const a = 1;\n" }));
    expect(registry.hasTool("LSP")).toBe(false);
    await registry.close();
    await expect(buildBuiltinToolRegistry({ ...project({}), lsp: { maxResult: 5 } as never })).rejects.toThrow(/lsp\.maxResult.*lsp\.maxResults/);
    await expect(buildBuiltinToolRegistry({ ...project({}), lsp: "on" as never })).rejects.toThrow(SdkError);
    await expect(buildBuiltinToolRegistry({ ...project({}), lsp: { maxResults: 0 } })).rejects.toThrow(/lsp\.maxResults must be a positive integer/);
    await expect(buildBuiltinToolRegistry({ ...project({}), lsp: { diagnosticsAfterEdits: { budget: 1 } } as never })).rejects.toThrow(
      /lsp\.diagnosticsAfterEdits\.budget.*budgetMs/,
    );
  });

  it("TypeScript: an Edit introducing a type error reports it; definition and references; a killed server restarts; close leaves no server", async () => {
    const options = project({
      "tsconfig.json": TSCONFIG,
      "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
      "src/main.ts": 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\n',
    });
    const registry: ToolRegistry = await buildBuiltinToolRegistry({ ...options, lsp: BUDGET });
    try {
      expect(registry.metadataByName.LSP).toMatchObject({ groupId: "lsp", kind: "search", isReadOnly: true });
      // Warm: the first request loads the project.
      const warm = await registry.executeToolCall({ id: "0", name: "LSP", arguments: { action: "document_symbols", path: "src/main.ts" } });
      expect(toolResultText(warm)).toBe("Symbols of src/main.ts:\nconstant total (line 3)");

      await registry.executeToolCall({ id: "1", name: "Read", arguments: { path: "src/main.ts" } });
      const edit = await registry.executeToolCall({
        id: "2",
        name: "Edit",
        arguments: { path: "src/main.ts", old_string: "export const total: number = add(1, 2);", new_string: "export const total: string = add(1, 2);" },
      });
      expect(edit.isError, toolResultText(edit)).toBe(false);
      const text = toolResultText(edit);
      expect(text).toMatch(/^Edit: src\/main\.ts\nreplacements=1\nreplaceAll=false\n\n/);
      expect(text).toMatch(/src\/main\.ts:3:14 error TS2322/);
      expect(edit.details).toMatchObject({
        diagnostics: { status: "new_problems", introduced: [{ path: "src/main.ts", line: 3, character: 14, severity: "error", code: 2322 }] },
      });

      const definition = await registry.executeToolCall({
        id: "3",
        name: "LSP",
        arguments: { action: "definition", path: "src/main.ts", line: 3, character: 30 },
      });
      expect(toolResultText(definition)).toContain("src/math.ts:1:17: export function add(a: number, b: number): number {");
      const references = await registry.executeToolCall({
        id: "4",
        name: "LSP",
        arguments: { action: "references", path: "src/math.ts", line: 1, character: 17 },
      });
      expect(toolResultText(references)).toMatch(/^3 reference\(s\) of the symbol at src\/math\.ts:1:17:/);
      expect(toolResultText(references)).toContain("src/main.ts:3:30: export const total: string = add(1, 2);");

      const before = serverPids("typescript-language-server", options.workdir);
      expect(before.length).toBeGreaterThan(0);
      for (const pid of before) process.kill(pid, "SIGKILL");
      const again = await registry.executeToolCall({ id: "5", name: "LSP", arguments: { action: "definition", path: "src/main.ts", line: 3, character: 30 } });
      expect(again.isError, toolResultText(again)).toBe(false);
      expect(toolResultText(again)).toContain("src/math.ts:1:17:");
      const restarted = serverPids("typescript-language-server", options.workdir);
      expect(restarted.length).toBeGreaterThan(0);
      expect(restarted.some((pid) => before.includes(pid))).toBe(false);
    } finally {
      await registry.close();
    }
    expect(serverPids("typescript-language-server", options.workdir)).toEqual([]);
    expect(serverPids("tsserver", options.workdir)).toEqual([]);
  }, 120_000);

  it("Python: a Write introducing a type error reports it (pyright)", async () => {
    const options = project({ "app.py": "def double(x: int) -> int:\n    return x * 2\n\nvalue: int = double(2)\n" });
    const registry = await buildBuiltinToolRegistry({ ...options, lsp: BUDGET });
    try {
      const warm = await registry.executeToolCall({ id: "0", name: "LSP", arguments: { action: "document_symbols", path: "app.py" } });
      expect(toolResultText(warm)).toContain("function double (lines 1-2)");
      await registry.executeToolCall({ id: "1", name: "Read", arguments: { path: "app.py" } });
      const write = await registry.executeToolCall({
        id: "2",
        name: "Write",
        arguments: { path: "app.py", content: "def double(x: int) -> int:\n    return x * 2\n\nvalue: str = double(2)\n" },
      });
      expect(write.isError, toolResultText(write)).toBe(false);
      expect(toolResultText(write)).toMatch(/app\.py:4:14 error/);
      expect(write.details).toMatchObject({ diagnostics: { status: "new_problems", introduced: [{ path: "app.py", line: 4, severity: "error" }] } });
    } finally {
      await registry.close();
    }
    expect(serverPids("langserver", options.workdir)).toEqual([]);
  }, 120_000);

  it("with the command sandbox on, the servers run confined (under bubblewrap) and still answer", async () => {
    const options = project({
      "tsconfig.json": TSCONFIG,
      "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
      "src/main.ts": 'import { add } from "./math";\nexport const total = add(1, 2);\n',
    });
    const registry = await buildBuiltinToolRegistry({ ...options, lsp: true, sandbox: { enabled: true } });
    try {
      const definition = await registry.executeToolCall({
        id: "1",
        name: "LSP",
        arguments: { action: "definition", path: "src/main.ts", line: 2, character: 22 },
      });
      expect(definition.isError, toolResultText(definition)).toBe(false);
      expect(toolResultText(definition)).toContain("src/math.ts:1:17:");
      const pids = serverPids("typescript-language-server", options.workdir);
      expect(pids.length).toBeGreaterThan(0);
      // Confined: bubblewrap is among the server's ancestors.
      expect(pids.some((pid) => ancestors(pid).some((cmdline) => cmdline.includes("bwrap")))).toBe(true);
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("Read deny rules: LSP on a denied file is refused; the server never reads denied files, so finds no result in them", async () => {
    const options = project({
      "tsconfig.json": TSCONFIG,
      "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
      "secret/use.ts": 'import { add } from "../src/math";\nexport const s = add(1, 2);\n',
    });
    const registry = await buildBuiltinToolRegistry({ ...options, lsp: { diagnosticsAfterEdits: false }, permissions: { deny: ["Read(secret/**)"] } });
    try {
      const denied = await registry.executeToolCall({ id: "1", name: "LSP", arguments: { action: "document_symbols", path: "secret/use.ts" } });
      expect(denied.error?.code).toBe("permission_denied");
      const references = await registry.executeToolCall({
        id: "2",
        name: "LSP",
        arguments: { action: "references", path: "src/math.ts", line: 1, character: 17 },
      });
      const text = toolResultText(references);
      // The server cannot read the denied files at all (its fs guard shows them absent), so it finds no
      // reference there; the tool's screening of locations stays as the second line.
      expect(text).not.toContain("secret/");
      expect(text).toContain("1 reference(s)");
      expect(references.details).toMatchObject({ leftOut: { denied: 0 } });
    } finally {
      await registry.close();
    }
  }, 120_000);
});
