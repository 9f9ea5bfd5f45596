#!/usr/bin/env node
// Installs the SDK as a consumer would: packs every published package with
// `pnpm pack`, installs the tarballs with npm into fresh projects outside the
// workspace, and checks what a new user meets there:
//   - core + tools-fs install with no native build and none of the heavy
//     optional packages;
//   - a strict TypeScript consumer using defineTool with its own zod compiles
//     with the lowest and the newest zod 4 of the peer range, in bounded time
//     and memory;
//   - the same consumer installs next to vitest 3 and vitest 5;
//   - the sdk tarballs, installed on Node 20, 22 and 24, run the README's embedding example
//     with a task and a memory call (scripts/consumer-check/node-matrix.mjs).
//   - every TypeScript sample of the docs compiles, strict, against the tarballs
//     (scripts/consumer-check/docs-samples.mjs).
// Prints one line per check, the install footprints (packages, MB, seconds),
// writes them to <out>/consumer-check.json, and exits 1 when a check failed.
//
// Usage: node scripts/consumer-check.mjs [--out DIR] [--only NAME,...]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkNodeMatrix } from "./consumer-check/node-matrix.mjs";
import { strictConsumerTsconfig } from "./consumer-check/strict-tsconfig.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const only = option("only")?.split(",");
const work = mkdtempSync(path.join(os.tmpdir(), "agent-tools-consumer-"));
const out = path.resolve(option("out") ?? path.join(root, ".tmp"));
mkdirSync(out, { recursive: true });

const HEAVY = ["better-sqlite3", "pg", "kysely", "isomorphic-git", "pdfjs-dist", "@napi-rs/canvas", "execa"];
const results = [];
const footprints = {};

function record(name, ok, detail = "") {
  results.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
}

function run(command, commandArgs, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    ...options,
    env: {
      ...process.env,
      npm_config_nodedir: process.env.npm_config_nodedir ?? "/usr",
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
      ...options.env,
    },
  });
  return { ...result, seconds: (Date.now() - started) / 1000, ok: result.status === 0 };
}

// 1. Pack every published package.
const tarballs = {};
const tarballDir = path.join(work, "tarballs");
mkdirSync(tarballDir);
for (const directory of readdirSync(path.join(root, "packages"))) {
  const manifestPath = path.join(root, "packages", directory, "package.json");
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  if (manifest.private) continue;
  const packed = run("pnpm", ["pack", "--pack-destination", tarballDir], { cwd: path.dirname(manifestPath) });
  const file = readdirSync(tarballDir).find((name) => name.startsWith(`${manifest.name.replace("@", "").replace("/", "-")}-`));
  if (!packed.ok || !file) {
    record(`pack ${manifest.name}`, false, packed.stderr.trim().split("\n").pop());
    continue;
  }
  tarballs[manifest.name] = path.join(tarballDir, file);
  const listing = execFileSync("tar", ["-tzf", tarballs[manifest.name]], { encoding: "utf8" });
  const shipped = listing.split("\n");
  const leaks = shipped.filter((entry) => /\.test\.(ts|js|d\.ts)$|__snapshots__|__fixtures__/.test(entry));
  const hasReadme = shipped.includes("package/README.md");
  const hasLicense = shipped.includes("package/LICENSE");
  record(
    `tarball ${manifest.name} has README and LICENSE, no tests or fixtures`,
    leaks.length === 0 && hasReadme && hasLicense,
    leaks.length ? `ships ${leaks.slice(0, 3).join(", ")}` : !hasReadme ? "no README.md" : !hasLicense ? "no LICENSE" : "",
  );
  // Every file an exports entry points at (".", "/testing", "/internal") is in the tarball.
  const exportTargets = Object.values(manifest.exports ?? {}).flatMap((target) => (typeof target === "object" ? Object.values(target) : [target]));
  const missing = exportTargets.filter((target) => !shipped.includes(`package/${target.replace(/^\.\//, "")}`));
  record(`tarball ${manifest.name} ships every exports target`, missing.length === 0, missing.length ? `missing ${missing.slice(0, 3).join(", ")}` : "");
}
const overrides = Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]));

