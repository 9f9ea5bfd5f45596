import { type ChildSpanOptions, type Logger, type ToolBundle, type ToolDefinition, ToolError, traceChildSpan } from "@agent-tools/core";
import type { McpToolTarget } from "@agent-tools/core/mcp";
import { mapMcpCallResult } from "./content-mapping.js";
import type { McpRuntime } from "./mcp-runtime.js";
import { coerceMcpInputSchema } from "./remote-tool-schema.js";
import type { McpRemoteTool } from "./mcp-remote-types.js";
import { changedToolFields, toolChangedError } from "./lifecycle/tool-changed.js";
import { mayMeanToolGone, toolGoneError } from "./lifecycle/tool-gone.js";
import { mcpToolAnnotations } from "./mcp-tool-annotations.js";
import { mcpToolEffects } from "./mcp-tool-effects.js";
import { type McpSettings, selectEnabledMcpServers } from "./settings.js";
import { buildMcpToolName, mcpToolNamePrefixes } from "./tool-naming.js";

export type { McpToolTarget } from "@agent-tools/core/mcp";

/** One dynamic tool and where it goes. */
export interface McpToolEntry extends McpToolTarget {
  definition: ToolDefinition;
  remote: McpRemoteTool;
}

/** The untrusted bundle of `mcp_<server>_<tool>` tools, with its reverse map. */
export interface McpDynamicToolBundle extends ToolBundle {
  /** `(server, tool)` behind a dynamic tool name, for hosts and approval rules. */
  resolveToolName(name: string): McpToolTarget | undefined;
  /** Every dynamic tool of enabled servers, exposed or not. */
  entries(): McpToolEntry[];
  /**
   * Rebuilds the tool list from the runtime's live listings and cached
   * manifests; called after loads, listings and list_changed. Tells the `onToolsChanged` listeners when the
   * list changed.
   */
  rebuild(): void;
  /** Tells the `onToolsChanged` listeners (e.g. after ToolSearch exposed a hidden tool). */
  notifyToolsChanged(): void;
  /** Subscribes to changes of the dynamic tools or of which are exposed; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
}

/** What the dynamic bundle needs. */
export interface DynamicToolBundleOptions {
  getSettings(): McpSettings;
  runtime: McpRuntime;
  logger?: Logger;
  sandbox?: boolean;
  /** False for tools kept callable but hidden from the model (ToolSearch lazy load). */
  isExposed?(name: string): boolean;
  /** Runs at the end of a `rebuild()` that changed the list, before the listeners are told (to update what `isExposed` answers). */
  onRebuilt?(): void;
}

/**
 * The child span of one MCP `tools/call` (after OpenTelemetry's MCP semantic
 * conventions): kind client, the method, the remote tool's own name, the
 * server id and its transport.
 */
function mcpCallSpanOptions(serverId: string, transport: string, toolName: string): ChildSpanOptions {
  return {
    kind: SPAN_KIND_CLIENT,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": toolName,
      "agent_tools.mcp.server_id": serverId,
      "network.transport": transport === "stdio" ? "pipe" : "tcp",
    },
  };
}

const SPAN_KIND_CLIENT = 2;

/** The description a model sees: `[MCP:<server>] <description or name>`. */
export function describeMcpTool(serverLabel: string, tool: McpRemoteTool): string {
  const text = (tool.description ?? "").trim() || tool.title || tool.name;
  return serverLabel ? `[MCP:${serverLabel}] ${text}` : `[MCP] ${text}`;
}

function sameRemoteTool(a: McpRemoteTool, b: McpRemoteTool): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function allowsExtraKeys(schema: Record<string, unknown>): boolean {
  const extra = schema.additionalProperties;
  return extra === true || (typeof extra === "object" && extra !== null);
}

/**
 * Creates the dynamic MCP bundle (`trusted: false`, so a name that collides
 * with a built-in is skipped by the registry with a warning). Calls go to the
 * runtime's connection of the server, one at a time per server.
 */
