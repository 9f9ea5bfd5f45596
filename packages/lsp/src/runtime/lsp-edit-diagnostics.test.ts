import { mkdtemp, readFile, realpath, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { DiagnosticsFileChange } from "@agent-tools/core/diagnostics";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLanguageServerManager, type LanguageServerManager } from "./language-server-manager.js";
import { createLspEditDiagnostics } from "./lsp-edit-diagnostics.js";

const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const MAIN = 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\n';

describe("createLspEditDiagnostics (typescript-language-server, real)", () => {
  let root: string;
  let runner: ExecaProcessRunner;
  let manager: LanguageServerManager;
  const displayPath = (path: string) => relative(root, path);
  const change = (name: string, kind: DiagnosticsFileChange["change"] = "modified"): DiagnosticsFileChange => ({
    path: join(root, name),
    displayPath: name,
    change: kind,
  });

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "lsp-edit-diagnostics-")));
    await writeFile(
      join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" } }),
    );
    await writeFile(join(root, "math.ts"), MATH);
    await writeFile(join(root, "main.ts"), MAIN);
    runner = new ExecaProcessRunner();
    manager = createLanguageServerManager({ workspaceRoot: root, processes: runner, readFile: (path) => readFile(path) });
  });

  afterAll(async () => {
    await manager.close();
    await runner.close();
    await rm(root, { recursive: true, force: true });
  });

  it("a cold server and a zero budget: pending, with the LSP hint", async () => {
    const provider = createLspEditDiagnostics(manager, { budgetMs: 0, displayPath });
    const baseline = await provider.before([join(root, "main.ts")]);
    const report = await provider.after(baseline, [change("main.ts")]);
    expect(report?.details.status).toBe("pending");
    expect(report?.text).toBe("Diagnostics pending: the language server did not answer within 0.0 s; call LSP diagnostics on main.ts later.");
  });

  it("reports the error a change introduced, in the documented shape", async () => {
    const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath });
    await manager.diagnostics(join(root, "main.ts"), { waitMs: 30_000 });
    const baseline = await provider.before([join(root, "main.ts")]);
    await writeFile(join(root, "main.ts"), `${MAIN}export const broken: number = "text";\n`);
    const report = await provider.after(baseline, [change("main.ts")]);
    expect(report?.details.status).toBe("new_problems");
    expect(report?.text).toBe("New problems after this change (TypeScript):\n main.ts:4:14 error TS2322 Type 'string' is not assignable to type 'number'.");
    expect(report?.details.introduced).toEqual([
      {
        path: "main.ts",
        line: 4,
        character: 14,
        severity: "error",
        code: 2322,
        source: "typescript",
        message: "Type 'string' is not assignable to type 'number'.",
      },
    ]);
  });

  it("an existing error that only moved down is not new: clean, empty text", async () => {
    const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath });
    const baseline = await provider.before([join(root, "main.ts")]);
    await writeFile(join(root, "main.ts"), `// a comment\n${MAIN}export const broken: number = "text";\n`);
    const report = await provider.after(baseline, [change("main.ts")]);
    expect(report).toEqual({ text: "", details: expect.objectContaining({ status: "clean", introduced: [], resolvedCount: 0 }) });
  });

  it("a change that keeps a clean file clean: clean at once, not pending (an unchanged empty list is never republished)", async () => {
    await writeFile(join(root, "main.ts"), MAIN);
    const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath });
    const baseline = await provider.before([join(root, "main.ts")]);
    await writeFile(join(root, "main.ts"), `${MAIN}export const fine = 1;\n`);
    const report = await provider.after(baseline, [change("main.ts")]);
    expect(report?.details.status).toBe("clean");
    await writeFile(join(root, "main.ts"), `${MAIN}export const broken: number = "text";\n`);
    await manager.filesChanged([{ path: join(root, "main.ts"), change: "modified" }]);
  });

  it("fixing the error is clean and counts it resolved", async () => {
    const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath });
    const baseline = await provider.before([join(root, "main.ts")]);
    await writeFile(join(root, "main.ts"), MAIN);
    const report = await provider.after(baseline, [change("main.ts")]);
    expect(report?.details).toMatchObject({ status: "clean", resolvedCount: 1 });
  });

  it("dependents: changing a signature reports the new error in an open file that imports it", async () => {
    const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath });
    await manager.diagnostics(join(root, "main.ts"), { waitMs: 30_000 });
    const baseline = await provider.before([join(root, "math.ts")]);
    const threeArguments = MATH.replace("b: number)", "b: number, c = 0)").replace("a + b", "a + b + c").replace("c = 0", "c: number");
    await writeFile(join(root, "math.ts"), threeArguments);
    const report = await provider.after(baseline, [change("math.ts")]);
    expect(report?.details.status).toBe("new_problems");
    expect(report?.text).toBe("New problems after this change (TypeScript):\n main.ts:3:30 error TS2554 Expected 3 arguments, but got 2.");
    await writeFile(join(root, "math.ts"), MATH);
    await manager.filesChanged([{ path: join(root, "math.ts"), change: "modified" }]);
    await manager.diagnostics(join(root, "main.ts"), { waitMs: 30_000 });
    const without = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath, dependents: false });
    const again = await without.before([join(root, "math.ts")]);
    await writeFile(join(root, "math.ts"), threeArguments);
    expect((await without.after(again, [change("math.ts")]))?.details.status).toBe("clean");
    await writeFile(join(root, "math.ts"), MATH);
    await manager.filesChanged([{ path: join(root, "math.ts"), change: "modified" }]);
  });

  it("dependents: deleting an imported file reports the broken import", async () => {
    const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath });
    await manager.diagnostics(join(root, "main.ts"), { waitMs: 30_000 });
    const baseline = await provider.before([join(root, "math.ts")]);
    await unlink(join(root, "math.ts"));
    const report = await provider.after(baseline, [change("math.ts", "deleted")]);
    expect(report?.details.status).toBe("new_problems");
    expect(report?.text).toContain(" main.ts:1:21 error TS2307 Cannot find module './math'");
  });

  it("files no server handles: undefined (nothing to say)", async () => {
    const provider = createLspEditDiagnostics(manager, { displayPath });
    const baseline = await provider.before([join(root, "notes.txt")]);
    expect(await provider.after(baseline, [change("notes.txt", "created")])).toBeUndefined();
  });
});
