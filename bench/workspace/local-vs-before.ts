/**
 * The local file tools of one checkout of this repository, timed through
 * `buildBuiltinToolRegistry` + `registry.executeToolCall` (the path a host
 * uses), for the comparison with the tree before issue 33 (a4a42a8). The
 * packages are loaded from the given tree's built `dist` (run its build
 * first), so the same script times any checkout, old or new:
 *
 *   pnpm exec tsx bench/workspace/local-vs-before.ts --tree=/path/to/checkout [--workspace=local|none] [--runs=N] [--only=read-small,glob]
 *
 * prints one JSON object: per operation the median of N runs after one
 * warm-up, every time, what the call found, and (with `--workspace=local`)
 * the calls the tools made to the workspace's ports. `--workspace=local`
 * builds the registry with `workspace: createLocalWorkspace({ root })`
 * (needs a tree that has it); `none` (the default) builds it as a4a42a8's
 * hosts did, without one.
 *
 * With `--serve` it times one operation per request instead, for the driver
 * (local-vs-before-driver.ts) that interleaves two trees call by call: a
 * JSON line on stdin `{"id": "glob"}` answers `{"ms": 12.3, "summary": ".."}`
 * on stdout (`cpuMs`: the CPU time of the process during the call, its
 * worker threads included, child processes such as `rg` not: steadier than
 * the wall time on a loaded machine); `{"id": "ports"}` answers the port
 * calls so far.
 *
 * The data is a fresh copy of rules-3k (bench/fs/make-repository.ts), made
 * per process and removed at its end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import type { ToolRegistry } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { copyRulesTree } from "./copy-tree.js";
import { countingWorkspace } from "./counting-workspace.js";
import { localOperations, type Operation, resultSummary } from "./local-vs-before-operations.js";

/** How one tree's figures are taken. */
export interface TreeSettings {
  readonly tree: string;
  readonly workspace: "local" | "none";
  readonly source: string;
}

/** The figures of one operation. */
export interface OperationFigure {
  readonly id: string;
  readonly label: string;
  readonly medianMs: number;
  readonly timesMs: number[];
  readonly summary: string;
}

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);

/** The median of `values` (the upper middle one for an even count). */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** rules-3k as bench/fs/make-repository.ts builds it. */
export function defaultSource(): string {
  return path.join(os.tmpdir(), "agent-tools-bench-fs", "rules-3k");
}

/** A registry of `settings.tree` on a fresh copy of the data, its operations and its clean-up. */
async function openTree(settings: TreeSettings) {
  const base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-local-vs-before-"));
  const root = path.join(base, "rules-3k");
  copyRulesTree(settings.source, root);
  const load = (pkg: string) => import(pathToFileURL(path.join(settings.tree, "packages", pkg, "dist", "index.js")).href);
  const sdk = await load("sdk");
  let local: Workspace | undefined;
  let portCalls = new Map<string, number>();
  let workspace: Workspace | undefined;
  if (settings.workspace === "local") {
    const node = await load("node");
    if (typeof node.createLocalWorkspace !== "function") throw new Error(`${settings.tree} has no createLocalWorkspace: use --workspace=none`);
    local = (await node.createLocalWorkspace({ root })) as Workspace;
    const counted = countingWorkspace(local);
    workspace = counted.workspace;
    portCalls = counted.calls;
  }
  const registry = (await sdk.buildBuiltinToolRegistry({
    workdir: root,
    dataDir: path.join(base, "data"),
    memory: false,
    ...(workspace ? { workspace } : {}),
  })) as ToolRegistry & { close(): Promise<void> };
  const operations = localOperations(registry, root);
  portCalls.clear(); // the calls of building the registry (the root's realpath and stat) are not an operation's
  return {
    operations,
    portCalls,
    async close() {
      await registry.close();
      await local?.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Times `operation` once (its untimed preparation first). */
export async function timeOnce(operation: Operation): Promise<{ ms: number; cpuMs: number; summary: string }> {
  await operation.prepare?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await operation.run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1_000, summary: resultSummary(result) };
}

/** Every operation (or those in `only`) `runs` times after one warm-up, one after another. */
async function figures(
  settings: TreeSettings,
  runs: number,
  only?: ReadonlySet<string>,
): Promise<{ figures: OperationFigure[]; ports: Record<string, number> }> {
  const tree = await openTree(settings);
  try {
    const result: OperationFigure[] = [];
    for (const operation of tree.operations) {
      if (only && !only.has(operation.id)) continue;
      const { summary } = await timeOnce(operation);
      const timesMs: number[] = [];
      for (let index = 0; index < runs; index += 1) timesMs.push((await timeOnce(operation)).ms);
      result.push({ id: operation.id, label: operation.label, medianMs: medianOf(timesMs), timesMs, summary });
    }
    return { figures: result, ports: Object.fromEntries(tree.portCalls) };
  } finally {
    await tree.close();
  }
}

/** Answers the driver's requests on stdin, one JSON line each, until stdin ends. */
async function serve(settings: TreeSettings): Promise<void> {
  const tree = await openTree(settings);
  const byId = new Map(tree.operations.map((operation) => [operation.id, operation]));
  const answer = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  answer({ ready: true, operations: tree.operations.map(({ id, label }) => ({ id, label })) });
  try {
    for await (const line of createInterface({ input: process.stdin })) {
      const { id } = JSON.parse(line) as { id: string };
      if (id === "ports") {
        answer({ ports: Object.fromEntries(tree.portCalls) });
        continue;
      }
      const operation = byId.get(id);
      if (!operation) {
        answer({ error: `unknown operation ${id}` });
        continue;
      }
      try {
        answer(await timeOnce(operation));
      } catch (error) {
        answer({ error: String(error instanceof Error ? error.message : error) });
      }
    }
  } finally {
    await tree.close();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const tree = option("tree");
  if (!tree) throw new Error("--tree=<checkout> is required (a built checkout of this repository)");
  const workspace = option("workspace") ?? "none";
  if (workspace !== "local" && workspace !== "none") throw new Error(`--workspace=${workspace}: expected local or none`);
  const settings: TreeSettings = { tree: path.resolve(tree), workspace, source: option("source") ?? defaultSource() };
  if (process.argv.includes("--serve")) {
    await serve(settings);
  } else {
    const runs = Number(option("runs") ?? 7);
    const only = option("only") ? new Set(option("only")!.split(",")) : undefined;
    const measured = await figures(settings, runs, only);
    console.log(JSON.stringify({ ...settings, node: process.version, runs, load: os.loadavg(), ...measured }, null, 2));
  }
}
