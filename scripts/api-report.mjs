#!/usr/bin/env node
/**
 * API report: lists every name (values and types) exported by the main entry
 * (`"."`, i.e. `src/index.ts`) of each workspace package, using the TypeScript
 * compiler's own view of the module (`checker.getExportsOfModule`), so `export *`
 * and re-exports from other packages are counted as a consumer sees them.
 *
 *   node scripts/api-report.mjs            print the report (package -> names) and the total
 *   node scripts/api-report.mjs --check    compare with api-report.json; exit 1 on any difference
 *   node scripts/api-report.mjs --update   rewrite api-report.json from the sources
 *
 * `/testing` subpaths are not part of the report: contract suites and fakes live there.
 * An `/internal` subpath (helpers the workspace packages share, no semver
 * promise to hosts) is listed under its own key so changes to it show, but it
 * is not counted as public. core's `/mcp` subpath (the MCP contracts, public
 * through `@agent-tools/mcp`, which re-exports them) is listed the same way,
 * and so are `@agent-tools/mcp/manifest` (the manifest cache's adapters) and
 * `@agent-tools/mcp/resources` (the resource tools' details types), kept off
 * the main entry's name budget like the other packages' subpaths, and
 * `@agent-tools/models/embeddings` (the EmbeddingClient adapters).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const snapshotPath = path.join(root, "api-report.json");

/** Subpaths besides the main entry that the report lists (not counted as public). */
const LISTED_SUBPATHS = ["./internal", "./mcp", "./workspace", "./manifest", "./resources", "./embeddings"];

/** The workspace packages' main entries (and listed subpaths), as `{ name, entry }`, sorted by name. */
export function listPackages() {
  const packagesDir = path.join(root, "packages");
  const found = [];
  for (const dir of fs.readdirSync(packagesDir).sort()) {
    const manifestPath = path.join(packagesDir, dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    for (const subpath of [".", ...LISTED_SUBPATHS]) {
      const target = manifest.exports?.[subpath];
      const source = typeof target === "object" ? target["@agent-tools/source"] : undefined;
      if (typeof source !== "string") continue;
      const name = subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      found.push({ name, entry: path.join(packagesDir, dir, source) });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Builds the report: `{ [packageName]: sortedExportNames[] }`. */
export function buildApiReport() {
  const packages = listPackages();
  const base = ts.getParsedCommandLineOfConfigFile(
    path.join(root, "tsconfig.base.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  const options = {
    ...base.options,
    noEmit: true,
    composite: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    customConditions: ["@agent-tools/source"],
  };
  const program = ts.createProgram({ rootNames: packages.map((p) => p.entry), options });
  const checker = program.getTypeChecker();
  const report = {};
  for (const pkg of packages) {
    const sourceFile = program.getSourceFile(pkg.entry);
    if (!sourceFile) throw new Error(`${pkg.name}: ${pkg.entry} was not compiled`);
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    const names = moduleSymbol ? checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.getName()) : [];
    report[pkg.name] = [...new Set(names)].sort();
  }
  return report;
}

/** Whether a report key is a main entry (`@agent-tools/x`), not a listed subpath (`@agent-tools/x/internal`). */
export function isMainEntry(key) {
  return key.split("/").length === 2;
}

/** Public names: the total across the main entries (a name exported by two entries counts twice). */
export function countNames(report) {
  return Object.entries(report)
    .filter(([key]) => isMainEntry(key))
    .reduce((sum, [, names]) => sum + names.length, 0);
}

/** Lines describing what `actual` adds to and removes from `expected`, per package. */
export function diffReports(expected, actual) {
  const lines = [];
  for (const pkg of [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()) {
    const before = new Set(expected[pkg] ?? []);
    const after = new Set(actual[pkg] ?? []);
    const added = [...after].filter((name) => !before.has(name));
    const removed = [...before].filter((name) => !after.has(name));
    if (!(pkg in expected)) lines.push(`${pkg}: new entry`);
    if (!(pkg in actual)) lines.push(`${pkg}: entry gone`);
    for (const name of added) lines.push(`+ ${pkg}: ${name}`);
    for (const name of removed) lines.push(`- ${pkg}: ${name}`);
  }
  return lines;
}

export function formatReport(report) {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function main(argv) {
  const report = buildApiReport();
  const perPackage = Object.entries(report).map(([pkg, names]) => `${pkg}: ${names.length}`);
  if (argv.includes("--update")) {
    fs.writeFileSync(snapshotPath, formatReport(report));
    console.log(perPackage.join("\n"));
    console.log(`api-report.json updated: ${countNames(report)} public names`);
    return 0;
  }
  if (argv.includes("--check")) {
    const expected = JSON.parse(fs.readFileSync(snapshotPath, "utf8"));
    const diff = diffReports(expected, report);
    if (diff.length > 0) {
      console.error(`The main entries differ from api-report.json:\n${diff.join("\n")}`);
      console.error("If the change is planned, run: node scripts/api-report.mjs --update");
      return 1;
    }
    console.log(`api-report.json matches: ${countNames(report)} public names`);
    return 0;
  }
  console.log(formatReport(report));
  console.log(perPackage.join("\n"));
  console.log(`${countNames(report)} public names`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
