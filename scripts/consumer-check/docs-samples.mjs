// The consumer check's "docs" part: every TypeScript sample of README.md,
// docs/*.md and the packages' and examples' READMEs, compiled as a consumer
// would paste it, against the packed tarballs (not the workspace sources).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import { strictConsumerTsconfig } from "./strict-tsconfig.mjs";

/** What a consumer project that pastes the samples turns on: strict, and the library's .d.ts checked too. */
export const DOCS_SAMPLES_TSCONFIG = strictConsumerTsconfig(["samples/*.ts"]);

/**
 * Third-party declaration files known not to type-check under these settings,
 * by package, with the reason: upstream facts a consumer meets with
 * `skipLibCheck: false` whatever our packages do. Errors in any other
 * third-party package fail the check, and so does an entry here whose package
 * no longer reports errors (remove it then).
 */
export const KNOWN_UPSTREAM_DECLARATION_ERRORS = {
  ai: "AI SDK 6's ai/dist/index.d.ts fails under exactOptionalPropertyTypes (TS2344: ToolSet is not a Record<string, Tool>)",
  "@ai-sdk/provider": "its index.d.ts imports json-schema, which has no types without @types/json-schema (TS7016)",
  "@restatedev/restate-sdk-core": "its serde_api.d.ts fails under exactOptionalPropertyTypes (TS2420: JsonSerde's optional jsonSchema against Serde's)",
  "@dbos-inc/dbos-sdk":
    "its declarations import pg, whose types are in @types/pg, which it does not depend on (TS7016); a consumer compiling with skipLibCheck: false adds @types/pg",
};

/** The package a bare import specifier names (`openai/resources` -> `openai`, `@scope/a/b` -> `@scope/a`). */
function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every module specifier a sample imports (static imports and re-exports). */
function importsOf(code) {
  return [...code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']/g)].map(
    (match) => match[1] ?? match[2],
  );
}

/** The package a `node_modules/...` path belongs to (the innermost one). */
function packageOfPath(file) {
  const after = file.slice(file.lastIndexOf("node_modules/") + "node_modules/".length);
  return packageName(after);
}

/** The file a sample is written to inside the project: `samples/<markdown path>_<line>.ts`. */
function sampleFileName(sample) {
  return `${sample.file.replace(/[^A-Za-z0-9-]+/g, "_")}_${sample.line}.ts`;
}

/**
 * Compiles every docs sample against the packed tarballs and records one
 * result per sample (named `<markdown file>:<line>`, its diagnostics with
 * lines counted in the markdown file), one for the install, and two for the
 * declaration files the samples pull in (errors under `node_modules`, which
 * `skipLibCheck: false` reports): the @agent-tools ones, and the third-party
 * ones beyond {@link KNOWN_UPSTREAM_DECLARATION_ERRORS}.
 *
 * The project holds every @agent-tools tarball, TypeScript 5.9.3, the root's
 * `@types/node`, and each third-party package the samples import at the root
 * package.json's devDependencies version (plus vitest when a sample imports a
 * `/testing` entry, whose contract suites need it). One `tsc` run checks them all.
 *
 * @param {object} context - from scripts/consumer-check.mjs
 * @param {string} context.root - the repository root
 * @param {Record<string, string>} context.overrides - package name -> `file:<tarball>`
 * @param {(name: string, dependencies: Record<string, string>) => { directory: string, installed: { ok: boolean, stderr: string, seconds: number } }} context.project
 * @param {(command: string, args: string[], options?: object) => { ok: boolean, stdout: string, stderr: string, seconds: number }} context.run
 * @param {(name: string, ok: boolean, detail?: string) => void} context.record
 * @param {string} [context.out] - where to write tsc's whole output (`docs-samples-tsc.txt`)
 */
