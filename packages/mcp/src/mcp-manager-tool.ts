import { type ToolDefinition, ToolError, defineTool } from "@agent-tools/core";
import type { ToolEffects } from "@agent-tools/core/durable";
import { createServerActionTarget } from "./mcp-manager-command-approval.js";
import { runOAuthAction } from "./mcp-manager-oauth-actions.js";
import { runRuntimeAction } from "./mcp-manager-runtime-actions.js";
import { mcpManagerInputSchema } from "./mcp-manager-schema.js";
import { runSettingsAction } from "./mcp-manager-settings-actions.js";
import { type McpManagerEnvironment, CRON_REFUSED_ACTIONS, type MCP_MANAGER_ACTIONS, ManagerReport, SETTINGS_WRITE_ACTIONS } from "./mcp-manager-support.js";

const DESCRIPTION = [
  "Manages the MCP servers whose tools appear as mcp_<server>_<tool>.",
  "Actions: list (include_disabled, include_tools), read (server_id), create (server, conflict fail|overwrite), update (server_id, patch), delete / enable / disable / stop (server_id or server_ids),",
  "validate (server or server_id; static checks only), test (connects and lists tools), diagnose (test plus stderr and suggestions), tools (server_id; include_schema), restart (server_id),",
  "login (server_id; OAuth sign-in now, through the host, which may show the user a page) and logout (server_id; deletes its stored OAuth tokens and registration).",
  "env and header values and OAuth secrets are shown as <redacted>. Changes apply to the next tool list; test an unsaved config by passing server to test.",
].join(" ");

/**
 * What running a McpManager call again would do, by action: list, read and
 * validate change nothing; update, enable, disable and stop set a state;
 * the rest may do something twice (a second server created, a server
 * deleted or signed out after it was set up again, a stdio server started
 * by test, diagnose, tools or restart), so those are never run again after
 * a crash.
 */
const MCP_MANAGER_EFFECTS: Readonly<Record<(typeof MCP_MANAGER_ACTIONS)[number], ToolEffects>> = Object.freeze({
  list: "none",
  read: "none",
  create: "unsafe",
  update: "idempotent",
  delete: "unsafe",
  enable: "idempotent",
  disable: "idempotent",
  validate: "none",
  test: "unsafe",
  diagnose: "unsafe",
  restart: "unsafe",
  stop: "idempotent",
  tools: "unsafe",
  login: "unsafe",
  logout: "unsafe",
});

/**
 * The McpManager tool: reads and changes MCP settings through the host's
 * live getter and `applyOps`, and tests, diagnoses, restarts and stops servers.
 * Failures come back as `isError` results whose text starts with
 * "McpManager failed:" and whose details carry the ToolError code.
 * Restart, test, tools, diagnose and login are judged by the registry's
 * approval as the named server's (the tool's `callServerId`, as for the
 * resource tools): `server:<id>` deny refuses them before anything starts,
 * ask asks; list, read and stop stay allowed. An inline server that runs
 * what a configured server runs is judged as that server, and a stdio server
 * the model writes (inline, create, update) as a Bash call (see
 * `judgeModelStdioServer`).
 *
 * @example
 * const tool = createMcpManagerTool({ getSettings, applyOps, runtime, sandbox: false, runtimeScope: "chat", rebuildTools, scheduleRefresh });
 */
export function createMcpManagerTool(environment: McpManagerEnvironment): ToolDefinition {
  const tool = defineTool({
    name: "McpManager",
    description: DESCRIPTION,
    inputSchema: mcpManagerInputSchema,
    metadata: { groupId: "system", kind: "manage", isReadOnly: false, displayCategory: "mcp", annotations: { readOnly: false, listedInPlanMode: false } },
    effects: (input) => MCP_MANAGER_EFFECTS[input.action],
    async execute(input, context) {
      const action = input.action;
      if (context.runtimeScope !== "chat" && CRON_REFUSED_ACTIONS.has(action)) {
        throw new ToolError(
          "permission_denied",
          `McpManager action=${action} is not allowed in cron_auto_prompt (unattended cron runs cannot change MCP servers).`,
          { recoverable: false },
        );
      }
      if (SETTINGS_WRITE_ACTIONS.has(action) && !environment.applyOps) {
        throw new ToolError(
          "permission_denied",
          "McpManager cannot modify MCP settings in this runtime scope (the host gave no settings writer). Only list, read, validate, test, diagnose and tools work here.",
          { recoverable: false },
        );
      }
      try {
        const report =
          action === "login" || action === "logout"
            ? await runOAuthAction(input, context, environment)
            : ["test", "diagnose", "tools", "restart", "stop"].includes(action)
              ? await runRuntimeAction(input, context, environment)
              : await runSettingsAction(input, context, environment);
        return report.output(report.details.ok ? false : action !== "diagnose");
      } catch (error) {
        if (error instanceof ToolError && error.code === "cancelled") throw error;
        const report = new ManagerReport(action);
        if (input.server_id) report.details.serverId = input.server_id;
        // Actions throw ToolErrors for what the model got wrong; anything else (a failing settings writer) is "other".
        if (error instanceof ToolError) report.reject(error);
        else report.fail(error instanceof Error ? error.message : String(error)).set({ code: "other" });
        return report.output(true);
      }
    },
  });
  // Restart, test, tools, diagnose and login are judged by approval as the named server's (or the configured server an inline one copies).
  return { ...tool, callServerId: createServerActionTarget(environment) };
}
