import { type ToolDefinition, ToolError, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { type McpManagerEnvironment, CRON_REFUSED_ACTIONS, MCP_MANAGER_ACTIONS, SETTINGS_WRITE_ACTIONS, ManagerReport } from "./mcp-manager-support.js";
import { runRuntimeAction } from "./mcp-manager-runtime-actions.js";
import { runSettingsAction } from "./mcp-manager-settings-actions.js";

const serverFields = {
  id: z.string().describe("The server name; tools appear as mcp_<id>_<tool>."),
  description: z.string().optional(),
  docsUrl: z.string().optional(),
  enabled: z.boolean().optional().describe("Default true."),
  transport: z.enum(["stdio", "http", "sse"]).optional().describe("stdio (default), http (Streamable HTTP) or sse (legacy)."),
  command: z.string().optional().describe("stdio: the executable, e.g. npx."),
  args: z.array(z.string()).optional().describe("stdio: its arguments."),
  url: z.string().optional().describe("http/sse: the endpoint URL."),
  env: z.record(z.string(), z.string()).optional().describe("stdio: environment variables."),
  cwd: z.string().optional().describe("stdio: working directory; relative paths resolve against the workspace."),
  headers: z.record(z.string(), z.string()).optional().describe("http/sse: request headers."),
  timeoutMs: z.number().optional().describe("Connect and per-request timeout in ms; default 60000."),
  messageUrl: z.string().optional().describe("sse: POST endpoint, relative to url, for servers that announce none."),
};

/** Input of McpManager. */
export const mcpManagerInputSchema = z.object({
  action: z.enum(MCP_MANAGER_ACTIONS).describe("What to do."),
  server_id: z.string().optional().describe("The server to act on."),
  server_ids: z.array(z.string()).optional().describe("Several servers (delete, enable, disable, stop)."),
  server: z.object(serverFields).optional().describe("A full configuration: for create, or an inline (unsaved) validate/test/diagnose/tools."),
  patch: z.object(serverFields).partial().optional().describe("update: fields to change; the id cannot change."),
  conflict: z.enum(["fail", "overwrite"]).optional().describe("create: when the id exists; default fail."),
  include_disabled: z.boolean().optional().describe("list: include disabled servers; default true."),
  include_tools: z.boolean().optional().describe("list/test: include tool names."),
  include_schema: z.boolean().optional().describe("tools/test: include each tool's input schema."),
  include_stderr: z.boolean().optional().describe("test/diagnose/restart: include the server's stderr tail; default true only for diagnose."),
});

/** Parsed McpManager input. */
export type McpManagerInput = z.output<typeof mcpManagerInputSchema>;

const DESCRIPTION = [
  "Manages the MCP servers whose tools appear as mcp_<server>_<tool>.",
  "Actions: list (include_disabled, include_tools), read (server_id), create (server, conflict fail|overwrite), update (server_id, patch), delete / enable / disable / stop (server_id or server_ids),",
  "validate (server or server_id; static checks only), test (connects and lists tools), diagnose (test plus stderr and suggestions), tools (server_id; include_schema), restart (server_id).",
  "env and header values are shown as <redacted>. Changes apply to the next tool list; test an unsaved config by passing server to test.",
].join(" ");

/**
 * The McpManager tool: reads and changes MCP settings through the host's
 * live getter and `applyOps`, and tests, diagnoses, restarts and stops servers.
 */
export function createMcpManagerTool(environment: McpManagerEnvironment): ToolDefinition {
  return defineTool({
    name: "McpManager",
    description: DESCRIPTION,
    inputSchema: mcpManagerInputSchema,
    metadata: { groupId: "system", kind: "manage", isReadOnly: false, displayCategory: "mcp" },
    async execute(input, context) {
      const action = input.action;
      if (context.runtimeScope !== "chat" && CRON_REFUSED_ACTIONS.has(action)) {
        throw new ToolError("permission_denied", `McpManager action=${action} is not allowed in cron_auto_prompt (unattended cron runs cannot change MCP servers).`, { recoverable: false });
      }
      if (SETTINGS_WRITE_ACTIONS.has(action) && !environment.applyOps) {
        throw new ToolError("permission_denied", "McpManager cannot modify MCP settings in this runtime scope (the host gave no settings writer). Only list, read, validate, test, diagnose and tools work here.", { recoverable: false });
      }
      try {
        const report = ["test", "diagnose", "tools", "restart", "stop"].includes(action)
          ? await runRuntimeAction(input, context, environment)
          : await runSettingsAction(input, context, environment);
        return report.output(report.details.ok ? false : action !== "diagnose");
      } catch (error) {
        if (error instanceof ToolError && error.code === "cancelled") throw error;
        const message = (error as Error)?.message ?? String(error);
        const report = new ManagerReport(action).fail(message);
        if (input.server_id) report.details.serverId = input.server_id;
        return report.output(true);
      }
    },
  });
}