/** A fresh npm project holding `dependencies`, local tarballs resolved for every @agent-tools package. */
function project(name, dependencies) {
  const directory = path.join(work, name);
  mkdirSync(directory);
  writeFileSync(
    path.join(directory, "package.json"),
    JSON.stringify({ name: `consumer-${name}`, private: true, type: "module", dependencies, overrides }, null, 2),
  );
  const installed = run("npm", ["install", "--no-package-lock", "--loglevel=error"], { cwd: directory });
  return { directory, installed };
}

function footprint(directory) {
  const modules = path.join(directory, "node_modules");
  let packages = 0;
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".bin") continue;
      const full = path.join(current, entry.name);
      if (entry.name.startsWith("@")) walk(full);
      else if (existsSync(path.join(full, "package.json"))) {
        packages += 1;
        if (existsSync(path.join(full, "node_modules"))) walk(path.join(full, "node_modules"));
      }
    }
  };
  walk(modules);
  const megabytes = Number(execFileSync("du", ["-sm", modules], { encoding: "utf8" }).split("\t")[0]);
  return { packages, megabytes };
}

function nativeBuilds(directory) {
  const found = [];
  const walk = (current, depth) => {
    if (depth > 6) return;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(current, entry.name);
      if (entry.name === "build" && existsSync(path.join(full, "Release"))) found.push(path.relative(directory, current));
      else walk(full, depth + 1);
    }
  };
  walk(path.join(directory, "node_modules"), 0);
  return found;
}

const wanted = (name) => !only || only.includes(name);
const zodRange = JSON.parse(readFileSync(path.join(root, "packages/core/package.json"), "utf8")).peerDependencies?.zod;

// 2. core + tools-fs: lean.
if (wanted("lean")) {
  const { directory, installed } = project("lean", {
    "@agent-tools/core": overrides["@agent-tools/core"],
    "@agent-tools/tools-fs": overrides["@agent-tools/tools-fs"],
    zod: "^4",
  });
  if (!installed.ok) record("core + tools-fs install", false, installed.stderr.trim().split("\n").slice(-3).join(" | "));
  else {
    const size = footprint(directory);
    footprints["core + tools-fs"] = { ...size, seconds: installed.seconds };
    record("core + tools-fs install", true, `${size.packages} packages, ${size.megabytes} MB, ${installed.seconds.toFixed(1)} s`);
    const heavy = HEAVY.filter((name) => existsSync(path.join(directory, "node_modules", name)));
    record("core + tools-fs bring none of the heavy packages", heavy.length === 0, heavy.join(", "));
    const builds = nativeBuilds(directory);
    record("core + tools-fs need no native build", builds.length === 0, builds.join(", "));
  }
}

