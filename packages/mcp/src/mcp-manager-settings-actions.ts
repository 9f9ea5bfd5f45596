import path from "node:path";
import type { ToolContext } from "@agent-tools/core";
import type { McpServerLifecycle } from "@agent-tools/core/mcp";
import { type McpOp, applyMcpOps } from "./apply-mcp-ops.js";
import { describeLifecycleLine } from "./lifecycle/server-lifecycles.js";
import { type McpManagerInput, targetIds } from "./mcp-manager-schema.js";
import { judgeModelStdioServer } from "./mcp-manager-command-approval.js";
import { describeOAuthStatus, oauthDetails } from "./mcp-manager-oauth-actions.js";
import {
  type McpManagerEnvironment,
  ManagerReport,
  managerError,
  redactMcpServerConfig,
  refuseModelStdioOnRemoteWorkspace,
  unknownServersError,
} from "./mcp-manager-support.js";
import { type McpServerConfig, type McpServerConfigInput, normalizeMcpServerConfig, selectEnabledMcpServers, validateMcpServerConfig } from "./settings.js";

/** The fields of a server that decide what it runs: an update of one of them is judged as a new command. */
const RUN_FIELDS = ["transport", "command", "args", "cwd", "env"] as const;

function requireOne(input: McpManagerInput): string {
  const id = input.server_id?.trim();
  if (!id) throw managerError("invalid_arguments", `action=${input.action} needs server_id.`, { field: "server_id" });
  return id;
}

