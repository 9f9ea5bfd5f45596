// Definition, references and workspace symbols through the language-server manager on a 3,000-file
// TypeScript project we did not write: aws-cdk-lib 2.278.0's declarations with constructs 10.5.1,
// fetched once from the npm registry (integrity checked) into a cache under os.tmpdir() keyed by the
// versions (bench/lsp/corpus.ts). The expected answers come from a text search over the files
// (bench/lsp/ground-truth.ts), never from a compiler or a server: a class declared once, imported by
// name into other files; definition asked at a use in an importing file must land on the class's
// declaration line; references of the declaration must hold every use the search found; workspace
// symbols for the name must list the declaration. Then the diagnostics-after-edit provider the file tools
// call: an edit renaming one use of a class to an undeclared name must be reported as a new problem, on
// a server that has just started (cold) and on a running one (warm), never as clean. The manager works
// on a copy of the cached corpus (the edits never touch the cache). Loading the project takes tsserver
// 15 to 40 s here.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Corpus, fetchCorpus, typeScriptFiles } from "../../bench/lsp/corpus.js";
import { type EditProbe, editProbes, isProbeError } from "../../bench/lsp/edit-probes.js";
import { type ClassGroundTruth, type SourcePlace, findClassGroundTruth } from "../../bench/lsp/ground-truth.js";
import { type LanguageServerManager, createLanguageServerManager } from "../../packages/lsp/src/runtime/language-server-manager.js";
import { createLspEditDiagnostics } from "../../packages/lsp/src/runtime/lsp-edit-diagnostics.js";

interface LspLocation {
  readonly uri: string;
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
}
interface LspLocationLink {
  readonly targetUri: string;
  readonly targetSelectionRange: { readonly start: { readonly line: number; readonly character: number } };
}
interface LspSymbol {
  readonly name: string;
  readonly location: { readonly uri: string; readonly range?: { readonly start: { readonly line: number } } };
}

const CACHE = path.join(os.tmpdir(), "agent-tools-lsp-corpus");
const TIMEOUT_MS = 150_000;

let corpus: Corpus;
let work: string;
let root: string;
let classes: ClassGroundTruth[];
let runner: ExecaProcessRunner;
let manager: LanguageServerManager;

function newManager(): LanguageServerManager {
  return createLanguageServerManager({ workspaceRoot: root, processes: runner, readFile: (file) => readFile(file), requestTimeoutMs: TIMEOUT_MS });
}

beforeAll(async () => {
  corpus = await fetchCorpus(CACHE);
  work = mkdtempSync(path.join(os.tmpdir(), "lsp-corpus-test-"));
  root = path.join(work, "project");
  cpSync(corpus.root, root, { recursive: true });
  classes = findClassGroundTruth(typeScriptFiles(root, false), 5);
  runner = new ExecaProcessRunner();
  manager = newManager();
}, 240_000);

