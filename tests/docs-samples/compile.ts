import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import type { DocsSample } from "./extract.js";

/** What compiling the samples reported. */
export interface SamplesCompilation {
  /** Formatted diagnostics per sample (key: {@link sampleId}), `[]` when the sample compiles. */
  readonly bySample: ReadonlyMap<string, readonly string[]>;
  /** Diagnostics that belong to no sample: compiler options, global errors. */
  readonly general: readonly string[];
}

/** Options of {@link compileSamples}. */
export interface CompileSamplesOptions {
  /** The repository root (holds `tsconfig.base.json`, `packages/`, `node_modules/`). */
  readonly root: string;
}

/**
 * The strictness every sample is checked with, here and in the consumer check
 * against the packed tarballs: what the strictest consumer project turns on.
 */
export const SAMPLE_STRICTNESS = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true } as const;

/** The name a sample is reported under: `<markdown file>:<line of the opening fence>`. */
export function sampleId(sample: DocsSample): string {
  return `${sample.file}:${sample.line}`;
}

/**
 * `@agent-tools/<name>` and `@agent-tools/<name>/<subpath>` mapped to the
 * TypeScript sources their `@agent-tools/source` export condition names, for
 * every package under `packages/` and `examples/`. The repository root has no
 * `node_modules/@agent-tools`, so this is how a sample placed at the root
 * resolves the workspace packages the way a consumer resolves the published ones.
 */
export function workspacePaths(root: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const parent of ["packages", "examples"]) {
    const directory = path.join(root, parent);
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const manifestPath = path.join(directory, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { name?: string; exports?: Record<string, unknown> };
      if (manifest.name === undefined || typeof manifest.exports !== "object" || manifest.exports === null) continue;
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        const source = typeof target === "object" && target !== null ? (target as Record<string, unknown>)["@agent-tools/source"] : undefined;
        if (typeof source !== "string") continue;
        paths[manifest.name + subpath.slice(1)] = [path.join(directory, entry.name, source)];
      }
    }
  }
  return paths;
}

/**
 * The compiler options of the samples: the repository's `tsconfig.base.json`
 * (NodeNext, ES2022, `verbatimModuleSyntax`, Node types) with
 * {@link SAMPLE_STRICTNESS}, without emit or project-build settings, with the `@agent-tools/source` condition and
 * the {@link workspacePaths} mapping so the workspace sources are checked
 * without a build.
 */
export function sampleCompilerOptions(root: string): ts.CompilerOptions {
  const parsed = ts.parseJsonConfigFileContent(
    {
      extends: "./tsconfig.base.json",
      compilerOptions: {
        ...SAMPLE_STRICTNESS,
        noEmit: true,
        composite: false,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
        incremental: false,
        customConditions: ["@agent-tools/source"],
        paths: workspacePaths(root),
      },
      files: [],
    },
    ts.sys,
    root,
    undefined,
    path.join(root, "tsconfig.docs-samples.json"),
  );
  const errors = parsed.errors.filter((error) => error.code !== 18002); // "The 'files' list in config file is empty."
  if (errors.length > 0) throw new Error(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, "\n")).join("\n"));
  return parsed.options;
}

/**
 * Type-checks every sample as its own ES module in one TypeScript program (one
 * program keeps the workspace sources parsed and bound once).
 *
 * A sample is placed, unchanged, at the top of an in-memory file
 * `tests/docs-samples/__sample__<n>.ts` (so `node_modules` and the root
 * `package.json`'s `"type": "module"` apply, and top-level await is allowed),
 * followed by `export {}` so a sample without imports is a module too. A
 * sample is a complete program: an ambient `declare` of its own counts as a
 * diagnostic (the names a sample uses are imported or given real values). Its
 * diagnostics are reported as `<markdown file>:<line>:<column> - error TS<code>: <message>`,
 * with the line counted in the markdown file.
 */
export function compileSamples(samples: readonly DocsSample[], options: CompileSamplesOptions): SamplesCompilation {
  const compilerOptions = sampleCompilerOptions(options.root);
  const directory = path.join(options.root, "tests", "docs-samples");
  const virtual = new Map<string, { sample: DocsSample; text: string }>();
  for (const [index, sample] of samples.entries()) {
    virtual.set(path.join(directory, `__sample__${index}.ts`), { sample, text: `${sample.code}\nexport {};\n` });
  }

  const host = ts.createCompilerHost(compilerOptions, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (fileName) => virtual.has(path.resolve(fileName)) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(path.resolve(fileName))?.text ?? readFile.call(host, fileName);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const entry = virtual.get(path.resolve(fileName));
    if (entry === undefined) return getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate);
    return ts.createSourceFile(fileName, entry.text, languageVersion, true);
  };

  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: compilerOptions, host });
  const bySample = new Map<string, string[]>();
  for (const [fileName, { sample }] of virtual) {
    const source = program.getSourceFile(fileName);
    if (source === undefined) throw new Error(`${sampleId(sample)} is not in the program`);
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    bySample.set(sampleId(sample), [
      ...ambientDeclarations(source).map((message) => formatPosition(source, message.start, sample, message.text)),
      ...diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, sample)),
    ]);
  }
  const general = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((diagnostic) =>
    formatDiagnostic(diagnostic, undefined, options.root),
  );
  return { bySample, general };
}

/** The top-level statements of a sample that declare a name ambiently (`declare const x: T`, `declare function f()`). */
function ambientDeclarations(source: ts.SourceFile): { start: number; text: string }[] {
  return source.statements
    .filter((statement) => ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword))
    .map((statement) => ({
      start: statement.getStart(source),
      text: `error ambient: \`${statement.getText(source).split("\n")[0]}\` declares a name without a value; import it or write a real value`,
    }));
}

/**
 * One diagnostic as `<file>:<line>:<column> - error TS<code>: <message>`. In a
 * sample the position is counted in the markdown file (the code starts on the
 * line after the opening fence, indented like it); elsewhere it is the file relative to `root`.
 */
function formatDiagnostic(diagnostic: ts.Diagnostic, sample: DocsSample | undefined, root = ""): string {
  const message = `${ts.DiagnosticCategory[diagnostic.category].toLowerCase()} TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
  if (sample !== undefined) return formatPosition(diagnostic.file, diagnostic.start, sample, message);
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${path.relative(root, diagnostic.file.fileName)}:${line + 1}:${character + 1} - ${message}`;
}

/** `<markdown file>:<line>:<column> - <message>` for a position in a sample's source. */
function formatPosition(source: ts.SourceFile, start: number, sample: DocsSample, message: string): string {
  const { line, character } = source.getLineAndCharacterOfPosition(start);
  return `${sample.file}:${sample.line + line + 1}:${sample.indent + character + 1} - ${message}`;
}
