/**
 * Per-call cost of serving the built-in tools over MCP: the same calls made
 * directly (`registry.executeToolCall` in this process), through the
 * `agent-tools-mcp` command over stdio, and through it over Streamable HTTP
 * (127.0.0.1, bearer token), both with the MCP SDK's own `Client`.
 *
 * Three calls: Read of a small file, Glob over a small tree, Bash `true`.
 * Calls are sequential; the three sides alternate in rounds so machine noise
 * hits them alike. Each MCP side has its own server process (built like the
 * direct registry); the direct side shares this process with the clients.
 * Nothing is asserted.
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/mcp/mcp-overhead.ts [calls per tool and side=300]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { loadMcpClientSdk, percentile } from "./bench-util.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../..");
const serverPackage = path.join(repositoryRoot, "packages/mcp-server");
const main = path.join(serverPackage, "src/cli/main.ts");
// The same ESM build of the SDK that @agent-tools/mcp-server loads.
const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await loadMcpClientSdk(serverPackage);

const calls = Number(process.argv[2] ?? 300);
const warmup = 30;
const rounds = 20;

const base = mkdtempSync(path.join(os.tmpdir(), "bench-mcp-server-"));
const workdir = path.join(base, "project");
const dataDir = path.join(base, "data");
mkdirSync(path.join(workdir, "src", "lib"), { recursive: true });
writeFileSync(path.join(workdir, "small.txt"), Array.from({ length: 40 }, (_, index) => `line ${index + 1}: some text to read`).join("\n"));
for (let index = 0; index < 50; index += 1)
  writeFileSync(path.join(workdir, "src", index % 2 ? "lib" : "", `file${index}.ts`), `export const n${index} = ${index};\n`);

const toolCalls = [
  { label: "Read small file", name: "Read", arguments: { path: "small.txt" } },
  { label: "Glob **/*.ts (50 files)", name: "Glob", arguments: { pattern: "**/*.ts" } },
  { label: "Bash true", name: "Bash", arguments: { command: "true" } },
] as const;

type Call = (name: string, args: Record<string, unknown>) => Promise<void>;

// Direct.
const registry = await buildBuiltinToolRegistry({ workdir, dataDir });
let callId = 0;
const direct: Call = async (name, args) => {
  callId += 1;
  const result = await registry.executeToolCall({ id: `c${callId}`, name, arguments: args });
  if (result.isError) throw new Error(`direct ${name} failed: ${JSON.stringify(result.content)}`);
};

// stdio: the bin in its own process.
const binArgs = ["--import", "tsx", "--conditions=@agent-tools/source", main, "--workdir", workdir, "--data-dir", dataDir];
const stdioClient = new Client({ name: "bench-stdio", version: "0.0.0" }, { capabilities: {} });
await stdioClient.connect(new StdioClientTransport({ command: process.execPath, args: binArgs, cwd: repositoryRoot, stderr: "inherit" }));
const overStdio: Call = async (name, args) => {
  const result = await stdioClient.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`stdio ${name} failed: ${JSON.stringify(result.content)}`);
};

// Streamable HTTP: the bin with --http 0 in its own process; the URL comes on stderr.
const token = "bench-token";
const httpServer = spawn(process.execPath, [...binArgs, "--http", "0", "--token", token], { cwd: repositoryRoot, stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise<string>((resolve, reject) => {
  let stderr = "";
  httpServer.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    const match = /listening on (\S+)/.exec(stderr);
    if (match) resolve(match[1] as string);
  });
  httpServer.on("exit", () => reject(new Error(`the HTTP server exited: ${stderr}`)));
});
const httpClient = new Client({ name: "bench-http", version: "0.0.0" }, { capabilities: {} });
await httpClient.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
const overHttp: Call = async (name, args) => {
  const result = await httpClient.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`http ${name} failed: ${JSON.stringify(result.content)}`);
};

const sides = [
  { label: "direct executeToolCall", call: direct },
  { label: "MCP over stdio", call: overStdio },
  { label: "MCP over Streamable HTTP", call: overHttp },
] as const;

const milliseconds = (value: number) => `${value.toFixed(2)} ms`;

console.log(
  `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`,
);
console.log(`${calls} sequential calls per tool and side (after ${warmup} warm-up calls), sides alternating in ${rounds} rounds\n`);

for (const toolCall of toolCalls) {
  for (let index = 0; index < warmup; index += 1) for (const side of sides) await side.call(toolCall.name, { ...toolCall.arguments });
  const samples = sides.map(() => [] as number[]);
  const perRound = Math.ceil(calls / rounds);
  for (let round = 0; round < rounds; round += 1) {
    for (const [sideIndex, side] of sides.entries()) {
      for (let index = 0; index < perRound && (samples[sideIndex] as number[]).length < calls; index += 1) {
        const started = performance.now();
        await side.call(toolCall.name, { ...toolCall.arguments });
        (samples[sideIndex] as number[]).push(performance.now() - started);
      }
    }
  }
  const stats = samples.map((values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  });
  const baseline = stats[0] as { p50: number; p95: number };
  console.log(toolCall.label);
  console.log(`  ${"side".padEnd(26)} ${"p50".padStart(10)} ${"p95".padStart(10)}   p50 vs direct`);
  for (const [sideIndex, side] of sides.entries()) {
    const stat = stats[sideIndex] as { p50: number; p95: number };
    const versus =
      sideIndex === 0
        ? ""
        : `x${(stat.p50 / baseline.p50).toFixed(2)}, ${stat.p50 >= baseline.p50 ? "+" : "-"}${milliseconds(Math.abs(stat.p50 - baseline.p50))} a call`;
    console.log(`  ${side.label.padEnd(26)} ${milliseconds(stat.p50).padStart(10)} ${milliseconds(stat.p95).padStart(10)}   ${versus}`);
  }
  console.log("");
}
console.log(
  `load average at the end ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`,
);

await stdioClient.close();
await httpClient.close();
await stopProcess(httpServer);
await registry.close();
rmSync(base, { recursive: true, force: true });

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
