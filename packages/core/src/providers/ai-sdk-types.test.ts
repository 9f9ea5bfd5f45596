import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

// Compiles small host files against each AI SDK version's own types: toAiSdkTools' result must be a ToolSet for each.
const here = path.dirname(fileURLToPath(import.meta.url));
const coreRoot = path.resolve(here, "..", "..");
const repoRoot = path.resolve(coreRoot, "..", "..");
const coreIndex = path.join(coreRoot, "src", "index.js");
const modules = {
  5: path.join(coreRoot, "node_modules", "ai-v5"),
  6: path.join(coreRoot, "node_modules", "ai"),
  7: path.join(repoRoot, "compat", "ai-sdk-v7", "node_modules", "ai"),
} as const;

const sample = (moduleName: string) => `
import { generateText, jsonSchema, stepCountIs, streamText, type LanguageModel } from "${moduleName}";
import { createToolRegistry, toAiSdkTools } from ${JSON.stringify(coreIndex)};

declare const model: LanguageModel;
const registry = createToolRegistry({ workdir: "/tmp", bundles: [] });

export async function inline(): Promise<string> {
  const result = await generateText({ model, prompt: "x", tools: toAiSdkTools(registry, { jsonSchema }), stopWhen: stepCountIs(3) });
  const stream = streamText({ model, prompt: "x", tools: toAiSdkTools(registry, { jsonSchema }), stopWhen: stepCountIs(3) });
  return result.text + (await stream.text);
}

export async function withOptions(): Promise<void> {
  const tools = toAiSdkTools(registry, { jsonSchema, approval: "ai-sdk", preliminaryResults: true });
  await generateText({ model, prompt: "x", tools });
  const stream = streamText({ model, prompt: "x", tools });
  for await (const part of stream.fullStream) if (part.type === "tool-result") void part.output;
  const plain = toAiSdkTools(registry, { jsonSchema, approval: "registry", preliminaryResults: false, aiSdkVersion: 6 });
  await generateText({ model, prompt: "x", tools: plain });
}
`;

const work = mkdtempSync(path.join(os.tmpdir(), "agent-tools-ai-sdk-types-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function diagnosticsFor(version: 5 | 6 | 7): string[] {
  const modulePath = modules[version];
  if (!existsSync(path.join(modulePath, "package.json"))) {
    throw new Error(`AI SDK ${version} is not installed at ${modulePath}; run scripts/setup.sh (it installs compat/ai-sdk-v7 with npm).`);
  }
  const file = path.join(work, `ai-sdk-v${version}-host.mts`);
  writeFileSync(file, sample(`ai-sdk-under-test-v${version}`));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    typeRoots: [path.join(coreRoot, "node_modules", "@types")],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    verbatimModuleSyntax: true,
    customConditions: ["@agent-tools/source"],
    paths: { [`ai-sdk-under-test-v${version}`]: [path.join(modulePath, "dist", "index.d.ts")] },
  };
  const program = ts.createProgram({ rootNames: [file], options });
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error("the sample is not in its own program");
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => {
    const line = diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0;
    return `v${version} line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

/** This directory's AI SDK tests and their fixtures, compiled with core's own compiler options (tsc -b leaves tests out). */
function testDiagnostics(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(coreRoot, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (config === undefined) throw new Error("cannot read the core tsconfig");
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, composite: false, declaration: false, declarationMap: false, incremental: false };
  const files = ["ai-sdk-matrix.test.ts", "ai-sdk-tools.test.ts", "ai-sdk-approval.test.ts", "ai-sdk-preliminary.test.ts"].map((name) => path.join(here, name));
  const program = ts.createProgram({ rootNames: files, options });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
      : "";
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  });
}

describe("toAiSdkTools types", () => {
  it("the AI SDK tests and the matrix scenarios type-check", () => {
    expect(testDiagnostics()).toEqual([]);
  }, 60_000);

  for (const version of [5, 6, 7] as const) {
    it(`type-checks as tools of generateText and streamText with AI SDK ${version}`, () => {
      expect(diagnosticsFor(version)).toEqual([]);
    }, 60_000);
  }
});
