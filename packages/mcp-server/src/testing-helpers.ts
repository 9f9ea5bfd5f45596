// Shared helpers of this package's tests (not exported from the package).
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ApprovalOptions, Logger } from "@agent-tools/core";
import { type BuiltinToolRegistry, type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ClientCapabilities, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "./create-mcp-server.js";
import type { AgentToolsMcpServer, McpHttpListenOptions, McpHttpListener } from "./mcp-server-options.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (where tsx is installed). */
const repositoryRoot = path.resolve(here, "../../..");
/** The edge-case MCP server of packages/mcp's tests: its `add_tool` changes its tool list. */
export const EDGE_SERVER_ENTRY = path.resolve(here, "../../mcp/src/__fixtures__/edge-server.mjs");

/** What `__fixtures__/serve-stdio.ts` serves. */
export interface FixtureConfig {
  workdir: string;
  approval?: ApprovalOptions;
  excludeTools?: string[];
  serverApproval?: "elicit" | "deny";
  /** MCP server settings for the registry's MCP bundles. */
  mcpServers?: unknown[];
}

/** The MCP settings entry of the edge server over stdio. */
export function edgeServerSettings(id = "edge"): Record<string, unknown> {
  return { id, enabled: true, transport: "stdio", command: process.execPath, args: [EDGE_SERVER_ENTRY, "stdio"], timeoutMs: 20_000 };
}

/** A temp directory removed by `cleanup()`. */
export function tempWorkdir(prefix = "mcp-server-"): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** How a test client answers elicitation requests; absent: the client does not declare the capability. */
export type ElicitationAnswer = (message: string) => ElicitResult;

function newClient(elicit?: ElicitationAnswer): Client {
  const capabilities: ClientCapabilities = elicit ? { elicitation: {} } : {};
  const client = new Client({ name: "mcp-server-test", version: "1.0.0" }, { capabilities });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  return client;
}

/** A connected client and how to end it. */
export interface TestClient {
  client: Client;
  /** What the server wrote to stderr so far (stdio only). */
  stderr(): string;
  /** The server process id (stdio only). */
  pid?: number;
  close(): Promise<void>;
}

/** Spawns the stdio fixture with `config` and connects a client to it. */
export async function connectStdio(config: FixtureConfig, elicit?: ElicitationAnswer): Promise<TestClient> {
  const transport = new StdioClientTransport({ ...stdioFixtureCommand(config), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = newClient(elicit);
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: transport.pid ?? undefined, close: () => client.close() };
}

/** The command line that runs the stdio fixture, for tests that drive it by hand. */
export function stdioFixtureCommand(config: FixtureConfig): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "__fixtures__/serve-stdio.ts")],
    cwd: repositoryRoot,
    env: { ...(process.env as Record<string, string>), MCP_SERVER_FIXTURE: JSON.stringify(config) },
  };
}

/** Connects a Streamable HTTP client to `url`, with a bearer token when given. */
export async function connectHttp(
  url: string,
  options: { token?: string; elicit?: ElicitationAnswer } = {},
): Promise<TestClient & { transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : undefined,
  });
  const client = newClient(options.elicit);
  await client.connect(transport);
  return { client, transport, stderr: () => "", close: () => client.close() };
}

/** The `initialize` request a raw JSON-RPC client sends first. */
export const RAW_INITIALIZE_REQUEST = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

/** POSTs {@link RAW_INITIALIZE_REQUEST} to a Streamable HTTP `url` with `headers` added; the response's status. */
export async function initializeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(RAW_INITIALIZE_REQUEST),
  });
  await response.body?.cancel();
  return response.status;
}

/** The answer to {@link rawPost}. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, or of a 200 answer its first event (the stream is dropped after it). */
  body: string;
}

/**
 * POSTs `body` (a string, or `size` bytes of a ping's padding streamed) to
 * `url` with `node:http`, which (unlike `fetch`) sends any `Host` header, as a
 * DNS-rebinding page's browser does. A server that answers and closes before
 * a streamed body is all sent has refused it: that is no failure.
 */
