/**
 * The two resource tools of the trusted McpManager bundle, listed only while
 * an enabled server is known to offer resources, and the check that refuses
 * the resources of a server the host's approval denies.
 */
import type { ApprovalDecision, Logger, ToolDefinition } from "@agent-tools/core";
import type { McpResourceUpdate } from "@agent-tools/core/mcp";
import { createListMcpResourcesTool } from "./list-mcp-resources-tool.js";
import { createReadMcpResourceTool } from "./read-mcp-resource-tool.js";
import { type McpServerAccess, anyResourceServer } from "./resource-access.js";
import { McpResourceSubscriptions } from "./resource-subscriptions.js";

/** The names of the resource tools (approval rules may name them while they are not listed). */
export const MCP_RESOURCE_TOOL_NAMES = Object.freeze(["ListMcpResources", "ReadMcpResource"] as const);

/** The registry's approval as the resource tools ask it: the plugin passes its registry view. */
export interface McpApprovalView {
  readonly planMode?: boolean;
  /** With `input`, the decision for the server the input names (`callServerId`): `server:<id>` rules apply. */
  approvalDecision(toolName: string, input?: unknown): ApprovalDecision;
}

/** Options of {@link createMcpResourceTools}. */
export interface McpResourceToolsOptions extends McpServerAccess {
  /** The dynamic tools (`mcp_<server>_<tool>`) with their servers, to ask the approval about. */
  entries(): ReadonlyArray<{ readonly serverId: string; readonly definition: { readonly name: string } }>;
  approvalView?: McpApprovalView;
  onResourceUpdated?(update: McpResourceUpdate): void;
  logger?: Logger;
}

/**
 * The approval's decision for reading a server's resources: `deny` when it
 * denies every dynamic tool of the server (as `mcp_<id>_*` does), else what
 * it decides for ListMcpResources on that server (`server:<id>` and
 * `group:mcp` rules apply, tools or not). Plan mode refuses every MCP tool
 * whatever the rules say, so while it is on the last answer given outside
 * it is used for the tools, and a tool never asked about outside plan mode
 * counts as denied (fail closed).
 */
export function createServerDecision(view: McpApprovalView, entries: McpResourceToolsOptions["entries"]): (serverId: string) => ApprovalDecision {
  const outsidePlanMode = new Map<string, boolean>();
  const denied = (name: string) => {
    if (view.planMode === true) return outsidePlanMode.get(name) ?? true;
    const answer = view.approvalDecision(name) === "deny";
    outsidePlanMode.set(name, answer);
    return answer;
  };
  return (serverId) => {
    const names = entries()
      .filter((entry) => entry.serverId === serverId)
      .map((entry) => entry.definition.name);
    if (names.length > 0 && names.every(denied)) return "deny";
    return view.approvalDecision("ListMcpResources", { server: serverId });
  };
}

/** The resource tools of one set of bundles. */
export interface McpResourceTools {
  /** Both tools while an enabled server is known to offer resources, else none. */
  listed(): ToolDefinition[];
  readonly subscriptions: McpResourceSubscriptions;
}

/**
 * Creates ListMcpResources and ReadMcpResource over the bundles' runtime.
 *
 * @example
 * const resources = createMcpResourceTools({ getSettings, runtime, entries: () => tools.entries(), onResourceUpdated });
 * const listTools = () => [...managerTools, ...resources.listed()];
 */
export function createMcpResourceTools(options: McpResourceToolsOptions): McpResourceTools {
  const subscriptions = new McpResourceSubscriptions({ onResourceUpdated: options.onResourceUpdated, logger: options.logger });
  const view = options.approvalView;
  const environment = {
    ...options,
    subscriptions,
    ...(view === undefined ? {} : { serverDecision: createServerDecision(view, options.entries) }),
  };
  const tools = [createListMcpResourcesTool(environment), createReadMcpResourceTool(environment)];
  return { listed: () => (anyResourceServer(options) ? tools : []), subscriptions };
}
