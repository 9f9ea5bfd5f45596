// Helpers that start real MCP servers for the tests.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfigInput } from "../settings.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, "../..");
/** The everything reference server's entry. */
export const EVERYTHING_ENTRY = path.join(packageDir, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
/** The filesystem reference server's entry. */
export const FILESYSTEM_ENTRY = path.join(packageDir, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
/** Our edge-case server. */
export const EDGE_ENTRY = path.join(here, "edge-server.mjs");
export const LONG_TOOL_NAME = "this_is_a_very_long_tool_name_that_goes_on_and_on_beyond_the_sixty_four_character_limit";

export function everythingStdio(id = "everything"): McpServerConfigInput {
  return { id, command: process.execPath, args: [EVERYTHING_ENTRY, "stdio"], timeoutMs: 20_000 };
}
export function filesystemStdio(root: string, id = "files"): McpServerConfigInput {
  return { id, command: process.execPath, args: [FILESYSTEM_ENTRY, root], timeoutMs: 20_000 };
}
export function edgeStdio(id = "edge", env?: Record<string, string>): McpServerConfigInput {
  return { id, command: process.execPath, args: [EDGE_ENTRY, "stdio"], env, timeoutMs: 20_000 };
}

/** The raw JSON-RPC stdio server: broken tool schemas, a nameless tool, results of any size. */
export const RAW_ENTRY = path.join(here, "raw-stdio-server.mjs");
export function rawStdio(id = "raw"): McpServerConfigInput {
  return { id, command: process.execPath, args: [RAW_ENTRY], timeoutMs: 30_000 };
}

export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** A server process listening on HTTP. */
export interface HttpServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${seen}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3_000).unref();
    });
}

/** Starts the everything server over Streamable HTTP (or legacy SSE) on a free port. */
export async function startEverythingHttp(mode: "streamableHttp" | "sse" = "streamableHttp"): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  await waitFor(child, /listening on port|running on port/i);
  return { url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`, port, child, stop: stopper(child) };
}

/** Starts the legacy SSE server that never announces an endpoint; `/secure` answers 401. */
export async function startLegacySse(): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [path.join(here, "legacy-sse-server.mjs")], { stdio: ["ignore", "pipe", "pipe"] });
  const match = await waitFor(child, /LISTENING (\d+)/);
  const port = Number(match[1]);
  return { url: `http://127.0.0.1:${port}/sse`, port, child, stop: stopper(child) };
}

/** Starts the edge server over Streamable HTTP (unknown sessions get 404). */
export async function startEdgeHttp(): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [EDGE_ENTRY, "http", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  const match = await waitFor(child, /LISTENING (\d+)/);
  const port = Number(match[1]);
  return { url: `http://127.0.0.1:${port}/mcp`, port, child, stop: stopper(child) };
}

import { type Logger, type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { createInMemoryMcpSettingsStore, type McpSettingsStore } from "../apply-mcp-ops.js";
import { type McpToolBundleOptions, type McpToolBundles, createMcpToolBundles } from "../mcp-tool-bundles.js";

/** A logger that records warnings instead of printing them. */
export function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug: () => undefined, info: () => undefined, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
}

/** A registry with the MCP bundles over an in-memory settings store. */
export interface McpTestSetup {
  store: McpSettingsStore;
  mcp: McpToolBundles;
  registry: ToolRegistry;
  logger: ReturnType<typeof recordingLogger>;
  workdir: string;
  close(): Promise<void>;
}

export async function setupMcp(
  servers: McpServerConfigInput[],
  options: Partial<McpToolBundleOptions> & { runtimeScope?: "chat" | "cron"; extraBundles?: import("@agent-tools/core").ToolBundle[]; readOnly?: boolean } = {},
): Promise<McpTestSetup> {
  const work = tempDir("mcp-test-");
  const logger = recordingLogger();
  const store = createInMemoryMcpSettingsStore({ servers: servers as never });
  const { extraBundles = [], readOnly, ...rest } = options;
  const mcp = await createMcpToolBundles({ getSettings: store.getSettings, applyOps: readOnly ? undefined : store.applyOps, logger, ...rest });
  const registry = createToolRegistry({
    workdir: work.dir,
    dataDir: path.join(work.dir, ".data"),
    runtimeScope: options.runtimeScope,
    bundles: [...extraBundles, ...mcp.bundles],
    logger,
    loopBreaker: false,
  });
  return {
    store,
    mcp,
    registry,
    logger,
    workdir: work.dir,
    async close() {
      await registry.close();
      work.cleanup();
    },
  };
}

/** The text of a result's text blocks. */
export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}
