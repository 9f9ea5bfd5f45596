/**
 * Registry build time, processes started and tokens listed with ten
 * configured stdio MCP servers, cold and with cached manifests, and the
 * first-call latency of a lazily started server (issue 39).
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/mcp/lazy-lifecycle.ts [--runs=5] [--calls=10] [--warm-calls=10]
 *
 * The servers are public reference servers we did not write (everything x3,
 * filesystem x3, memory x2, sequential-thinking x2: bench/mcp/lazy-servers.ts),
 * each process counted as it starts. Per run, interleaved:
 * - floor: `buildBuiltinToolRegistry` with its defaults and no MCP, on a new
 *   data directory and again on the same one;
 * - cold: the same with `mcp` (defaults: manifests cached in the SQLite file of
 *   a new, so empty, data directory): wall time of the build, servers started;
 * - warm: a second build on the same data directory (the manifests cached);
 * - the same cold and warm with an `InMemoryMcpManifestStore`, and
 *   `manifestCache: false` (every server connected at build, the old way);
 * - peer: bare MCP SDK `Client`s connecting to the ten servers at once and
 *   listing their tools (bench/mcp/lazy-peer.ts).
 * Tokens: o200k (gpt-tokenizer) of the tools MCP adds to what a model is
 * given (McpManager, ToolSearch, the resource tools, mcp_*: every tool not
 * listed without MCP), each as `toOpenAITools` serialises it, with
 * `toolSearch: false` and with the default ToolSearch deferral, cold and warm.
 * First call: a warm registry calls everything1's `echo` (the server starts
 * then) and `--warm-calls` more times; beside it a bare Client starts,
 * connects and calls once, then calls again. p50 / p95 over `--calls` samples.
 * Prints a table and ratios; no figure is asserted.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type OpenAITool, type ToolRegistry, toOpenAITools } from "@agent-tools/core";
import type { McpHostBundles, McpHostOptions } from "@agent-tools/core/mcp";
import { InMemoryMcpManifestStore } from "@agent-tools/mcp/manifest";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { percentile } from "./bench-util.js";
import { bareConnectAll, bareFirstCall } from "./lazy-peer.js";
import { benchServers, benchSettings, serverStarts } from "./lazy-servers.js";

const flag = (name: string, fallback: number): number => {
  const value = process.argv.slice(2).find((argument) => argument.startsWith(`--${name}=`));
  return value ? Number(value.slice(name.length + 3)) : fallback;
};
const runs = flag("runs", 5);
const calls = flag("calls", 10);
const warmCalls = flag("warm-calls", 10);

const work = mkdtempSync(path.join(os.tmpdir(), "bench-mcp-lazy-"));
const workdir = path.join(work, "project");
mkdirSync(workdir, { recursive: true });
writeFileSync(path.join(workdir, "README.md"), "# bench project\n");
const servers = benchServers(work);
const settings = benchSettings(servers);
let dataDirs = 0;
const newDataDir = () => path.join(work, "data", String((dataDirs += 1)));

interface Built {
  readonly registry: ToolRegistry & { readonly mcpToolDeferralActive?: boolean };
  readonly mcp: McpHostBundles | undefined;
  readonly ms: number;
  readonly starts: number;
}

/** Builds the SDK's registry (defaults, plus `mcp` when given) on `dataDir`: wall time and servers started. */
async function build(dataDir: string, mcp?: Omit<McpHostOptions, "getSettings" | "onReady">): Promise<Built> {
  let handle: McpHostBundles | undefined;
  const before = serverStarts(servers);
  const started = performance.now();
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir,
    ...(mcp === undefined ? {} : { mcp: { ...mcp, getSettings: () => settings, onReady: (ready: McpHostBundles) => (handle = ready) } }),
  });
  const ms = performance.now() - started;
  return { registry, mcp: handle, ms, starts: serverStarts(servers) - before };
}

/** Builds, records the time and the starts under `label`, closes. */
async function timed(label: string, dataDir: string, mcp?: Omit<McpHostOptions, "getSettings" | "onReady">): Promise<void> {
  const built = await build(dataDir, mcp);
  record(label, built.ms, built.starts);
  await built.registry.close();
}

const samples = new Map<string, { ms: number[]; starts: number[] }>();
function record(label: string, ms: number, starts: number): void {
  const entry = samples.get(label) ?? { ms: [], starts: [] };
  entry.ms.push(ms);
  entry.starts.push(starts);
  samples.set(label, entry);
}

