/**
 * Reads the workspace for the architecture test: every package's
 * package.json and the imports of every TypeScript file under its src/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The repository root (this file lives in tests/architecture/). */
export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, "../..");

/** The scope of every workspace package name. */
export const SCOPE = "@agent-tools/";

/** One TypeScript file of a package's src/. */
export interface SourceFile {
  /** Path relative to the repository root, with `/`. */
  file: string;
  /** A test file: `*.test.ts` or anything below a `__fixtures__` folder. */
  isTest: boolean;
  /** Module specifiers it imports or re-exports (static and dynamic). */
  imports: string[];
  /** Modules it names by `new URL(..., import.meta.url)` (workers): part of the code it runs, not an import. */
  urlImports: string[];
}

/** A workspace package as the test sees it. */
export interface WorkspacePackage {
  /** The folder name under packages/ (`core`, `tools-fs`, ...). */
  name: string;
  /** Workspace packages (short names) in `dependencies` and `peerDependencies`. */
  dependencies: string[];
  /** Workspace packages (short names) in `devDependencies`. */
  devDependencies: string[];
  /** Source files of the package's entries but `./testing` (and of its bin), found by following relative imports. */
  productionFiles: Set<string>;
  files: SourceFile[];
}

const URL_IMPORT = /new\s+URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g;

function listTypeScript(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory)) {
    if (entry === "node_modules" || entry === "dist") continue;
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) found.push(...listTypeScript(full));
    else if (/\.(ts|mts|cts)$/.test(entry) && !entry.endsWith(".d.ts")) found.push(full);
  }
  return found;
}

function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
}

function urlImportsOf(text: string): string[] {
  return [...text.matchAll(URL_IMPORT)].map((match) => match[1]!);
}

function relative(file: string): string {
  return path.relative(REPOSITORY_ROOT, file).split(path.sep).join("/");
}

/** The short name of a workspace package a specifier names, or undefined. */
export function workspacePackageOf(specifier: string): string | undefined {
  if (!specifier.startsWith(SCOPE)) return undefined;
  return specifier.slice(SCOPE.length).split("/")[0];
}

/** Resolves a relative specifier of `from` to a source file (relative to the root), or undefined. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(REPOSITORY_ROOT, path.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|cjs|ts)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.mts`, `${stem}.cts`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(candidate);
  }
  return undefined;
}

function sourceEntries(directory: string, manifest: Record<string, unknown>): string[] {
  const entries: string[] = [];
  const exportsField = (manifest.exports ?? {}) as Record<string, unknown>;
  for (const [key, target] of Object.entries(exportsField)) {
    if (key === "./package.json" || key === "./testing" || typeof target !== "object" || target === null) continue;
    const source = (target as Record<string, unknown>)["@agent-tools/source"];
    if (typeof source === "string") entries.push(path.join(directory, source));
  }
  for (const bin of Object.values((manifest.bin ?? {}) as Record<string, string>)) {
    entries.push(path.join(directory, bin.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts")));
  }
  return entries.filter((entry) => existsSync(entry)).map(relative);
}

function reachable(entries: string[], byFile: Map<string, SourceFile>): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const entry = byFile.get(file);
    for (const specifier of [...(entry?.imports ?? []), ...(entry?.urlImports ?? [])]) {
      const target = resolveRelative(file, specifier);
      if (target && byFile.has(target)) stack.push(target);
    }
  }
  return seen;
}

function workspaceNames(record: unknown): string[] {
  return Object.keys((record ?? {}) as Record<string, string>)
    .map(workspacePackageOf)
    .filter((name): name is string => name !== undefined);
}

/** Reads every package under packages/. */
export function scanWorkspace(): WorkspacePackage[] {
  const packagesDirectory = path.join(REPOSITORY_ROOT, "packages");
  return readdirSync(packagesDirectory)
    .filter((name) => existsSync(path.join(packagesDirectory, name, "package.json")))
    .sort()
    .map((name) => {
      const directory = path.join(packagesDirectory, name);
      const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")) as Record<string, unknown>;
      const files: SourceFile[] = listTypeScript(path.join(directory, "src")).map((full) => {
        const file = relative(full);
        const text = readFileSync(full, "utf8");
        return { file, isTest: /\.test\.ts$/.test(file) || file.includes("/__fixtures__/"), imports: importsOf(text), urlImports: urlImportsOf(text) };
      });
      const byFile = new Map(files.map((entry) => [entry.file, entry]));
      return {
        name,
        dependencies: [...new Set([...workspaceNames(manifest.dependencies), ...workspaceNames(manifest.peerDependencies)])],
        devDependencies: workspaceNames(manifest.devDependencies),
        productionFiles: reachable(sourceEntries(directory, manifest), byFile),
        files,
      };
    });
}
