// The LSP tool and diagnostics after edits through a real registry (`buildBuiltinToolRegistry({ lsp })`)
// on a 3,000-file TypeScript project we did not write: aws-cdk-lib 2.278.0's declarations with
// constructs 10.5.1, fetched once from the npm registry (integrity checked) into a cache under
// os.tmpdir() keyed by the versions (bench/lsp/corpus.ts), and copied for the run (the edits never touch
// the cache). The expected answers come from a text search over the files (bench/lsp/ground-truth.ts),
// never from a compiler or a server: a class declared once and imported by name into other files.
// Definition asked at a use in an importing file must land on the class's declaration line; references
// of the declaration must hold every use the search found; workspace symbols for the name must list the
// declaration. An Edit renaming one use to an undeclared name must report that error: on a cold server
// (nothing running: the project loads during the call) as the error or as pending, then the LSP
// diagnostics action shows it; on the running server as the error. Never as clean. tsserver loads the
// project in 15 to 40 s here; the file takes about 1.5 minutes.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Corpus, fetchCorpus, typeScriptFiles } from "../../bench/lsp/corpus.js";
import { type EditProbe, editProbes, isProbeError } from "../../bench/lsp/edit-probes.js";
import { type ClassGroundTruth, type SourcePlace, findClassGroundTruth } from "../../bench/lsp/ground-truth.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";

interface Location {
  readonly path: string;
  readonly line: number;
}
interface LspDetails {
  readonly locations?: readonly Location[];
  readonly leftOut?: Record<string, number>;
  readonly diagnostics?: ReadonlyArray<{ readonly message: string; readonly line: number }>;
}
interface EditDetails {
  readonly diagnostics?: {
    readonly status: string;
    readonly introduced: ReadonlyArray<{ readonly path: string; readonly line: number; readonly message: string }>;
  };
}

const CACHE = path.join(os.tmpdir(), "agent-tools-lsp-corpus");
const TIMEOUT_MS = 150_000;
/** Under tools-fs's 10 s ceiling per provider step, over a warm check of one file here (about 1 s). */
const EDIT_BUDGET_MS = 8_000;

let corpus: Corpus;
let work: string;
let root: string;
let classes: ClassGroundTruth[];
let probes: EditProbe[];
let registry: BuiltinToolRegistry;

beforeAll(async () => {
  corpus = await fetchCorpus(CACHE);
  work = mkdtempSync(path.join(os.tmpdir(), "lsp-corpus-test-"));
  root = path.join(work, "project");
  cpSync(corpus.root, root, { recursive: true });
  classes = findClassGroundTruth(typeScriptFiles(root, false), 7);
  probes = editProbes(classes);
  registry = await buildBuiltinToolRegistry({ workdir: root, dataDir: path.join(work, "data"), lsp: { diagnosticsAfterEdits: { budgetMs: EDIT_BUDGET_MS } } });
}, 240_000);

afterAll(async () => {
  await registry?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const relative = (file: string) => path.relative(root, file);
const place = (item: SourcePlace) => `${relative(item.file)}:${item.line}`;
const placesOf = (details: unknown) => ((details as LspDetails).locations ?? []).map((item) => `${item.path}:${item.line}`);
const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((part) => part.text ?? "").join("");

async function call(name: string, input: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: input });
  expect(result.isError, `${name} ${JSON.stringify(input)}: ${text(result)}`).toBe(false);
  return result;
}

/** Reads then edits the probe's file through the registry; the Edit's diagnostics report. */
async function edit(probe: EditProbe, from: string, to: string) {
  await call("Read", { path: relative(probe.file) });
  const result = await call("Edit", { path: relative(probe.file), old_string: from, new_string: to });
  return { report: (result.details as EditDetails).diagnostics, text: text(result) };
}