/** The tools the registry lists without MCP: whatever else a registry with `mcp` lists is MCP's. */
let floorTools: ReadonlySet<string> = new Set();
/** The tools MCP adds to what `registry` gives a model (McpManager, ToolSearch, the resource tools, mcp_*) and their o200k tokens. */
function mcpTokens(registry: ToolRegistry): { tools: number; dynamic: number; tokens: number; names: string[] } {
  const listed = toOpenAITools(registry).filter((tool: OpenAITool) => !floorTools.has(tool.function.name));
  const tokens = listed.reduce((sum, tool) => sum + encode(JSON.stringify(tool)).length, 0);
  const names = listed.map((tool) => tool.function.name);
  return { tools: listed.length, dynamic: names.filter((name) => name.startsWith("mcp_")).length, tokens, names };
}

/** Each server's lifecycle state as the host's handle shows it. */
function states(mcp: McpHostBundles): string {
  return (mcp.servers?.() ?? []).map((server) => `${server.serverId}=${server.state}`).join(" ");
}

const cpus = os.cpus();
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
console.log(
  `MCP lazy lifecycle: ${servers.length} stdio servers (${[...new Set(servers.map((server) => server.kind))].join(", ")}), ${runs} runs, ${calls} first-call samples x ${warmCalls} warm calls`,
);
console.log(`machine: ${cpus.length} x ${cpus[0]?.model ?? "cpu"}, Node ${process.version}, load average ${load()} at the start\n`);

{
  const floor = await build(newDataDir());
  floorTools = new Set(toOpenAITools(floor.registry).map((tool) => tool.function.name));
  await floor.registry.close();
}
// Tokens, once: every MCP tool listed (toolSearch: false) and with the default deferral, cold then warm on one data directory.
const tokens: Array<[string, ReturnType<typeof mcpTokens>, boolean | undefined, number]> = [];
let tokenDir = "";
for (const [label, mcp] of [
  ["toolSearch: false", { toolSearch: false }],
  ["default ToolSearch", {}],
] as const) {
  tokenDir = newDataDir();
  for (const phase of ["cold", "warm"]) {
    const built = await build(tokenDir, mcp);
    tokens.push([`${label}, ${phase}`, mcpTokens(built.registry), built.registry.mcpToolDeferralActive, built.starts]);
    if (phase === "warm" && built.mcp?.servers) {
      const estimate = built.mcp.servers().reduce((sum, server) => sum + server.manifestTokens, 0);
      console.log(`${label}, warm build: ${states(built.mcp)}; McpManager's estimate of the manifests: ${estimate.toLocaleString("en")} tokens`);
    }
    await built.registry.close();
  }
}

let peerTools = 0;
for (let run = 0; run < runs; run += 1) {
  const floorDir = newDataDir();
  await timed("floor: no MCP, new data dir", floorDir);
  await timed("floor: no MCP, same data dir", floorDir);
  const dataDir = newDataDir();
  await timed("cold: SQLite cache empty", dataDir, {});
  await timed("warm: SQLite cache", dataDir, {});
  const store = new InMemoryMcpManifestStore();
  await timed("cold: in-memory cache empty", newDataDir(), { manifestCache: store });
  await timed("warm: in-memory cache", newDataDir(), { manifestCache: store });
  await timed("no cache (manifestCache: false)", newDataDir(), { manifestCache: false });
  const before = serverStarts(servers);
  const peer = await bareConnectAll(servers);
  record("peer: bare SDK, connect all + list", peer.ms, serverStarts(servers) - before);
  peerTools = peer.tools;
  await peer.close();
}

// First call of a lazily started server vs calls on a started one; a bare Client beside it.
const echoServer = servers.find((server) => server.id === "everything1");
if (echoServer === undefined) throw new Error("everything1 is not configured");
const lazyFirst: number[] = [];
const lazyWarm: number[] = [];
const bareFirst: number[] = [];
const bareWarm: number[] = [];
const firstCallStarts: number[] = [];
for (let sample = 0; sample < calls; sample += 1) {
  const built = await build(tokenDir, {});
  const before = serverStarts(servers);
  for (let index = 0; index <= warmCalls; index += 1) {
    const started = performance.now();
    const result = await built.registry.executeToolCall({ id: `c${sample}-${index}`, name: "mcp_everything1_echo", arguments: { message: `call ${index}` } });
    const ms = performance.now() - started;
    if (result.isError) throw new Error(`echo failed: ${JSON.stringify(result.content)}`);
    (index === 0 ? lazyFirst : lazyWarm).push(ms);
    if (index === 0) firstCallStarts.push(serverStarts(servers) - before);
  }
  if (sample === 0 && built.mcp?.servers) console.log(`states after calls on everything1: ${states(built.mcp)}`);
  await built.registry.close();
  const bare = await bareFirstCall(echoServer, warmCalls);
  bareFirst.push(bare.firstMs);
  bareWarm.push(...bare.warmMs);
}

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]) => percentile(sorted(values), 50);
const ms = (value: number) => `${Math.round(value).toLocaleString("en")} ms`;
const range = (values: readonly number[]) => `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))}`;

