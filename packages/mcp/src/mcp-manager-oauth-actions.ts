import type { ToolContext } from "@agent-tools/core";
import type { McpManagerInput } from "./mcp-manager-schema.js";
import { type McpManagerEnvironment, ManagerReport, managerError, unknownServersError } from "./mcp-manager-support.js";
import type { McpOAuthStatus } from "./oauth/mcp-oauth-source.js";
import type { McpServerConfig } from "./settings.js";

function minutes(ms: number): string {
  if (ms <= 0) return "expired";
  const total = Math.round(ms / 60_000);
  return total < 60 ? `${total}m` : `${Math.floor(total / 60)}h${total % 60 ? ` ${total % 60}m` : ""}`;
}

/**
 * One line about a server's OAuth state for the model, free of secrets:
 * "auth=authorized expires_in=59m scopes=read write" or "auth=none".
 */
export function describeOAuthStatus(status: McpOAuthStatus): string {
  if (!status.authorized) return `auth=not_authorized${status.pendingPhase ? ` stopped_at=${status.pendingPhase}` : ""}`;
  const expiry = status.expiresAt === undefined ? "" : ` expires_in=${minutes(status.expiresAt - Date.now())}`;
  return `auth=authorized${expiry}${status.scopes ? ` scopes=${status.scopes}` : ""}${status.refreshable ? " refreshable=yes" : ""}`;
}

/** The `details.auth` of a status. */
export function oauthDetails(status: McpOAuthStatus, failedPhase?: string) {
  return {
    authorized: status.authorized,
    ...(status.expiresAt !== undefined ? { expiresAt: status.expiresAt } : {}),
    ...(status.scopes ? { scopes: status.scopes } : {}),
    refreshable: status.refreshable,
    ...(failedPhase ? { failedPhase } : {}),
  };
}

function storedServer(input: McpManagerInput, environment: McpManagerEnvironment): McpServerConfig {
  const id = input.server_id?.trim();
  if (!id) throw managerError("invalid_arguments", `action=${input.action} needs server_id.`, { field: "server_id" });
  const config = environment.getSettings().servers.find((server) => server.id === id);
  if (!config) throw unknownServersError([id]);
  if (config.transport !== "http" && config.transport !== "sse")
    throw managerError("invalid_arguments", `MCP server ${id} uses ${config.transport}; OAuth login applies to http and sse servers only.`, { serverId: id });
  return config;
}

/**
 * login: signs in now (discovery, registration, the host's authorization
 * step, token), then reconnects the server; logout: deletes the server's
 * stored tokens and registration and stops its connection.
 */
export async function runOAuthAction(input: McpManagerInput, context: ToolContext, environment: McpManagerEnvironment): Promise<ManagerReport> {
  const report = new ManagerReport(input.action);
  const config = storedServer(input, environment);
  report.set({ serverId: config.id, transport: config.transport });
  const control = environment.oauth;
  const provider = control?.providerFor(config);
  if (control === undefined || provider === undefined)
    throw managerError(
      "unavailable",
      `OAuth is not enabled for MCP server ${config.id} on this host (it gave no oauth options and the server has no auth settings).`,
      {
        serverId: config.id,
      },
    );
  if (input.action === "logout") {
    await control.logout(config);
    const stopped = await environment.runtime.stop(config.id);
    environment.rebuildTools();
    report.set({ changed: true, stopped: stopped ? [config.id] : [] });
    return report.line(`logout=ok server=${config.id} removed=tokens,registration runtime=${stopped ? "stopped" : "not running"}`);
  }
  const startedAt = Date.now();
  try {
    const status = await control.login(config, context.signal);
    await environment.runtime.stop(config.id);
    environment.scheduleRefresh();
    report.set({ phase: "token", durationMs: Date.now() - startedAt, auth: oauthDetails(status) });
    return report.line(`login=ok server=${config.id}`).line(describeOAuthStatus(status)).line("runtime=reconnecting");
  } catch (error) {
    if (context.signal.aborted) throw error;
    const message = (error as Error)?.message ?? String(error);
    const phase = provider.unfinishedPhase() ?? provider.phase;
    report.fail(message).set({ phase: `auth_${phase}`, durationMs: Date.now() - startedAt, auth: { authorized: false, failedPhase: phase } });
    return report.line(`login=failed phase=auth_${phase}`).line(`error: ${message}`);
  }
}