export function rawPost(url: string, headers: Record<string, string>, body: string | { size: number }): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
          if (response.statusCode === 200 && text.includes("\n\n")) response.destroy();
        });
        response.on("close", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    if (typeof body === "string") {
      request.on("error", reject);
      return request.end(body);
    }
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < body.size) {
        sent += chunk.length;
        if (!request.write(chunk)) return request.once("drain", pump);
      }
      request.end();
    };
    request.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
    pump();
  });
}

/** {@link rawPost} of {@link RAW_INITIALIZE_REQUEST}: the response's status. */
export async function rawInitializeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return (await rawPost(url, headers, JSON.stringify(RAW_INITIALIZE_REQUEST))).status;
}

/** The text of a result's text blocks. */
export function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>)
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A 1x1 PNG. */
export const TINY_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Polls `condition` every 50 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until none of `pids` exists any more. */
export function waitUntilEnded(pids: readonly number[], timeoutMs = 20_000): Promise<void> {
  return waitUntil(() => !pids.some(isAlive), `processes ${pids.join(", ")} to end`, timeoutMs);
}

/** A Bash command that prints its shell's pid and a child's pid, then waits a minute: a process tree that a cancel must end. */
export const LONG_PROCESS_TREE = "echo shell=$$; sh -c 'echo child=$$; exec sleep 60'";

/** The shell's and the child's pid once {@link LONG_PROCESS_TREE}'s output shows both; undefined before. */
export function processTreePids(output: string): number[] | undefined {
  const shell = /shell=(\d+)/.exec(output)?.[1];
  const child = /child=(\d+)/.exec(output)?.[1];
  return shell !== undefined && child !== undefined ? [Number(shell), Number(child)] : undefined;
}

/** A running Bash call of {@link LONG_PROCESS_TREE}. */
export interface ProcessTreeCall {
  /** The shell's and its child's process ids. */
  pids: number[];
  /** `"resolved"`, or the message the call rejected with. */
  settled: Promise<string>;
}

/**
 * Calls Bash with {@link LONG_PROCESS_TREE} through `client`, with progress
 * on so its output streams, and waits until both pids are printed.
 */
export async function startProcessTreeCall(client: Client, signal?: AbortSignal): Promise<ProcessTreeCall> {
  let output = "";
  const call = client.callTool({ name: "Bash", arguments: { command: LONG_PROCESS_TREE, yield_time_ms: 30_000 } }, undefined, {
    signal,
    timeout: 120_000,
    onprogress: (progress) => {
      output += progress.message ?? "";
    },
  });
  const settled = call.then(
    () => "resolved",
    (error: Error) => error.message,
  );
  await waitUntil(() => processTreePids(output) !== undefined, "the Bash call to print its shell's and child's pids");
  return { pids: processTreePids(output)!, settled };
}

/** A logger that drops everything. */
export const QUIET_LOGGER: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A built-in registry served over Streamable HTTP, and how to end both. */
export interface HttpServedRegistry {
  registry: BuiltinToolRegistry;
  server: AgentToolsMcpServer;
  listener: McpHttpListener;
  /** Closes the server, then the registry. */
  close(): Promise<void>;
}

/** Builds a registry with `registryOptions` and serves it with `listenOptions` (quiet logger). */
export async function serveRegistryOverHttp(registryOptions: BuiltinToolRegistryOptions, listenOptions: McpHttpListenOptions): Promise<HttpServedRegistry> {
  const registry = await buildBuiltinToolRegistry(registryOptions);
  const server = createMcpServer(registry, { logger: QUIET_LOGGER });
  try {
    const listener = await server.listenHttp(listenOptions);
    return {
      registry,
      server,
      listener,
      close: async () => {
        await server.close();
        await registry.close();
      },
    };
  } catch (error) {
    await server.close();
    await registry.close();
    throw error;
  }
}