afterAll(async () => {
  await manager?.close();
  await runner?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `relative/path.d.ts:line` (1-based) of an LSP position. */
function placeOf(uri: string, line0: number): string {
  const file = manager.pathOfUri(uri);
  return `${file ? path.relative(root, file) : uri}:${line0 + 1}`;
}

function expected(place: SourcePlace): string {
  return `${path.relative(root, place.file)}:${place.line}`;
}

/** Makes the probe's edit through the provider as the file tools do (before, write, after); the report's status and whether it holds the probe's error. */
async function editThroughProvider(target: LanguageServerManager, probe: EditProbe): Promise<{ status: string; reported: boolean; text: string }> {
  const provider = createLspEditDiagnostics(target, { budgetMs: TIMEOUT_MS - 30_000, displayPath: (file) => path.relative(root, file) });
  const original = await readFile(probe.file, "utf8");
  const baseline = await provider.before([probe.file]);
  await writeFile(probe.file, original.replace(probe.oldString, probe.newString));
  const report = await provider.after(baseline, [{ path: probe.file, displayPath: path.relative(root, probe.file), change: "modified" }]);
  return {
    status: report?.details.status ?? "none",
    reported: report?.details.introduced.some((item) => isProbeError(probe, item.message)) ?? false,
    text: report?.text ?? "",
  };
}

function locations(result: LspLocation | LspLocation[] | LspLocationLink[] | null): string[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((item) => ("targetUri" in item ? placeOf(item.targetUri, item.targetSelectionRange.start.line) : placeOf(item.uri, item.range.start.line)));
}

describe("LSP on the aws-cdk-lib corpus", () => {
  it("is the project the issue asks for: over 3,000 TypeScript files of a real package, 5 classes chosen by the rule", () => {
    expect(corpus.manifest.packages.map((item) => `${item.name}@${item.version}`)).toEqual(["aws-cdk-lib@2.278.0", "constructs@10.5.1"]);
    expect(corpus.manifest.typeScriptFiles).toBeGreaterThanOrEqual(3000);
    expect(corpus.manifest.projectFiles).toBeGreaterThan(2900);
    expect(classes).toHaveLength(5);
    for (const item of classes) expect(item.importers.length).toBeGreaterThanOrEqual(2);
  });

  it(
    "definition at a use in another file lands on the class's declaration line",
    async () => {
      for (const item of classes) {
        const result = await manager.request<LspLocation[] | LspLocationLink[] | null>(item.usage.file, "textDocument/definition", ({ uri }) => ({
          textDocument: { uri },
          position: { line: item.usage.line - 1, character: item.usage.character - 1 },
        }));
        expect(locations(result), `${item.name} used at ${expected(item.usage)}`).toEqual([expected(item.declaration)]);
      }
    },
    TIMEOUT_MS,
  );

  it(
    "references of the declaration hold every use the text search found",
    async () => {
      for (const item of classes) {
        const result = await manager.request<LspLocation[] | null>(item.declaration.file, "textDocument/references", ({ uri }) => ({
          textDocument: { uri },
          position: { line: item.declaration.line - 1, character: item.declaration.character - 1 },
          context: { includeDeclaration: true },
        }));
        const found = new Set(locations(result));
        expect(found.has(expected(item.declaration)), `${item.name}'s declaration among its references`).toBe(true);
        const missing = item.references.map(expected).filter((place) => !found.has(place));
        expect(missing, `${item.name}: uses the text search found that references left out`).toEqual([]);
      }
    },
    TIMEOUT_MS,
  );

  it(
    "workspace symbols for a class name list its declaration",
    async () => {
      for (const item of classes) {
        const answers = await manager.requestAll<LspSymbol[] | null>("workspace/symbol", { query: item.name }, { startFor: [item.declaration.file] });
        const places = answers
          .flatMap((answer) => answer.result ?? [])
          .filter((symbol) => symbol.name === item.name)
          .map((symbol) => placeOf(symbol.location.uri, symbol.location.range?.start.line ?? -1));
        expect(places, `workspace symbols for ${item.name}`).toContain(expected(item.declaration));
      }
    },
    TIMEOUT_MS,
  );

  it(
    "an edit that introduces an error is reported by the diagnostics-after-edit provider, cold and warm",
    async () => {
      const probes = editProbes(classes);
      const cold = probes[0] as EditProbe;
      const warm = probes.find((probe) => probe.file !== cold.file) as EditProbe;
      // Cold: a manager with no server running; the provider starts it and waits for the project within its budget.
      const fresh = newManager();
      try {
        const first = await editThroughProvider(fresh, cold);
        expect(first, `cold edit of ${path.relative(root, cold.file)}:${cold.line}`).toMatchObject({ status: "new_problems", reported: true });
        expect(first.text).toContain(cold.missingName);
        const second = await editThroughProvider(fresh, warm);
        expect(second, `warm edit of ${path.relative(root, warm.file)}:${warm.line}`).toMatchObject({ status: "new_problems", reported: true });
      } finally {
        await fresh.close();
      }
    },
    TIMEOUT_MS,
  );
});
