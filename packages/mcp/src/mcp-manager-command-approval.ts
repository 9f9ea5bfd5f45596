/**
 * McpManager and the host's approval for what a model-written server runs:
 * an inline stdio server (test, tools, diagnose) or a stdio server the model
 * creates or updates is a command on this host, judged as a Bash call; a
 * configuration that is a copy of a configured server is judged as that
 * server (`server:<id>` rules apply). Attack F15 of issue 39.
 */
import type { ApprovalDecision } from "@agent-tools/core";
import type { McpManagerAction } from "@agent-tools/core/mcp";
import { type McpManagerApprovalView, type McpManagerEnvironment, SERVER_USE_ACTIONS, managerError } from "./mcp-manager-support.js";
import { type McpServerConfig, type McpServerConfigInput, normalizeMcpServerConfig } from "./settings.js";

const STRICTNESS: Readonly<Record<ApprovalDecision, number>> = { allow: 0, ask: 1, deny: 2 };

/** What a server runs, as far as approval compares two servers: transport, command, args and url (cwd is left out, so a copy run elsewhere still matches). */
function identityOf(config: McpServerConfig): string {
  return JSON.stringify([config.transport, config.command, config.args, config.transport === "stdio" ? "" : config.url]);
}

/** The ids of the configured servers that run what `config` runs (see {@link identityOf}), `config`'s own id excluded. */
export function matchingServerIds(config: McpServerConfig, servers: readonly McpServerConfig[]): string[] {
  const identity = identityOf(config);
  return servers.filter((server) => server.id !== config.id && identityOf(server) === identity).map((server) => server.id);
}

function normalized(raw: unknown): McpServerConfig | undefined {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  try {
    return normalizeMcpServerConfig(raw as McpServerConfigInput);
  } catch {
    return undefined;
  }
}

/** The approval decision for using the configured server `serverId` through McpManager. */
function serverDecision(view: McpManagerApprovalView, serverId: string): ApprovalDecision {
  return view.approvalDecision("McpManager", { action: "test", server_id: serverId });
}

/**
 * The tool's `callServerId`: the server a McpManager call starts or signs in
 * to, for restart, test, tools, diagnose and login. `server_id` names it;
 * an inline `server` is its own id or, when it runs what a configured server
 * runs, that server (of several, the one the approval judges strictest), so
 * a copy of a denied server under a new id is denied as that server. The
 * input may not be validated yet.
 */
export function createServerActionTarget(environment: Pick<McpManagerEnvironment, "getSettings" | "approvalView">): (input: unknown) => string | undefined {
  return (input) => {
    if (input === null || typeof input !== "object") return undefined;
    const { action, server_id: serverId, server } = input as { action?: unknown; server_id?: unknown; server?: unknown };
    if (typeof action !== "string" || !SERVER_USE_ACTIONS.has(action as McpManagerAction)) return undefined;
    if (typeof serverId === "string" && serverId.trim() !== "") return serverId.trim();
    const inlineId = server !== null && typeof server === "object" ? (server as { id?: unknown }).id : undefined;
    const own = typeof inlineId === "string" && inlineId.trim() !== "" ? [inlineId.trim()] : [];
    const config = normalized(server);
    const candidates = [...own, ...(config === undefined ? [] : matchingServerIds(config, environment.getSettings().servers ?? []))];
    const view = environment.approvalView;
    if (view === undefined || candidates.length < 2) return candidates[0];
    return candidates.reduce((strictest, id) => (STRICTNESS[serverDecision(view, id)] > STRICTNESS[serverDecision(view, strictest)] ? id : strictest));
  };
}

/**
 * Refuses (permission_denied) a stdio server the model wrote -- an inline
 * server of test, tools or diagnose, a created server, an update that
 * changes what a server runs -- unless the host's approval would run it as
 * a Bash call: Bash `deny` (or no Bash tool in the registry) refuses; Bash
 * `ask` runs it only when this McpManager call was itself asked (its
 * arguments, with the command line, went to `onAsk`); a configured server
 * running the same command whose use is denied refuses it too. Without an
 * approval view (a host calling `createMcpToolBundles` directly) nothing is
 * judged here.
 */
export function judgeModelStdioServer(environment: McpManagerEnvironment, config: McpServerConfig, call: { action: string; input: unknown }): void {
  const view = environment.approvalView;
  if (view === undefined || config.transport !== "stdio") return;
  const commandLine = [config.command, ...config.args].join(" ");
  const deniedCopy = matchingServerIds(config, environment.getSettings().servers ?? []).find((id) => serverDecision(view, id) === "deny");
  if (deniedCopy !== undefined) {
    throw managerError(
      "permission_denied",
      `action=${call.action} would run the command of MCP server ${deniedCopy} ("${commandLine}"), which the host's approval denies. Do not retry.`,
      { serverId: config.id },
    );
  }
  const bash = view.approvalDecision("Bash", { command: commandLine });
  if (bash === "allow") return;
  if (bash === "ask" && view.approvalDecision("McpManager", call.input) === "ask") return;
  throw managerError(
    "permission_denied",
    bash === "ask"
      ? `action=${call.action} would run "${commandLine}" on this host as a stdio server; the host's approval asks before shell commands run, and this McpManager call was not asked (a host that wants such calls asked sets McpManager to ask). Do not retry.`
      : `action=${call.action} would run "${commandLine}" on this host as a stdio server, and the host's approval denies shell commands (Bash is denied or not in this registry). Do not retry.`,
    { serverId: config.id },
  );
}