// 3. A strict TypeScript consumer with its own zod, lowest and newest of the peer range.
const CONSUMER_SOURCE = `import { createToolRegistry, defineTool } from "@agent-tools/core";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { z } from "zod";

const echo = defineTool({
  name: "Echo",
  description: "Repeats the text.",
  inputSchema: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  metadata: { groupId: "system", kind: "custom", isReadOnly: true, displayCategory: "other" },
  async execute(input) {
    const text: string = input.text.repeat(input.times ?? 1);
    return { content: text, details: { length: text.length } };
  },
});
const registry = createToolRegistry({ workdir: process.cwd(), bundles: [createFsToolBundle(), { id: "mine", trusted: true, listTools: () => [echo] }] });
const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "hi", times: 2 } });
console.log(result.isError ? "error" : result.content[0]?.type);
await registry.close();
`;
const STRICT_TSCONFIG = strictConsumerTsconfig(["index.ts"]);
function zodVersions() {
  const listed = JSON.parse(execFileSync("npm", ["view", "zod", "versions", "--json"], { encoding: "utf8" }));
  const stable = listed.filter((version) => /^4\.\d+\.\d+$/.test(version));
  const satisfying = (version) => {
    if (!zodRange) return true;
    const low = /^(?:\^|>=)\s*(\d+\.\d+\.\d+)/.exec(zodRange)?.[1];
    if (!low) return true;
    const [a, b, c] = version.split(".").map(Number);
    const [x, y, z] = low.split(".").map(Number);
    return a > x || (a === x && (b > y || (b === y && c >= z)));
  };
  const inRange = stable.filter(satisfying);
  return { lowest: inRange[0], newest: inRange[inRange.length - 1] };
}
if (wanted("strict")) {
  const { lowest, newest } = zodVersions();
  for (const [label, version] of [
    ["lowest", lowest],
    ["newest", newest],
  ]) {
    const { directory, installed } = project(`strict-zod-${label}`, {
      "@agent-tools/core": overrides["@agent-tools/core"],
      "@agent-tools/tools-fs": overrides["@agent-tools/tools-fs"],
      zod: version,
      typescript: "5.9.3",
      "@types/node": "20.19.43",
    });
    if (!installed.ok) {
      record(`strict consumer installs with zod ${version} (${label})`, false, installed.stderr.trim().split("\n").slice(-3).join(" | "));
      continue;
    }
    writeFileSync(path.join(directory, "index.ts"), CONSUMER_SOURCE);
    writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify(STRICT_TSCONFIG, null, 2));
    const compiled = run("/usr/bin/time", ["-f", "maxrss_kb=%M", "node", "--max-old-space-size=2048", "node_modules/typescript/bin/tsc", "-p", "."], {
      cwd: directory,
      timeout: 180_000,
    });
    const rss = Number(/maxrss_kb=(\d+)/.exec(compiled.stderr)?.[1] ?? 0);
    const detail = `${compiled.seconds.toFixed(1)} s, ${(rss / 1024).toFixed(0)} MB peak${compiled.ok ? "" : ` | ${(compiled.stdout + compiled.stderr).trim().split("\n").slice(0, 4).join(" | ")}`}`;
    record(
      `strict consumer type-checks with zod ${version} (${label} of ${zodRange ?? "?"})`,
      compiled.ok && compiled.seconds < 120 && rss < 2 * 1024 * 1024,
      detail,
    );
    const executed = run("npx", ["--yes", "tsx@4.23.15", "index.ts"], { cwd: directory, timeout: 120_000 });
    record(
      `strict consumer runs with zod ${version}`,
      executed.ok && executed.stdout.includes("text"),
      executed.ok ? "" : executed.stderr.trim().split("\n").slice(-2).join(" | "),
    );
  }
}

// 4. Next to vitest 3 and vitest 5.
if (wanted("vitest")) {
  for (const vitest of ["3", "5"]) {
    const { installed } = project(`vitest-${vitest}`, {
      "@agent-tools/core": overrides["@agent-tools/core"],
      "@agent-tools/tools-fs": overrides["@agent-tools/tools-fs"],
      zod: "^4",
      vitest: `^${vitest}`,
    });
    record(`installs next to vitest ${vitest}`, installed.ok, installed.ok ? "" : installed.stderr.trim().split("\n").slice(-3).join(" | "));
  }
}

// 5. The sdk on Node 20, 22 and 24: the README's embedding example, a task and a memory call, install footprints.
if (wanted("matrix")) checkNodeMatrix({ root, work, overrides, run, record, footprint, footprints });

// 6. Every TypeScript sample of the docs, strict, against the tarballs (one result per sample).
if (wanted("docs")) {
  const { checkDocsSamples } = await import("./consumer-check/docs-samples.mjs");
  await checkDocsSamples({ root, overrides, project, run, record, out });
}

writeFileSync(path.join(out, "consumer-check.json"), JSON.stringify({ results, footprints }, null, 2));
rmSync(work, { recursive: true, force: true });
const failed = results.filter((result) => !result.ok).length;
console.log(`consumer check: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
