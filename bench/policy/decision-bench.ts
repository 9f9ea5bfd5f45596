/**
 * Decision time of the permission policy (issue 35) per call, for rule sets
 * of 100 and 1,000 rules of realistic shape (bench-rules.ts: Bash prefixes,
 * path rules, MCP names) on typical calls (`git status`,
 * `npm run test -- --watch=false`, `cd src && grep -rn foo . | head`, a Read
 * and an Edit of `src/index.ts`):
 *
 * - explain: `registry.policy.explain(call, { runHooks: false })` of a
 *   `buildBuiltinToolRegistry` registry (argument checks, the tree-sitter
 *   parse, every rule, path resolution through the registry's path policy);
 * - evaluation: the rules alone (`evaluatePermissions` on the rules compiled
 *   once, the same parse and path resolution, no argument checks).
 *
 * Prints p50 / p95 / p99 / max per row and the target (p50 under
 * 0.2 ms for 100 rules on a typical command line). No peer: the figure is
 * absolute. Run from the repository root:
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/policy/decision-bench.ts [--runs=N] [--quick]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
// The evaluation alone is internal to @agent-tools/policy (the registry's explain is the public path).
import { type RuleEnvironment, checkPermissionSettings, compilePermissions, evaluatePermissions, loadShellParser } from "@agent-tools/policy/internal";
import { BENCH_CALLS, benchPermissions } from "./bench-rules.js";

const TARGET_P50_MS = 0.2;

interface Settings {
  runs: number;
  sizes: number[];
}

function settingsOf(argv: readonly string[]): Settings {
  const quick = argv.includes("--quick");
  const runsArgument = argv.find((argument) => argument.startsWith("--runs="));
  const runs = runsArgument === undefined ? (quick ? 300 : 3000) : Number(runsArgument.slice("--runs=".length));
  if (!Number.isInteger(runs) || runs < 10) throw new RangeError(`--runs must be an integer >= 10, got ${runsArgument}`);
  return { runs, sizes: [100, 1000] };
}

/** The value below which `share` of the sorted times lie (nearest rank). */
function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

interface Row {
  rules: number;
  kind: "explain" | "evaluation";
  call: string;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  decision: string;
}

/** Times `runs` calls of `once` after a warm-up of a tenth as many; milliseconds per call. */
async function time(runs: number, once: () => unknown): Promise<{ sorted: number[]; last: unknown }> {
  let last: unknown;
  for (let index = 0; index < Math.max(20, runs / 10); index += 1) last = await once();
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    last = await once();
    times.push(performance.now() - started);
  }
  return { sorted: times.sort((a, b) => a - b), last };
}

function rowOf(base: Omit<Row, "p50" | "p95" | "p99" | "max" | "decision">, sorted: number[], decision: string): Row {
  return { ...base, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: sorted.at(-1)!, decision };
}

function vocabularyOf(registry: BuiltinToolRegistry): ApprovalVocabulary {
  const metadata = Object.values(registry.metadataByName);
  return {
    toolNames: new Set(Object.keys(registry.metadataByName)),
    toolNamePrefixes: ["mcp_"],
    serverIds: new Set(metadata.flatMap((entry) => (entry.serverId === undefined ? [] : [entry.serverId]))),
    groupIds: new Set(metadata.map((entry) => entry.groupId)),
    knownKeys: new Set(),
  };
}

async function measureSize(size: number, workdir: string, runs: number): Promise<Row[]> {
  const permissions = benchPermissions(size);
  // The MCP servers the rules name, configured but disabled: their tools count as still to arrive, so the rules are accepted.
  const serverIds = [...new Set([...permissions.allow, ...permissions.ask, ...permissions.deny].flatMap((rule) => /^mcp_([a-z0-9]+)_/.exec(rule)?.[1] ?? []))];
  const servers = serverIds.map((id) => ({ id, enabled: false, transport: "stdio", command: "true" }));
  const mcp = { getSettings: () => ({ servers, selected: [] }) as never };
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), memory: false, mcp, permissions });
  const shell = await loadShellParser();
  const rows: Row[] = [];
  try {
    const compiled = compilePermissions(checkPermissionSettings(permissions), { vocabulary: vocabularyOf(registry), shell });
    const environment: RuleEnvironment = {
      paths: registry.paths,
      workdir: registry.workdir,
      dataDir: registry.dataDir,
      home: os.homedir(),
      metadataOf: (name) => registry.metadataByName[name],
    };
    for (const call of BENCH_CALLS) {
      const explained = await time(runs, () => registry.policy.explain({ name: call.name, arguments: call.arguments }, { runHooks: false }));
      rows.push(rowOf({ rules: size, kind: "explain", call: call.label }, explained.sorted, (explained.last as { decision: string }).decision));
      const metadata = registry.metadataByName[call.name]!;
      const evaluated = await time(runs, () => evaluatePermissions(compiled, { toolName: call.name, input: call.arguments, metadata }, environment));
      rows.push(rowOf({ rules: size, kind: "evaluation", call: call.label }, evaluated.sorted, (evaluated.last as { decision: string }).decision));
    }
  } finally {
    shell.close();
    await registry.close();
  }
  return rows;
}

const ms = (value: number) => value.toFixed(3);

function print(rows: readonly Row[]): void {
  console.log(`| rules | path | call | decision | p50 ms | p95 ms | p99 ms | max ms |`);
  console.log(`|---:|---|---|---|---:|---:|---:|---:|`);
  for (const row of rows)
    console.log(`| ${row.rules} | ${row.kind} | ${row.call} | ${row.decision} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.p99)} | ${ms(row.max)} |`);
  const typical = rows.filter((row) => row.rules === 100 && row.kind === "explain" && row.call.startsWith("Bash"));
  const worst = typical.reduce((a, b) => (b.p50 > a.p50 ? b : a));
  const verdict = worst.p50 < TARGET_P50_MS ? "met" : "MISSED";
  console.log(
    `\ntarget: p50 < ${TARGET_P50_MS} ms for 100 rules on a typical command line (explain, no hooks): worst ${ms(worst.p50)} ms (${worst.call}): ${verdict}`,
  );
}

async function main(): Promise<void> {
  const settings = settingsOf(process.argv.slice(2));
  const workdir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-policy-bench-")));
  fs.mkdirSync(path.join(workdir, "src"));
  fs.writeFileSync(path.join(workdir, "src/index.ts"), "export const a = 1;\n");
  console.log(
    `decision-bench: ${settings.runs} timed calls per row; node ${process.version}; ${os.cpus().length} cpus; load ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );
  try {
    const rows: Row[] = [];
    for (const size of settings.sizes) rows.push(...(await measureSize(size, workdir, settings.runs)));
    print(rows);
    console.log(
      `load after: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

await main();
