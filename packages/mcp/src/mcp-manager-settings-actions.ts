import path from "node:path";
import type { ToolContext } from "@agent-tools/core";
import { type McpOp, applyMcpOps } from "./apply-mcp-ops.js";
import { type McpManagerEnvironment, ManagerReport, redactMcpServerConfig } from "./mcp-manager-support.js";
import type { McpManagerInput } from "./mcp-manager-tool.js";
import { type McpServerConfig, type McpServerConfigInput, normalizeMcpServerConfig, selectEnabledMcpServers, validateMcpServerConfig } from "./settings.js";

/** The ids an action targets: `server_ids`, else `server_id`. */
export function targetIds(input: McpManagerInput): string[] {
  const ids = input.server_ids?.length ? input.server_ids : input.server_id ? [input.server_id] : [];
  return [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
}

function requireOne(input: McpManagerInput): string {
  const id = input.server_id?.trim();
  if (!id) throw new Error(`action=${input.action} needs server_id.`);
  return id;
}

function summarise(config: McpServerConfig, environment: McpManagerEnvironment): string {
  const where = config.transport === "stdio" ? `command=${[config.command, ...config.args].join(" ")}` : `url=${config.url}`;
  const runtime = environment.runtime.status(config.id);
  return `- ${config.id} [${config.enabled ? "enabled" : "disabled"}] transport=${config.transport} ${where} runtime=${runtime.state}${runtime.toolsCount ? ` tools=${runtime.toolsCount}` : ""}`;
}

/** Commits ops without an `await` between reading the settings and writing them; returns whether they changed anything. */
function commit(environment: McpManagerEnvironment, ops: readonly McpOp[]): { changed: boolean; pending: Promise<void> | undefined } {
  const before = environment.getSettings();
  const changed = applyMcpOps(before, ops) !== before;
  const returned = changed ? environment.applyOps!(ops) : undefined;
  return { changed, pending: returned instanceof Promise ? returned : undefined };
}

async function stopStale(environment: McpManagerEnvironment, ids: readonly string[], report: ManagerReport, signal: AbortSignal): Promise<void> {
  const stopped: string[] = [];
  for (const id of ids) {
    if (signal.aborted) {
      report.details.warnings = [...(report.details.warnings ?? []), "the change was committed, but stopping the old server runtime was cancelled."];
      break;
    }
    try {
      if (await environment.runtime.stop(id)) stopped.push(id);
    } catch (error) {
      report.details.warnings = [...(report.details.warnings ?? []), `could not stop ${id}: ${(error as Error).message}`];
    }
  }
  report.details.stopped = stopped;
  if (stopped.length) report.line(`stopped=${stopped.join(",")}`);
}

function refuseStdioInSandbox(environment: McpManagerEnvironment, config: McpServerConfigInput, action: string): void {
  if (environment.sandbox && (config.transport ?? "stdio") === "stdio") {
    throw new Error(`action=${action} would start a stdio server, which this sandboxed host refuses; only http and sse servers can be used here.`);
  }
}

/** list, read, validate, create, update, delete, enable, disable. */
export async function runSettingsAction(input: McpManagerInput, context: ToolContext, environment: McpManagerEnvironment): Promise<ManagerReport> {
  const report = new ManagerReport(input.action);
  const settings = environment.getSettings();
  const servers = settings.servers ?? [];
  const find = (id: string) => servers.find((server) => server.id === id);
  switch (input.action) {
    case "list": {
      const shown = input.include_disabled === false ? selectEnabledMcpServers(settings) : servers;
      Object.assign(report.details, { serverCount: servers.length, enabledCount: selectEnabledMcpServers(settings).length, servers: shown.map(redactMcpServerConfig) });
      report.line(`servers=${servers.length} enabled=${report.details.enabledCount}`);
      for (const server of shown) {
        report.line(summarise(server, environment));
        if (input.include_tools) report.line(`  tools: ${(environment.runtime.peek(server.id)?.tools ?? []).map((tool) => tool.name).join(", ") || "(not loaded)"}`);
      }
      return report;
    }
    case "read": {
      const id = requireOne(input);
      const server = find(id);
      if (!server) throw new Error(`no MCP server with id "${id}". Use action=list to see the ids.`);
      const status = environment.runtime.status(id);
      Object.assign(report.details, { serverId: id, transport: server.transport, servers: [redactMcpServerConfig(server)] });
      return report.line(JSON.stringify(redactMcpServerConfig(server), null, 2)).line(`runtime=${status.state} tools=${status.toolsCount}`);
    }
    case "validate": {
      const raw: McpServerConfigInput | undefined = input.server ?? (input.server_id ? find(input.server_id.trim()) : undefined);
      if (!raw) throw new Error(input.server_id ? `no MCP server with id "${input.server_id}".` : "action=validate needs server (inline) or server_id.");
      const result = validateMcpServerConfig(raw);
      if (input.server && find(input.server.id.trim())) result.warnings.push(`a server with id "${input.server.id}" already exists; create would need conflict=overwrite.`);
      Object.assign(report.details, { serverId: raw.id, transport: raw.transport ?? "stdio", warnings: result.warnings });
      for (const error of result.errors) report.fail(error);
      report.line(`validation=${result.errors.length ? "failed" : "ok"}`);
      for (const error of result.errors) report.line(`error: ${error}`);
      for (const warning of result.warnings) report.line(`warning: ${warning}`);
      return report;
    }
    case "create": {
      if (!input.server) throw new Error("action=create needs server (a full configuration with at least id and command or url).");
      const raw: McpServerConfigInput = { ...input.server };
      if (raw.cwd) raw.cwd = path.resolve(context.workdir, raw.cwd);
      refuseStdioInSandbox(environment, raw, "create");
      const overwrite = input.conflict === "overwrite";
      const config = normalizeMcpServerConfig(raw);
      // From here to the commit there is no await: the decision uses the live settings.
      const live = environment.getSettings().servers ?? [];
      const existed = live.some((server) => server.id === config.id);
      const validation = validateMcpServerConfig(raw, { existingIds: overwrite ? [] : live.map((server) => server.id) });
      Object.assign(report.details, { serverId: config.id, transport: config.transport, warnings: validation.warnings });
      if (validation.errors.length) {
        for (const error of validation.errors) report.fail(error);
        return report.line("validation=failed").line("changed=false");
      }
      const { changed, pending } = commit(environment, [{ type: "upsert", server: config }]);
      await pending;
      report.details.changed = changed;
      report.line("validation=ok").line(`changed=${changed}`);
      if (existed && changed) await stopStale(environment, [config.id], report, context.signal);
      if (changed) environment.scheduleRefresh();
      return report;
    }
    case "update": {
      const id = requireOne(input);
      if (!input.patch) throw new Error("action=update needs patch (the fields to change).");
      if (input.patch.id !== undefined && input.patch.id.trim() !== id) throw new Error(`the id cannot change (patch.id "${input.patch.id}" != "${id}"); create a new server and delete this one instead.`);
      const patch: Partial<McpServerConfig> = { ...input.patch } as Partial<McpServerConfig>;
      delete patch.id;
      if (patch.cwd) patch.cwd = path.resolve(context.workdir, patch.cwd);
      const current = environment.getSettings().servers.find((server) => server.id === id);
      if (!current) throw new Error(`no MCP server with id "${id}". Use action=list to see the ids.`);
      const merged = { ...current, ...patch, id };
      if (merged.enabled) refuseStdioInSandbox(environment, merged, "update");
      const validation = validateMcpServerConfig(merged);
      Object.assign(report.details, { serverId: id, transport: merged.transport, warnings: validation.warnings });
      if (validation.errors.length) {
        for (const error of validation.errors) report.fail(error);
        return report.line("validation=failed").line("changed=false");
      }
      const { changed, pending } = commit(environment, [{ type: "patch", id, patch }]);
      await pending;
      report.details.changed = changed;
      report.line("validation=ok").line(`changed=${changed}`);
      if (changed) {
        await stopStale(environment, [id], report, context.signal);
        environment.scheduleRefresh();
      }
      return report;
    }
    case "delete":
    case "enable":
    case "disable": {
      const ids = targetIds(input);
      if (ids.length === 0) throw new Error(`action=${input.action} needs server_id or server_ids.`);
      const missing = ids.filter((id) => !find(id));
      if (missing.length) throw new Error(`no MCP server with id ${missing.map((id) => `"${id}"`).join(", ")}. Use action=list to see the ids.`);
      if (input.action === "enable") for (const id of ids) refuseStdioInSandbox(environment, find(id)!, "enable");
      const ops: McpOp[] = input.action === "delete" ? ids.map((id) => ({ type: "remove", id })) : [{ type: "setEnabled", serverIds: ids, enabled: input.action === "enable" }];
      const { changed, pending } = commit(environment, ops);
      await pending;
      Object.assign(report.details, { serverIds: ids, serverId: ids.length === 1 ? ids[0] : undefined, changed });
      report.line(`servers=${ids.join(",")}`).line(`changed=${changed}`);
      if (changed && input.action !== "enable") await stopStale(environment, ids, report, context.signal);
      if (changed) environment.scheduleRefresh();
      return report;
    }
    default:
      throw new Error(`action=${input.action} is not a settings action.`);
  }
}
