import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ToolRegistry, composeToolRegistry } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspTools } from "./lsp-tools-plugin.js";

const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((part) => part.text ?? "").join("");

describe("the LSP tool on a real TypeScript project", () => {
  let root: string;
  let registry: ToolRegistry;
  const runners: ExecaProcessRunner[] = [];

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "lsp-tool-")));
    await writeFile(
      join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["**/*.ts"] }),
    );
    // "é" and the emoji before `add` make UTF-16 columns differ from the characters the model counts.
    await writeFile(
      join(root, "math.ts"),
      'export const café = "☕"; export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Box {\n  value = 1;\n  get(): number {\n    return add(this.value, 1);\n  }\n}\n',
    );
    await writeFile(
      join(root, "main.ts"),
      'import { add } from "./math";\n\nexport const total: number = add(1, 2);\nexport const broken: string = add(total, 3);\n',
    );
    await mkdir(join(root, "generated"));
    await writeFile(join(root, "generated", "gen.ts"), 'import { add } from "../math";\nexport const g = add(4, 5);\n');
    await writeFile(join(root, ".gitignore"), "generated/\n");
    execFileSync("git", ["init", "-q"], { cwd: root });
    registry = await composeToolRegistry({
      workdir: root,
      dataDir: join(root, ".data"),
      plugins: [lspTools({ maxResults: 2 })],
      ports: () => {
        const runner = new ExecaProcessRunner();
        runners.push(runner);
        return { processRunner: runner };
      },
    });
  }, 60_000);

  afterAll(async () => {
    await registry?.close();
    for (const runner of runners) await runner.close();
    await rm(root, { recursive: true, force: true });
  });

  it("definition: 1-based line/character as the model counts them, answered as path:line:character: text", async () => {
    // main.ts line 3: `export const total: number = add(1, 2);` — `add` starts at character 30.
    const result = await registry.executeToolCall({ id: "1", name: "LSP", arguments: { action: "definition", path: "main.ts", line: 3, character: 30 } });
    expect(result.isError, text(result)).toBe(false);
    // In math.ts `add` follows "☕" (two UTF-16 units, one character): character 42 as the model counts, 0-based UTF-16 column 42 for the server.
    expect(text(result)).toContain("math.ts:1:42: export const café");
    expect(result.details).toMatchObject({
      kind: "lsp",
      action: "definition",
      path: "main.ts",
      serverId: "typescript",
      locations: [{ path: "math.ts", line: 1, character: 42 }],
    });
  }, 60_000);

  it("references: capped at maxResults with the rest counted, gitignored files left out and counted", async () => {
    const result = await registry.executeToolCall({ id: "2", name: "LSP", arguments: { action: "references", path: "math.ts", line: 1, character: 42 } });
    expect(result.isError, text(result)).toBe(false);
    const answer = text(result);
    expect(answer).toMatch(/more not shown \(at most 2 per answer\)/);
    expect(answer).toContain("2 results in gitignored files left out.");
    expect(answer).not.toContain("generated/gen.ts");
    expect(result.details).toMatchObject({ leftOut: { ignored: 2, overLimit: 3 } });
  }, 60_000);

  it("hover, document_symbols and diagnostics", async () => {
    const hover = await registry.executeToolCall({ id: "3", name: "LSP", arguments: { action: "hover", path: "main.ts", line: 3, character: 30 } });
    expect(text(hover)).toContain("add(a: number, b: number): number");
    const symbols = await registry.executeToolCall({ id: "4", name: "LSP", arguments: { action: "document_symbols", path: "math.ts" } });
    expect(text(symbols)).toContain("function add (lines 1-3)");
    expect(result2lines(text(symbols))).toContain("3 more symbols not shown (at most 2 per answer).");
    const problems = await registry.executeToolCall({ id: "5", name: "LSP", arguments: { action: "diagnostics", path: "main.ts" } });
    expect(text(problems)).toMatch(/main\.ts:4:14: error TS2322: Type 'number' is not assignable to type 'string'/);
  }, 60_000);

  it("call_hierarchy lists the callers of add", async () => {
    const result = await registry.executeToolCall({ id: "6", name: "LSP", arguments: { action: "call_hierarchy", path: "math.ts", line: 1, character: 42 } });
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).toMatch(/Incoming calls of function add/);
    expect(text(result)).toMatch(/math\.ts:8:\d+: method get/);
  }, 60_000);

  it("errors: a file no server handles names the configured extensions; missing fields are invalid_arguments", async () => {
    await writeFile(join(root, "notes.md"), "# notes\n");
    const unknown = await registry.executeToolCall({ id: "7", name: "LSP", arguments: { action: "document_symbols", path: "notes.md" } });
    expect(unknown.isError).toBe(true);
    expect(unknown.error?.code).toBe("unsupported_target");
    expect(text(unknown)).toContain(".ts, .mts");
    expect(text(unknown)).toContain(".py");
    const noQuery = await registry.executeToolCall({ id: "8", name: "LSP", arguments: { action: "workspace_symbols" } });
    expect(noQuery.error?.code).toBe("invalid_arguments");
    const noPosition = await registry.executeToolCall({ id: "9", name: "LSP", arguments: { action: "definition", path: "main.ts" } });
    expect(text(noPosition)).toContain("needs line and character");
  }, 60_000);

  it("workspace_symbols finds the class", async () => {
    const result = await registry.executeToolCall({ id: "11", name: "LSP", arguments: { action: "workspace_symbols", query: "Box", path: "math.ts" } });
    expect(text(result)).toMatch(/math\.ts:5:\d+: class Box/);
  }, 60_000);
});

