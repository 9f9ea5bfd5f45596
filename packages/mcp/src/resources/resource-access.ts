/**
 * What the resource tools and the host's prompt calls share: finding an
 * enabled server by id (a wrong id fails `not_found` naming the closest),
 * what a server declared (live, else from its manifest), starting it
 * through the runtime, and the failures a model reads.
 */
import { type ApprovalDecision, type RuntimeScope, type ToolMetadata, ToolError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpRuntime } from "../mcp-runtime.js";
import type { McpServerConfig, McpSettings } from "../settings.js";
import { selectEnabledMcpServers } from "../settings.js";
import type { McpResourceSubscriptions } from "./resource-subscriptions.js";

/** What a server declared at initialize, in the manifest's terms. */
export interface McpServerFeatures {
  resources?: boolean;
  resourceSubscribe?: boolean;
  prompts?: boolean;
}

/** What the resource and prompt code needs of its bundles. */
export interface McpServerAccess {
  getSettings(): McpSettings;
  runtime: McpRuntime;
  /** True on a sandboxed host: stdio servers are never started. */
  sandbox?: boolean;
  /** What a server not connected now declared, from its cached manifest (the lazy lifecycle supplies it). */
  manifestFeatures?(serverId: string): McpServerFeatures | undefined;
  /** Runs one use of a server (a resource read, a prompt get) so its idle clock does not stop it meanwhile. */
  withUse?<T>(serverId: string, run: () => Promise<T>): Promise<T>;
}

/** The enabled server `serverId`, or `not_found` naming the closest enabled id. */
export function enabledServer(access: McpServerAccess, serverId: string, what = "MCP server"): McpServerConfig {
  const enabled = selectEnabledMcpServers(access.getSettings());
  const server = enabled.find((candidate) => candidate.id === serverId);
  if (server) return server;
  const ids = enabled.map((candidate) => candidate.id);
  const closest = closestName(serverId, ids);
  const hint = closest === undefined ? "" : ` Did you mean "${closest}"?`;
  throw new ToolError("not_found", `No enabled ${what} named "${serverId}".${hint} Enabled servers: ${ids.join(", ") || "(none)"}.`, {
    details: { serverId, ...(closest === undefined ? {} : { suggestion: closest }) },
  });
}

/** What `serverId` declared: its live connection's capabilities, else its manifest's; undefined when unknown. */
export function serverFeatures(access: McpServerAccess, serverId: string): McpServerFeatures | undefined {
  const connection = access.runtime.peek(serverId);
  const live = connection && connection.state !== "closed" ? connection.serverCapabilities : undefined;
  return live ?? access.manifestFeatures?.(serverId);
}

/** The client of `server`, started or connected on demand (a sandboxed host never starts a stdio server). */
export async function connectServer(access: McpServerAccess, server: McpServerConfig, signal?: AbortSignal): Promise<Client> {
  const connection = access.runtime.connectionFor(server);
  if (access.sandbox && server.transport === "stdio" && connection.state !== "connected") {
    throw new ToolError("permission_denied", `MCP server ${server.id} is a stdio server and this host runs sandboxed: it cannot be started.`, {
      recoverable: false,
    });
  }
  try {
    return await connection.connect(signal);
  } catch (error) {
    if (signal?.aborted || error instanceof ToolError) throw error;
    throw new ToolError("unavailable", `MCP server ${server.id} could not be started: ${(error as Error)?.message ?? String(error)}`, {
      details: { serverId: server.id },
    });
  }
}

/** Runs `run` as one use of `serverId` (see {@link McpServerAccess.withUse}). */
export function useServer<T>(access: McpServerAccess, serverId: string, run: () => Promise<T>): Promise<T> {
  return access.withUse ? access.withUse(serverId, run) : run();
}

/** The MCP code of "resource not found" (the protocol's resource error). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A failed request to `serverId` as the model reads it: an unknown resource
 * or invalid parameters are `not_found` / `invalid_arguments` with the
 * server's words; an abort passes through; the rest is `unavailable`.
 */
export function requestFailure(serverId: string, what: string, error: unknown, signal?: AbortSignal, notFoundHint = ""): unknown {
  if (signal?.aborted || error instanceof ToolError) return error;
  if (error instanceof McpError) {
    const words = error.message.replace(/^MCP error -?\d+: /, "");
    if (error.code === RESOURCE_NOT_FOUND)
      return new ToolError("not_found", `${what} on MCP server ${serverId}: ${words}.${notFoundHint}`, { details: { serverId } });
    if (error.code === ErrorCode.InvalidParams)
      return new ToolError("invalid_arguments", `${what} on MCP server ${serverId} was refused: ${words}.${notFoundHint}`, { details: { serverId } });
    if (error.code === ErrorCode.MethodNotFound)
      return new ToolError("unavailable", `MCP server ${serverId} does not implement this (${words}).`, { details: { serverId } });
    if (error.code === ErrorCode.RequestTimeout)
      return new ToolError("timeout", `MCP server ${serverId} did not answer ${what} in time.`, { details: { serverId } });
  }
  const message = (error as Error)?.message ?? String(error);
  return new ToolError("unavailable", `${what} on MCP server ${serverId} failed: ${message}`, { details: { serverId } });
}

/** What the two resource tools need. */
export interface McpResourceToolEnvironment extends McpServerAccess {
  subscriptions: McpResourceSubscriptions;
  /**
   * The host's approval for reading a server's resources (`deny` when it
   * denies the server as a whole: `server:<id>`, `mcp_<id>_*`, each of its
   * tools). The registry's own check of a call already applies it to the
   * server a call names; this covers `mcp_<id>_*` and the servers of a
   * listing without `server`. Absent: `allow`.
   */
  serverDecision?(serverId: string): ApprovalDecision;
}

/** The server a resource tool's input names, for approval (`callServerId`); the input may not be validated yet. */
export function serverOf(input: unknown): string | undefined {
  const server = input !== null && typeof input === "object" ? (input as { server?: unknown }).server : undefined;
  return typeof server === "string" ? server : undefined;
}

/** Refuses a server the host's approval denies (see {@link McpResourceToolEnvironment.serverDecision}). */
export function assertNotDenied(environment: McpResourceToolEnvironment, serverId: string): void {
  if (environment.serverDecision?.(serverId) !== "deny") return;
  throw new ToolError("permission_denied", `The host's approval rules deny MCP server ${serverId}; its resources cannot be read either. Do not retry.`, {
    recoverable: false,
    details: { serverId },
  });
}

/** Enabled servers whose resources may be listed: those that declared resources, or whose capabilities are not known yet. */
export function resourceServerCandidates(environment: McpResourceToolEnvironment): McpServerConfig[] {
  return selectEnabledMcpServers(environment.getSettings()).filter((server) => serverFeatures(environment, server.id)?.resources !== false);
}

/** True while at least one enabled server is known to offer resources (the resource tools are listed then). */
export function anyResourceServer(access: McpServerAccess): boolean {
  return selectEnabledMcpServers(access.getSettings()).some((server) => serverFeatures(access, server.id)?.resources === true);
}

/** The metadata and scopes ListMcpResources and ReadMcpResource share (read-only, open-world, listed in plan mode); `kind` is the tool's own. */
export function resourceToolTraits(kind: "list" | "read"): { metadata: Partial<ToolMetadata>; scopes: readonly RuntimeScope[] } {
  return {
    metadata: {
      groupId: "mcp",
      kind,
      isReadOnly: true,
      displayCategory: "mcp",
      annotations: { readOnly: true, openWorld: true, listedInPlanMode: true },
    },
    scopes: ["chat", "cron"],
  };
}