/** Whether the LSP diagnostics action shows the probe's error, asking until it does or `ms` pass. */
async function diagnosticsShow(probe: EditProbe, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  do {
    const result = await call("LSP", { action: "diagnostics", path: relative(probe.file) });
    if (((result.details as LspDetails).diagnostics ?? []).some((item) => isProbeError(probe, item.message)) || text(result).includes(probe.missingName))
      return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  } while (Date.now() < until);
  return false;
}

describe("LSP through the registry on the aws-cdk-lib corpus", () => {
  it("is the project the issue asks for: over 3,000 TypeScript files of a real package, classes chosen by the rule", () => {
    expect(corpus.manifest.packages.map((item) => `${item.name}@${item.version}`)).toEqual(["aws-cdk-lib@2.278.0", "constructs@10.5.1"]);
    expect(corpus.manifest.typeScriptFiles).toBeGreaterThanOrEqual(3000);
    expect(corpus.manifest.projectFiles).toBeGreaterThan(2900);
    expect(classes).toHaveLength(7);
    expect(probes.length).toBeGreaterThanOrEqual(2);
  });

  it(
    "a cold Edit that introduces an error reports it or pending, never clean; LSP diagnostics then shows it",
    async () => {
      const probe = probes[0] as EditProbe;
      const { report, text: answer } = await edit(probe, probe.oldString, probe.newString);
      expect(["new_problems", "pending"], `cold edit of ${relative(probe.file)}:${probe.line}: ${answer}`).toContain(report?.status);
      if (report?.status === "new_problems") expect(report.introduced.some((item) => isProbeError(probe, item.message))).toBe(true);
      expect(await diagnosticsShow(probe, TIMEOUT_MS - 30_000)).toBe(true);
      // Put the file back for the queries below.
      await edit(probe, probe.newString, probe.oldString);
    },
    TIMEOUT_MS,
  );

  it(
    "definition at a use in another file lands on the class's declaration line",
    async () => {
      for (const item of classes) {
        const result = await call("LSP", { action: "definition", path: relative(item.usage.file), line: item.usage.line, character: item.usage.character });
        expect(placesOf(result.details), `${item.name} used at ${place(item.usage)}`).toEqual([place(item.declaration)]);
      }
    },
    TIMEOUT_MS,
  );

  it(
    "references of the declaration hold every use the text search found",
    async () => {
      for (const item of classes) {
        const result = await call("LSP", {
          action: "references",
          path: relative(item.declaration.file),
          line: item.declaration.line,
          character: item.declaration.character,
        });
        expect((result.details as LspDetails).leftOut?.overLimit ?? 0, `${item.name}: references over the cap`).toBe(0);
        const found = new Set(placesOf(result.details));
        expect(found.has(place(item.declaration)), `${item.name}'s declaration among its references`).toBe(true);
        expect(
          item.references.map(place).filter((use) => !found.has(use)),
          `${item.name}: uses the text search found that references left out`,
        ).toEqual([]);
      }
    },
    TIMEOUT_MS,
  );

  it(
    "workspace symbols for a class name list its declaration",
    async () => {
      for (const item of classes) {
        const result = await call("LSP", { action: "workspace_symbols", query: item.name });
        expect(placesOf(result.details), `workspace symbols for ${item.name}`).toContain(place(item.declaration));
      }
    },
    TIMEOUT_MS,
  );

  it(
    "the next Edit, on the running server, reports the error it introduced",
    async () => {
      const probe = probes.find((candidate) => candidate.file !== probes[0]?.file) as EditProbe;
      const { report, text: answer } = await edit(probe, probe.oldString, probe.newString);
      expect(report?.status, `warm edit of ${relative(probe.file)}:${probe.line}: ${answer}`).toBe("new_problems");
      expect(report?.introduced.filter((item) => isProbeError(probe, item.message)).map((item) => `${item.path}:${item.line}`)).toEqual([
        `${relative(probe.file)}:${probe.line}`,
      ]);
      expect(answer).toContain(probe.missingName);
    },
    TIMEOUT_MS,
  );
});