function result2lines(value: string): string[] {
  return value.split("\n");
}

describe("lspTools on a workspace without processes", () => {
  it("answers unavailable saying why; unknown options are rejected", async () => {
    const workspace = createMemoryWorkspace({ files: { "src/a.ts": "export const a = 1;\n" } });
    const registry = await composeToolRegistry({
      workdir: workspace.root,
      dataDir: join(tmpdir(), `lsp-memory-${process.pid}`),
      plugins: [lspTools()],
      ports: () => ({ workspace, processRunner: new ExecaProcessRunner() }),
    });
    try {
      const result = await registry.executeToolCall({ id: "1", name: "LSP", arguments: { action: "document_symbols", path: "src/a.ts" } });
      expect(result.error?.code).toBe("unavailable");
      expect(text(result)).toContain("runs no processes");
    } finally {
      await registry.close();
    }
    expect(() => lspTools({ maxResult: 3 } as never)).toThrow(/lspTools options\.maxResult: did you mean lspTools options\.maxResults\?/);
    expect(() => lspTools({ diagnosticsAfterEdits: "yes" } as never)).toThrow(/diagnosticsAfterEdits must be true, false or/);
  });
});

describe("a language server that fails to start", () => {
  it("answers unavailable with the tail of the server's stderr, and a file no server handles names the configured extensions", async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "lsp-broken-")));
    await writeFile(join(root, "a.broken"), "x\n");
    const runner = new ExecaProcessRunner();
    const broken = {
      id: "broken",
      extensions: [".broken"],
      languageId: () => "broken",
      command: process.execPath,
      args: ["-e", 'process.stderr.write("fatal: cannot load the project config\\n"); process.exit(3)'],
    };
    const registry = await composeToolRegistry({
      workdir: root,
      dataDir: join(root, ".data"),
      plugins: [lspTools({ servers: [broken] })],
      ports: () => ({ processRunner: runner }),
    });
    try {
      const result = await registry.executeToolCall({ id: "1", name: "LSP", arguments: { action: "document_symbols", path: "a.broken" } });
      expect(result.error?.code).toBe("unavailable");
      expect(text(result)).toContain("the broken language server failed");
      expect(text(result)).toContain("fatal: cannot load the project config");
      const other = await registry.executeToolCall({ id: "2", name: "LSP", arguments: { action: "document_symbols", path: "a.ts" } });
      expect(text(other)).toContain("Configured extensions: .broken.");
    } finally {
      await registry.close();
      await runner.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