console.log(`\ntokens of the tools MCP adds to the list, o200k (default ToolSearch lists: ${tokens[2]?.[1].names.join(", ") ?? "-"})`);
console.log(`${"build".padEnd(30)}${"tools".padStart(6)}${"mcp_*".padStart(7)}${"tokens".padStart(8)}  deferral  servers started`);
for (const [label, counted, deferral, starts] of tokens)
  console.log(
    `${label.padEnd(30)}${String(counted.tools).padStart(6)}${String(counted.dynamic).padStart(7)}${counted.tokens.toLocaleString("en").padStart(8)}  ${String(deferral ?? "-").padEnd(8)}  ${starts}`,
  );

console.log(`\nregistry build, ${runs} runs: median (min-max) wall time, servers started per build`);
for (const [label, entry] of samples)
  console.log(`${label.padEnd(38)}${ms(median(entry.ms)).padStart(10)}  (${range(entry.ms)})  started ${[...new Set(entry.starts)].join("/")}`);
console.log(`(the bare SDK listed ${peerTools} tools)`);

const p = (values: readonly number[], at: number) => percentile(sorted(values), at);
console.log(`\nfirst call vs warm call (everything1 echo), ${calls} samples; p50 / p95`);
const callRow = (label: string, values: readonly number[]) =>
  console.log(`${label.padEnd(46)}${p(values, 50).toFixed(1).padStart(8)} / ${p(values, 95).toFixed(1)} ms`);
callRow(`registry: first call, lazy start (started ${[...new Set(firstCallStarts)].join("/")})`, lazyFirst);
callRow("registry: call on the started server", lazyWarm);
callRow("bare SDK: spawn + connect + call", bareFirst);
callRow("bare SDK: call on the open client", bareWarm);

const m = (label: string) => median(samples.get(label)?.ms ?? [Number.NaN]);
/** `a / b` as `x1.23`; below 0.1 with two significant digits and as a fraction (`x0.011, 1/88`). */
const ratio = (a: number, b: number): string => {
  const value = a / b;
  if (!Number.isFinite(value) || value <= 0) return "-";
  return value >= 0.1 ? `x${value.toFixed(2)}` : `x${value.toPrecision(2)} (1/${Math.round(1 / value)})`;
};
const cold = m("cold: SQLite cache empty");
const warm = m("warm: SQLite cache");
const peer = m("peer: bare SDK, connect all + list");
console.log("\nratios (medians)");
const ratioRow = (label: string, a: number, b: number) => console.log(`${label.padEnd(46)}${ratio(a, b)}`);
const tokensOf = (label: string) => tokens.find(([name]) => name === label)?.[1].tokens ?? Number.NaN;
ratioRow("tokens: deferral / every tool listed (cold)", tokensOf("default ToolSearch, cold"), tokensOf("toolSearch: false, cold"));
ratioRow("warm / cold build (SQLite)", warm, cold);
ratioRow("MCP's share: (warm - floor) / (cold - floor)", warm - m("floor: no MCP, same data dir"), cold - m("floor: no MCP, new data dir"));
ratioRow("warm / cold build (in-memory)", m("warm: in-memory cache"), m("cold: in-memory cache empty"));
ratioRow("ours cold / bare SDK connect-all", cold, peer);
ratioRow("ours warm / bare SDK connect-all", warm, peer);
ratioRow("lazy first call / warm call (p50)", p(lazyFirst, 50), p(lazyWarm, 50));
ratioRow("lazy first call / bare spawn+call (p50)", p(lazyFirst, 50), p(bareFirst, 50));
ratioRow("warm call / bare call (p50)", p(lazyWarm, 50), p(bareWarm, 50));
console.log(`load average at the end: ${load()}`);
rmSync(work, { recursive: true, force: true });