function summarise(config: McpServerConfig, environment: McpManagerEnvironment, lifecycle: McpServerLifecycle | undefined): string {
  const where = config.transport === "stdio" ? `command=${[config.command, ...config.args].join(" ")}` : `url=${config.url}`;
  const runtime = environment.runtime.status(config.id);
  const line = `- ${config.id} [${config.enabled ? "enabled" : "disabled"}] transport=${config.transport} ${where} runtime=${runtime.state}`;
  return lifecycle ? `${line} ${describeLifecycleLine(lifecycle)}` : `${line}${runtime.toolsCount ? ` tools=${runtime.toolsCount}` : ""}`;
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
    throw managerError(
      "permission_denied",
      `action=${action} would start a stdio server, which this sandboxed host refuses; only http and sse servers can be used here.`,
      { serverId: config.id },
    );
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
      report.set({ serverCount: servers.length, enabledCount: selectEnabledMcpServers(settings).length, servers: shown.map(redactMcpServerConfig) });
      report.line(`servers=${servers.length} enabled=${report.details.enabledCount}`);
      const lifecycles = environment.lifecycles?.(shown.filter((server) => server.enabled !== false));
      if (lifecycles) report.set({ lifecycles });
      for (const server of shown) {
        report.line(
          summarise(
            server,
            environment,
            lifecycles?.find((lifecycle) => lifecycle.serverId === server.id),
          ),
        );
        if (input.include_tools)
          report.line(`  tools: ${(environment.runtime.peek(server.id)?.tools ?? []).map((tool) => tool.name).join(", ") || "(not loaded)"}`);
      }
      return report;
    }
    case "read": {
      const id = requireOne(input);
      const server = find(id);
      if (!server) throw unknownServersError([id]);
      const status = environment.runtime.status(id);
      report.set({ serverId: id, transport: server.transport, servers: [redactMcpServerConfig(server)] });
      report.line(JSON.stringify(redactMcpServerConfig(server), null, 2)).line(`runtime=${status.state} tools=${status.toolsCount}`);
      const lifecycles = server.enabled === false ? undefined : environment.lifecycles?.([server]);
      if (lifecycles?.[0]) report.set({ lifecycles }).line(describeLifecycleLine(lifecycles[0]));
      // OAuth: only whether tokens are stored, their expiry and scopes.
      const authStatus = await environment.oauth?.status(server).catch(() => undefined);
      if (authStatus !== undefined) report.set({ auth: oauthDetails(authStatus) }).line(describeOAuthStatus(authStatus));
      return report;
    }
    case "validate": {
      const raw: McpServerConfigInput | undefined = input.server ?? (input.server_id ? find(input.server_id.trim()) : undefined);
      if (!raw)
        throw input.server_id
          ? unknownServersError([input.server_id.trim()])
          : managerError("invalid_arguments", "action=validate needs server (inline) or server_id.", { field: "server" });
      const result = validateMcpServerConfig(raw);
      if (input.server && find(input.server.id.trim()))
        result.warnings.push(`a server with id "${input.server.id}" already exists; create would need conflict=overwrite.`);
      report.set({ serverId: raw.id, transport: raw.transport ?? "stdio", warnings: result.warnings });
      for (const error of result.errors) report.fail(error);
      report.line(`validation=${result.errors.length ? "failed" : "ok"}`);
      for (const error of result.errors) report.line(`error: ${error}`);
      for (const warning of result.warnings) report.line(`warning: ${warning}`);
      return report;
    }
    case "create": {
      if (!input.server)
        throw managerError("invalid_arguments", "action=create needs server (a full configuration with at least id and command or url).", { field: "server" });
      const raw: McpServerConfigInput = { ...input.server };
      if (raw.cwd) raw.cwd = path.resolve(context.workdir, raw.cwd);
      refuseStdioInSandbox(environment, raw, "create");
      refuseModelStdioOnRemoteWorkspace(environment, raw, "create");
      const overwrite = input.conflict === "overwrite";
      const config = normalizeMcpServerConfig(raw);
      // A created stdio server runs at the next refresh: a command the model wrote, judged as a Bash call.
      judgeModelStdioServer(environment, config, { action: "create", input });
      // From here to the commit there is no await: the decision uses the live settings.
      const live = environment.getSettings().servers ?? [];
      const existed = live.some((server) => server.id === config.id);
      const validation = validateMcpServerConfig(raw, { existingIds: overwrite ? [] : live.map((server) => server.id) });
      report.set({ serverId: config.id, transport: config.transport, warnings: validation.warnings });
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
      if (!input.patch) throw managerError("invalid_arguments", "action=update needs patch (the fields to change).", { field: "patch" });
      if (input.patch.id !== undefined && input.patch.id.trim() !== id) {
        throw managerError(
          "invalid_arguments",
          `the id cannot change (patch.id "${input.patch.id}" != "${id}"); create a new server and delete this one instead.`,
          { serverId: id, field: "patch.id" },
        );
      }
      const patch: Partial<McpServerConfig> = { ...input.patch } as Partial<McpServerConfig>;
      delete patch.id;
      if (patch.cwd) patch.cwd = path.resolve(context.workdir, patch.cwd);
      const current = environment.getSettings().servers.find((server) => server.id === id);
      if (!current) throw unknownServersError([id]);
      const merged = { ...current, ...patch, id };
      if (merged.enabled) refuseStdioInSandbox(environment, merged, "update");
      // Disabled or not: a later enable would start what the model wrote.
      refuseModelStdioOnRemoteWorkspace(environment, merged, "update");
      // A patch that changes what a stdio server runs is a command the model wrote: judged as a Bash call.
      if (RUN_FIELDS.some((field) => Object.hasOwn(patch, field)))
        judgeModelStdioServer(environment, normalizeMcpServerConfig(merged), { action: "update", input });
      const validation = validateMcpServerConfig(merged);
      report.set({ serverId: id, transport: merged.transport, warnings: validation.warnings });
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
      if (ids.length === 0) throw managerError("invalid_arguments", `action=${input.action} needs server_id or server_ids.`, { field: "server_id" });
      const missing = ids.filter((id) => !find(id));
      if (missing.length) throw unknownServersError(missing);
      if (input.action === "enable") for (const id of ids) refuseStdioInSandbox(environment, find(id)!, "enable");
      const ops: McpOp[] =
        input.action === "delete" ? ids.map((id) => ({ type: "remove", id })) : [{ type: "setEnabled", serverIds: ids, enabled: input.action === "enable" }];
      const { changed, pending } = commit(environment, ops);
      await pending;
      report.set({ serverIds: ids, serverId: ids.length === 1 ? ids[0] : undefined, changed });
      report.line(`servers=${ids.join(",")}`).line(`changed=${changed}`);
      if (changed && input.action !== "enable") await stopStale(environment, ids, report, context.signal);
      if (changed) environment.scheduleRefresh();
      return report;
    }
    default:
      throw managerError("invalid_arguments", `action=${input.action} is not a settings action.`, { field: "action" });
  }
}
