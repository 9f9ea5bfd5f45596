/**
 * Shared set-up of the issue-39 MCP attacks: registries built with
 * `buildBuiltinToolRegistry` over one stdio server
 * (`hostile-mcp-server.mjs`), which records its pids and the methods it
 * was asked, so a test can tell whether it was started and whether its
 * processes outlived the registry.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

/** The hostile server's script. */
export const HOSTILE_SERVER = fileURLToPath(new URL("./hostile-mcp-server.mjs", import.meta.url));

/** A temporary root for one attack file. */
export function attackRoot(prefix: string): { dir: string; cleanup(): void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Options of {@link hostileRegistry}. */
export interface HostileRegistryOptions {
  root: string;
  label: string;
  /** The server's behaviour (see hostile-mcp-server.mjs). */
  behaviour?: Record<string, unknown>;
  serverId?: string;
  env?: Record<string, string>;
  /** Shared between registries when given; else `<root>/<label>/data`. */
  dataDir?: string;
  /** Record folder of the server (shared when given). */
  records?: string;
  /** The registry's workdir (shared when given: cached manifests are kept per workspace); else `<root>/<label>/work`. */
  workdir?: string;
  mcp?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  timeoutMs?: number;
}

/** A registry with one hostile stdio server, and where that server records. */
export async function hostileRegistry(options: HostileRegistryOptions) {
  const base = path.join(options.root, options.label);
  const workdir = options.workdir ?? path.join(base, "work");
  const records = options.records ?? path.join(base, "records");
  fs.mkdirSync(workdir, { recursive: true });
  fs.mkdirSync(records, { recursive: true });
  const serverId = options.serverId ?? "hostile";
  const server = {
    id: serverId,
    enabled: true,
    transport: "stdio",
    command: process.execPath,
    args: [HOSTILE_SERVER, records, JSON.stringify(options.behaviour ?? {})],
    ...(options.env === undefined ? {} : { env: options.env }),
    timeoutMs: options.timeoutMs ?? 20_000,
  };
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: options.dataDir ?? path.join(base, "data"),
    memory: false,
    mcp: { getSettings: () => ({ servers: [server], selected: [] }) as never, toolSearch: false, ...options.mcp },
    ...options.extra,
  } as never);
  return { registry, records, workdir, serverId };
}

/** What {@link hostileRegistry} returns. */
export type HostileRegistry = Awaited<ReturnType<typeof hostileRegistry>>;

/** Runs `test` on a {@link hostileRegistry}, closing the registry after it whatever happens. */
export async function withHostileRegistry<T>(options: HostileRegistryOptions, test: (hostile: HostileRegistry) => Promise<T>): Promise<T> {
  const hostile = await hostileRegistry(options);
  try {
    return await test(hostile);
  } finally {
    await hostile.registry.close();
  }
}

/** The `extra` of a registry whose host denies or asks about server `serverId` by `server:<id>`. */
export function serverPolicy(policy: "deny" | "ask", serverId = "hostile") {
  return { approval: { policies: { [`server:${serverId}`]: policy } } };
}

/** Pids the server recorded (one per start). */
export function recordedPids(records: string): number[] {
  const file = path.join(records, "pids");
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
}

/** Methods the server was asked, in order. */
export function recordedRequests(records: string): string[] {
  const file = path.join(records, "requests.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/** True while `pid` is a live (non-zombie) process. */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Waits until `check` holds or about `attempts` * 50 ms passed; returns the last answer. */
export async function eventually(check: () => boolean, attempts = 100): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** Calls a tool the way a model would; returns the result and its text. */
export async function call(
  registry: { executeToolCall(call: { id: string; name: string; arguments: Record<string, unknown> }): Promise<unknown> },
  name: string,
  args: Record<string, unknown> = {},
) {
  const result = (await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args })) as Parameters<typeof toolResultText>[0] & {
    isError?: boolean;
  };
  return { result, text: toolResultText(result, ""), isError: result.isError === true };
}

/** The registry's tool names starting with mcp_. */
export function mcpToolNames(registry: { tools: ReadonlyArray<{ name: string }> }): string[] {
  return registry.tools.map((tool) => tool.name).filter((name) => name.startsWith("mcp_"));
}
