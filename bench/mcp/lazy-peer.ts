/**
 * The peer of the lazy-lifecycle bench: bare MCP SDK `Client`s (the SDK
 * build @agent-tools/mcp loads), started with the same command, arguments,
 * working directory and environment as the registry's servers. What
 * "connect every server at build" costs without us, and what one start and
 * one call cost at the least.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMcpClientSdk } from "./bench-util.js";
import type { BenchServer } from "./lazy-servers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const sdk = await loadMcpClientSdk(path.resolve(here, "../../packages/mcp"));

type BareClient = InstanceType<typeof sdk.Client>;

/** Starts `server` and connects a bare client to it (initialize handshake done). */
async function connect(server: BenchServer): Promise<BareClient> {
  const client = new sdk.Client({ name: "bench-bare", version: "0.0.0" }, { capabilities: {} });
  // The SDK adds its default environment (PATH, HOME...) to `env`, as it does for the registry's servers.
  const transport = new sdk.StdioClientTransport({ command: server.command, args: server.args, cwd: server.cwd, env: server.env, stderr: "pipe" });
  await client.connect(transport);
  return client;
}

/** Bare SDK: connects to every server at once and lists each one's tools; the wall time and the tools listed. */
export async function bareConnectAll(servers: readonly BenchServer[]): Promise<{ ms: number; tools: number; close(): Promise<void> }> {
  const started = performance.now();
  const clients = await Promise.all(
    servers.map(async (server) => {
      const client = await connect(server);
      const listed = await client.listTools();
      return { client, tools: listed.tools.length };
    }),
  );
  const ms = performance.now() - started;
  return {
    ms,
    tools: clients.reduce((sum, entry) => sum + entry.tools, 0),
    close: async () => {
      await Promise.all(clients.map((entry) => entry.client.close()));
    },
  };
}

/** Bare SDK: starts `server`, connects and calls its `echo` once (what a lazy first call costs at the least); then `warmCalls` more calls on the open client. */
export async function bareFirstCall(server: BenchServer, warmCalls: number): Promise<{ firstMs: number; warmMs: number[] }> {
  const started = performance.now();
  const client = await connect(server);
  await echo(client, "first");
  const firstMs = performance.now() - started;
  const warmMs: number[] = [];
  try {
    for (let index = 0; index < warmCalls; index += 1) {
      const callStarted = performance.now();
      await echo(client, `call ${index}`);
      warmMs.push(performance.now() - callStarted);
    }
  } finally {
    await client.close();
  }
  return { firstMs, warmMs };
}

async function echo(client: BareClient, message: string): Promise<void> {
  const result = await client.callTool({ name: "echo", arguments: { message } });
  if (result.isError) throw new Error(`bare echo failed: ${JSON.stringify(result.content)}`);
}
