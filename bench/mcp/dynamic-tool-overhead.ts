/**
 * Per-call overhead of a dynamic MCP tool over stdio, against the same call
 * through a bare MCP SDK Client.
 *
 * Both sides talk to their own process of the same small server
 * (packages/mcp/src/__fixtures__/edge-server.mjs) and call its `echo` tool
 * sequentially. Rounds alternate between the two sides so that machine noise
 * hits both alike.
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/mcp/dynamic-tool-overhead.ts [calls=2000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolRegistry } from "@agent-tools/core";
import { createInMemoryMcpSettingsStore, createMcpToolBundles, normalizeMcpServerConfig } from "@agent-tools/mcp";
import { loadMcpClientSdk, percentile } from "./bench-util.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const mcpPackage = path.resolve(here, "../../packages/mcp");
const edgeServer = path.join(mcpPackage, "src/__fixtures__/edge-server.mjs");
// The same ESM build of the SDK that @agent-tools/mcp loads.
const { Client, StdioClientTransport } = await loadMcpClientSdk(mcpPackage);

const calls = Number(process.argv[2] ?? 2000);
const warmup = 1000;
const rounds = 40;

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

// Bare SDK client.
const bare = new Client({ name: "bench-bare", version: "0.0.0" }, { capabilities: {} });
await bare.connect(new StdioClientTransport({ command: process.execPath, args: [edgeServer, "stdio"], stderr: "pipe" }));

// agent-tools registry with the dynamic tool.
const workdir = mkdtempSync(path.join(os.tmpdir(), "bench-mcp-"));
const store = createInMemoryMcpSettingsStore({ servers: [normalizeMcpServerConfig({ id: "edge", command: process.execPath, args: [edgeServer, "stdio"] })] });
const mcp = await createMcpToolBundles({ getSettings: store.getSettings, toolSearch: false });
const registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), bundles: [...mcp.bundles], loopBreaker: false });
if (!registry.hasTool("mcp_edge_echo")) throw new Error("mcp_edge_echo was not loaded");

async function bareCall(index: number): Promise<number> {
  const started = performance.now();
  const result = await bare.callTool({ name: "echo", arguments: { text: `call ${index}` } });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error("bare call failed");
  return elapsed;
}
async function registryCall(index: number): Promise<number> {
  const started = performance.now();
  const result = await registry.executeToolCall({ id: `c${index}`, name: "mcp_edge_echo", arguments: { text: `call ${index}` } });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`registry call failed: ${JSON.stringify(result.content)}`);
  return elapsed;
}

for (let index = 0; index < warmup; index += 1) {
  await bareCall(index);
  await registryCall(index);
}
const bareSamples: number[] = [];
const registrySamples: number[] = [];
// CPU time of this (client) process per call: less sensitive to scheduling noise than wall time.
const cpu = { bare: 0, registry: 0 };
const cpuNow = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};
const perRound = Math.ceil(calls / rounds);
for (let round = 0; round < rounds; round += 1) {
  const first = round % 2 === 0 ? bareSamples : registrySamples;
  const second = first === bareSamples ? registrySamples : bareSamples;
  const run = (samples: number[]) => (samples === bareSamples ? bareCall : registryCall);
  for (const samples of [first, second]) {
    const before = cpuNow();
    for (let index = 0; index < perRound; index += 1) samples.push(await run(samples)(index));
    cpu[samples === bareSamples ? "bare" : "registry"] += cpuNow() - before;
  }
}

await registry.close();
await bare.close();
rmSync(workdir, { recursive: true, force: true });

const b = summary(bareSamples);
const r = summary(registrySamples);
const fmt = (value: number) => `${(value * 1000).toFixed(0)} µs`;
console.log(`MCP dynamic tool over stdio, ${bareSamples.length} sequential echo calls per side (node ${process.version}, ${os.cpus().length} CPUs)`);
console.log(`bare SDK Client.callTool     p50 ${fmt(b.p50)}  p99 ${fmt(b.p99)}  mean ${fmt(b.mean)}`);
console.log(`registry.executeToolCall     p50 ${fmt(r.p50)}  p99 ${fmt(r.p99)}  mean ${fmt(r.mean)}`);
console.log(
  `client CPU per call           bare ${(cpu.bare / bareSamples.length).toFixed(0)} µs  registry ${(cpu.registry / registrySamples.length).toFixed(0)} µs  (x${(cpu.registry / cpu.bare).toFixed(2)})`,
);
console.log(
  `overhead                     p50 ${fmt(r.p50 - b.p50)} (x${(r.p50 / b.p50).toFixed(2)})  p99 ${fmt(r.p99 - b.p99)} (x${(r.p99 / b.p99).toFixed(2)})  mean ${fmt(r.mean - b.mean)} (x${(r.mean / b.mean).toFixed(2)})`,
);