export function createMcpDynamicToolBundle(options: DynamicToolBundleOptions): McpDynamicToolBundle {
  let entries = new Map<string, McpToolEntry>();
  const warned = new Set<string>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        options.logger?.warn(`An MCP tools-changed listener threw: ${String(error)}`);
      }
    }
  };

  function makeDefinition(name: string, serverId: string, remote: McpRemoteTool): ToolDefinition {
    const jsonSchema = coerceMcpInputSchema(remote.inputSchema).schema;
    const meta = { serverId, serverLabel: serverId, tool: remote.name };
    return {
      name,
      description: describeMcpTool(serverId, remote),
      jsonSchema,
      metadata: { groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId, annotations: mcpToolAnnotations(remote) },
      effects: mcpToolEffects(remote),
      scopes: ["chat", "cron"],
      allowUnknownArguments: allowsExtraKeys(jsonSchema),
      async execute(input: Record<string, unknown>, context) {
        const server = selectEnabledMcpServers(options.getSettings()).find((candidate) => candidate.id === serverId);
        if (!server)
          throw new ToolError("unavailable", `MCP server ${serverId} is no longer enabled; ${name} cannot run. Use McpManager action=list to see the servers.`);
        // One use of the server: it starts here if it is not running (lazy start), and its idle clock waits for the call.
        return options.runtime.use(server, async (connection) => {
          if (options.sandbox && server.transport === "stdio" && connection.state !== "connected") {
            throw new ToolError("permission_denied", `MCP server ${serverId} is a stdio server and this host runs sandboxed: it cannot be started.`, {
              recoverable: false,
            });
          }
          if (connection.listedAt === undefined) {
            // The first call starts the server; its live listing replaces the cached manifest.
            try {
              await connection.connect(context.signal);
            } catch (error) {
              throw connection.describeFailure(error, context.signal);
            }
          }
          const live = connection.tools.find((tool) => tool.name === remote.name);
          if (!live) throw toolGoneError(name, remote.name, serverId);
          // The call was checked (and approved) against `remote`; a live definition that differs is another tool: not sent.
          const changed = changedToolFields(remote, live);
          if (changed.length > 0) throw toolChangedError(name, remote.name, serverId, changed);
          const confirmGone = async () => {
            const listed = await connection.listTools(undefined, context.signal).catch(() => undefined);
            if (listed && !listed.some((tool) => tool.name === remote.name)) throw toolGoneError(name, remote.name, serverId);
          };
          let result: Awaited<ReturnType<typeof connection.callTool>>;
          try {
            result = await traceChildSpan(
              context.telemetry,
              `tools/call ${remote.name}`,
              mcpCallSpanOptions(serverId, server.transport, remote.name),
              async (span) => {
                const answer = await connection.callTool(remote.name, input, {
                  signal: context.signal,
                  onProgress: (progress) => context.onUpdate({ text: progress.message, data: { kind: "mcp_progress", ...progress } }),
                  onTaskUpdate: (update) => context.onUpdate({ text: update.message ?? update.statusMessage, data: { kind: "mcp_task", ...update } }),
                });
                if (answer.isError === true) {
                  span.setAttribute("error.type", "tool_error");
                  span.setStatus({ code: 2, message: "tool_error" });
                }
                return answer;
              },
            );
          } catch (error) {
            if (!context.signal.aborted && mayMeanToolGone({ error })) await confirmGone();
            throw error;
          }
          if (mayMeanToolGone({ result })) await confirmGone();
          return mapMcpCallResult(result, meta);
        });
      },
    };
  }

  const bundle: McpDynamicToolBundle = {
    id: "mcp",
    trusted: false,
    listTools() {
      const enabled = new Set(selectEnabledMcpServers(options.getSettings()).map((server) => server.id));
      const out: ToolDefinition[] = [];
      for (const entry of entries.values()) if (enabled.has(entry.serverId)) out.push(entry.definition);
      return out;
    },
    isExposed: (name) => options.isExposed?.(name) ?? true,
    approvalTargets() {
      const servers = (options.getSettings().servers ?? []).filter((server) => typeof server.id === "string" && server.id.trim() !== "");
      const listed = new Set([...entries.values()].map((entry) => entry.serverId));
      return {
        serverIds: servers.map((server) => server.id),
        // Tools of a server not connected yet (disabled, failed) are unknown: rules may name them by the server's prefix.
        toolNamePrefixes: servers.filter((server) => !listed.has(server.id)).flatMap((server) => mcpToolNamePrefixes(server.id)),
      };
    },
    resolveToolName(name) {
      const entry = entries.get(name) ?? [...entries.values()].find((candidate) => candidate.definition.name.toLowerCase() === name.trim().toLowerCase());
      return entry ? { serverId: entry.serverId, toolName: entry.toolName } : undefined;
    },
    entries() {
      const enabled = new Set(selectEnabledMcpServers(options.getSettings()).map((server) => server.id));
      return [...entries.values()].filter((entry) => enabled.has(entry.serverId));
    },
    rebuild() {
      const next = new Map<string, McpToolEntry>();
      for (const server of selectEnabledMcpServers(options.getSettings())) {
        // The live listing of a running server, else its cached manifest (the server is started on the first call).
        const listing = options.runtime.listingFor(server);
        if (!listing) continue;
        for (const warning of listing.warnings) {
          if (warned.has(warning)) continue;
          warned.add(warning);
          options.logger?.warn(warning);
        }
        for (const remote of listing.tools) {
          const name = buildMcpToolName(server.id, remote.name);
          const clash = next.get(name);
          if (clash) {
            const key = `${server.id}:${remote.name}`;
            if (!warned.has(key)) {
              warned.add(key);
              options.logger?.warn(
                `MCP tool ${remote.name} of ${server.id} maps to ${name}, already used by ${clash.serverId}/${clash.toolName}; it is skipped.`,
              );
            }
            continue;
          }
          const previous = entries.get(name);
          // The same tool (a live listing equal to the manifest it replaces) keeps its definition: nothing changed for the model.
          const same = previous && previous.serverId === server.id && (previous.remote === remote || sameRemoteTool(previous.remote, remote));
          const definition = same ? previous.definition : makeDefinition(name, server.id, remote);
          next.set(name, { serverId: server.id, toolName: remote.name, definition, remote });
        }
      }
      const changed = next.size !== entries.size || [...next].some(([name, entry]) => entries.get(name)?.definition !== entry.definition);
      entries = next;
      if (!changed) return;
      options.onRebuilt?.();
      notify();
    },
    notifyToolsChanged: notify,
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await options.runtime.close();
    },
  };
  return bundle;
}
