import path from "node:path";
import type { ToolContext } from "@agent-tools/core";
import { judgeModelStdioServer } from "./mcp-manager-command-approval.js";
import { describeOAuthStatus, oauthDetails } from "./mcp-manager-oauth-actions.js";
import { type McpManagerInput, targetIds } from "./mcp-manager-schema.js";
import {
  type McpManagerEnvironment,
  ManagerReport,
  managerError,
  refuseModelStdioOnRemoteWorkspace,
  suggestFixes,
  unknownServersError,
} from "./mcp-manager-support.js";
import { McpServerConnection } from "./server-connection.js";
import { type McpServerConfig, normalizeMcpServerConfig, validateMcpServerConfig } from "./settings.js";

function resolveTarget(input: McpManagerInput, context: ToolContext, environment: McpManagerEnvironment): { config: McpServerConfig; stored: boolean } {
  if (input.server && input.action !== "restart") {
    const config = normalizeMcpServerConfig(input.server);
    if (config.cwd) config.cwd = path.resolve(context.workdir, config.cwd);
    return { config, stored: false };
  }
  const id = input.server_id?.trim();
  if (!id)
    throw managerError("invalid_arguments", `action=${input.action} needs server_id${input.action === "restart" ? "" : " or an inline server"}.`, {
      field: "server_id",
    });
  const config = environment.getSettings().servers.find((server) => server.id === id);
  if (!config) throw unknownServersError([id]);
  return { config, stored: true };
}

/** test, diagnose, tools, restart, stop. */
export async function runRuntimeAction(input: McpManagerInput, context: ToolContext, environment: McpManagerEnvironment): Promise<ManagerReport> {
  const report = new ManagerReport(input.action);
  if (input.action === "stop") {
    const ids = targetIds(input);
    if (ids.length === 0) throw managerError("invalid_arguments", "action=stop needs server_id or server_ids.", { field: "server_id" });
    const stopped: string[] = [];
    for (const id of ids) if (await environment.runtime.stop(id)) stopped.push(id);
    environment.rebuildTools();
    report.set({ serverIds: ids, stopped, changed: false });
    return report.line(`stopped=${stopped.join(",") || "(none running)"}`).line("runtime=stopped");
  }
  const { config, stored } = resolveTarget(input, context, environment);
  report.set({ serverId: config.id, transport: config.transport });
  if (!stored) refuseModelStdioOnRemoteWorkspace(environment, config, input.action);
  // An inline stdio server is a command the model wrote: judged as a Bash call (and as the configured server it copies).
  if (!stored) judgeModelStdioServer(environment, config, { action: input.action, input });
  if (environment.sandbox && config.transport === "stdio") {
    throw managerError(
      "permission_denied",
      `action=${input.action} would start the stdio server ${config.id}, which this sandboxed host refuses; only http and sse servers can be used here.`,
      { serverId: config.id },
    );
  }
  const validation = validateMcpServerConfig(config);
  if (validation.errors.length) {
    for (const error of validation.errors) report.fail(error);
    report.details.phase = "validate";
    report.line("test=failed phase=validate durationMs=0");
    for (const error of validation.errors) report.line(`error: ${error}`);
    return report;
  }
  const persist = context.runtimeScope === "chat" && stored;
  if (input.action === "restart") await environment.runtime.stop(config.id);
  const connection = persist ? environment.runtime.connectionFor(config) : new McpServerConnection(config, environment.runtime.connectionOptions);
  const oauth = environment.oauth;
  const startedAt = Date.now();
  let phase = "connect";
  try {
    await connection.connect(context.signal);
    phase = "list_tools";
    const tools = input.action === "tools" || input.action === "restart" ? connection.tools : await connection.listTools(undefined, context.signal);
    const durationMs = Date.now() - startedAt;
    const info = connection.serverInfo;
    report.set({ phase, toolsCount: tools.length, durationMs });
    report.line(`test=ok phase=${phase} durationMs=${durationMs}`);
    report.line(`runtime=${persist ? connection.state : "transient"} server=${info ? `${info.name}@${info.version}` : "unknown"} tools=${tools.length}`);
    const authStatus = await oauth?.status(config);
    if (authStatus?.authorized) report.set({ auth: oauthDetails(authStatus) }).line(describeOAuthStatus(authStatus));
    const listTools = input.action === "tools" || input.include_tools || input.include_schema;
    if (listTools) {
      report.details.tools = tools.map((tool) =>
        input.include_schema
          ? { name: tool.name, description: tool.description, inputSchema: tool.inputSchema }
          : { name: tool.name, description: tool.description },
      );
      for (const tool of tools) {
        report.line(`- ${tool.name}${tool.description ? `: ${tool.description.split("\n")[0]}` : ""}`);
        if (input.include_schema) report.line(`  schema: ${JSON.stringify(tool.inputSchema ?? {})}`);
      }
    }
    if (persist) environment.rebuildTools();
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    if (context.signal.aborted) throw error;
    // An OAuth attempt that did not end with tokens names its step: discovery, registration, authorization or token.
    const authStatus = await oauth?.status(config).catch(() => undefined);
    if (authStatus?.pendingPhase) {
      phase = `auth_${authStatus.pendingPhase}`;
      report.set({ auth: oauthDetails(authStatus, authStatus.pendingPhase) });
    }
    report.fail(message);
    const durationMs = Date.now() - startedAt;
    report.set({ phase, durationMs, suggestions: suggestFixes(message, config) });
    report.line(`test=failed phase=${phase} durationMs=${durationMs}`).line(`error: ${message}`);
    for (const suggestion of report.details.suggestions ?? []) report.line(`suggestion: ${suggestion}`);
  } finally {
    const includeStderr = input.include_stderr ?? input.action === "diagnose";
    const stderr = connection.stderrTail;
    if (includeStderr) {
      report.details.stderr = stderr;
      report.line(stderr.length ? `stderr (last ${Math.min(stderr.length, 50)} lines):\n${stderr.slice(-50).join("\n")}` : "stderr: (empty)");
    }
    if (!persist) await connection.close();
  }
  return report;
}