export async function checkDocsSamples({ root, overrides, project, run, record, out }) {
  const extract = await tsImport(pathToFileURL(path.join(root, "tests", "docs-samples", "extract.ts")).href, import.meta.url);
  const samples = extract.collectSamples(root);
  const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const versions = { ...rootManifest.dependencies, ...rootManifest.devDependencies };

  const thirdParty = new Set();
  for (const sample of samples) {
    for (const specifier of importsOf(sample.code)) {
      if (specifier.startsWith("node:") || specifier.startsWith(".")) continue;
      if (specifier.startsWith("@agent-tools/")) {
        if (specifier.split("/")[2] === "testing") thirdParty.add("vitest");
        continue;
      }
      thirdParty.add(packageName(specifier));
    }
  }
  const unknown = [...thirdParty].filter((name) => versions[name] === undefined);
  record("docs samples import only packages the repository pins", unknown.length === 0, unknown.length ? `no version for ${unknown.join(", ")}` : "");
  const dependencies = {
    ...overrides,
    typescript: "5.9.3",
    "@types/node": versions["@types/node"] ?? "20",
    ...Object.fromEntries([...thirdParty].filter((name) => versions[name] !== undefined).map((name) => [name, versions[name]])),
  };
  const { directory, installed } = project("docs-samples", dependencies);
  if (!installed.ok) {
    record("docs samples project installs", false, installed.stderr.trim().split("\n").slice(-3).join(" | "));
    return;
  }
  record("docs samples project installs", true, `${Object.keys(dependencies).length} dependencies, ${installed.seconds.toFixed(1)} s`);

  mkdirSync(path.join(directory, "samples"));
  const byFile = new Map();
  for (const sample of samples) {
    const name = sampleFileName(sample);
    byFile.set(`samples/${name}`, sample);
    writeFileSync(path.join(directory, "samples", name), `${sample.code}\nexport {};\n`);
  }
  writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify(DOCS_SAMPLES_TSCONFIG, null, 2));
  const compiled = run("node", ["--max-old-space-size=3072", "node_modules/typescript/bin/tsc", "-p", ".", "--pretty", "false"], {
    cwd: directory,
    timeout: 300_000,
  });
  if (compiled.error || compiled.status === null) {
    record("docs samples: tsc ran", false, String(compiled.error ?? `signal ${compiled.signal}`));
    return;
  }

  if (out !== undefined) writeFileSync(path.join(out, "docs-samples-tsc.txt"), `${compiled.stdout}${compiled.stderr}`);

  // tsc --pretty false: `<file>(<line>,<column>): error TS<code>: <message>`, continuation lines indented.
  const bySample = new Map(samples.map((sample) => [sample, []]));
  const ours = [];
  const theirs = [];
  const other = [];
  let current;
  for (const line of `${compiled.stdout}\n${compiled.stderr}`.split("\n")) {
    const head = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
    if (head === null) {
      if (current && line.trim() !== "") current.push(line.trim());
      else if (line.trim() !== "") other.push(line.trim());
      continue;
    }
    const [, file, row, column, message] = head;
    const sample = byFile.get(file);
    if (sample !== undefined) {
      current = [`${sample.file}:${sample.line + Number(row)}:${sample.indent + Number(column)} - ${message}`];
      bySample.get(sample).push(current);
    } else {
      current = [`${file}:${row}:${column} - ${message}`];
      (file.includes("node_modules/@agent-tools/") ? ours : file.includes("node_modules/") ? theirs : other).push(current);
    }
  }
  const show = (entries) =>
    entries
      .slice(0, 4)
      .map((entry) => (Array.isArray(entry) ? entry.slice(0, 3).join(" ") : entry))
      .join(" | ");
  record(
    "docs samples: the @agent-tools declaration files type-check (skipLibCheck: false)",
    ours.length === 0,
    ours.length ? `${ours.length} errors: ${show(ours)}` : "",
  );
  const known = new Set(Object.keys(KNOWN_UPSTREAM_DECLARATION_ERRORS));
  const unexpected = theirs.filter((entry) => !known.has(packageOfPath(entry[0].split(":")[0])));
  const erring = new Set(theirs.map((entry) => packageOfPath(entry[0].split(":")[0])));
  const stale = [...known].filter((name) => !erring.has(name) && existsSync(path.join(directory, "node_modules", name)));
  const allowed = theirs.length - unexpected.length;
  record(
    "docs samples: the third-party declaration files they pull in type-check (skipLibCheck: false)",
    unexpected.length === 0 && stale.length === 0,
    [
      unexpected.length ? `${unexpected.length} errors: ${show(unexpected)}` : "",
      stale.length ? `no longer failing, remove from KNOWN_UPSTREAM_DECLARATION_ERRORS: ${stale.join(", ")}` : "",
      allowed ? `${allowed} known upstream errors in ${[...erring].filter((name) => known.has(name)).join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(" | "),
  );
  for (const [sample, diagnostics] of bySample) {
    record(`docs sample ${sample.file}:${sample.line} compiles against the tarballs`, diagnostics.length === 0, show(diagnostics));
  }
  const unexplained = !compiled.ok && ours.length === 0 && theirs.length === 0 && [...bySample.values()].every((diagnostics) => diagnostics.length === 0);
  record(
    `docs samples: one tsc run over ${samples.length} samples`,
    other.length === 0 && !unexplained,
    `${compiled.seconds.toFixed(1)} s${other.length ? ` | ${show(other)}` : ""}`,
  );
}
