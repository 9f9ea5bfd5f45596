import { type ApprovalDecision, type RuntimeScope, type ToolErrorCode, ToolError } from "@agent-tools/core";
import type { McpManagerAction, McpManagerDetails, McpOp, McpServerLifecycle } from "@agent-tools/core/mcp";
import type { McpRuntime } from "./mcp-runtime.js";
import type { McpOAuthControl } from "./oauth/mcp-oauth-source.js";
import type { McpServerConfig, McpServerConfigInput, McpSettings } from "./settings.js";

/** Every McpManager action. */
export const MCP_MANAGER_ACTIONS = [
  "list",
  "read",
  "create",
  "update",
  "delete",
  "enable",
  "disable",
  "validate",
  "test",
  "diagnose",
  "restart",
  "stop",
  "tools",
  "login",
  "logout",
] as const satisfies readonly McpManagerAction[];
export type { McpManagerAction, McpManagerDetails } from "@agent-tools/core/mcp";

/** Actions that change the settings. */
export const SETTINGS_WRITE_ACTIONS: ReadonlySet<McpManagerAction> = new Set(["create", "update", "delete", "enable", "disable"]);
/** Actions refused in the cron scope. */
export const CRON_REFUSED_ACTIONS: ReadonlySet<McpManagerAction> = new Set([
  "create",
  "update",
  "delete",
  "enable",
  "disable",
  "restart",
  "stop",
  "login",
  "logout",
]);

/** The registry's approval as McpManager asks it (the plugin passes its registry view). */
export interface McpManagerApprovalView {
  /** With `input`, the decision for that call (`callServerId`, permission rules that deny the tool). */
  approvalDecision(toolName: string, input?: unknown): ApprovalDecision;
}

/** What the McpManager needs from its bundle. */
export interface McpManagerEnvironment {
  getSettings(): McpSettings;
  applyOps?(ops: readonly McpOp[]): void | Promise<void>;
  runtime: McpRuntime;
  /** The OAuth of the runtime's HTTP and SSE servers (status, login, logout); absent: no OAuth actions. */
  oauth?: McpOAuthControl;
  /** Refuse every action that would spawn a stdio server. */
  sandbox: boolean;
  /**
   * Set (to the workspace's label) when the registry works on a non-local
   * workspace: the model's commands run there, never on this host, so a
   * stdio server the model names (create, update, an inline test or
   * diagnose) is refused; the host's stored servers still run here.
   */
  remoteWorkspace?: string;
  /** Reconnects servers and rebuilds dynamic tools after a change; runs in the background. */
  scheduleRefresh(): void;
  /** Rebuilds the dynamic tools from the live connections now. */
  rebuildTools(): void;
  /** Each server's lazy lifecycle (state, tools, manifest tokens, manifest time), started or not; absent: not shown. */
  lifecycles?(servers: readonly McpServerConfig[]): McpServerLifecycle[];
  runtimeScope: RuntimeScope;
  /**
   * The registry's approval: a stdio server the model writes (inline test,
   * tools, diagnose; create; update) is judged as a Bash call, and a copy of
   * a configured server as that server (see `judgeModelStdioServer`).
   * Absent: not judged.
   */
  approvalView?: McpManagerApprovalView;
}

/** Actions that start (or sign in to) the server they name: judged by approval as that server's (see `createServerActionTarget`). */
export const SERVER_USE_ACTIONS: ReadonlySet<McpManagerAction> = new Set(["restart", "test", "tools", "diagnose", "login"]);

/** The facts an McpManager ToolError carries in `details`; {@link ManagerReport.reject} copies them into the result. */
export interface McpManagerErrorFacts {
  serverId?: string;
  missingServerIds?: string[];
  field?: string;
}

/** An McpManager refusal for the model; `facts` go into the error's `details`. */
export function managerError(code: ToolErrorCode, message: string, facts: McpManagerErrorFacts = {}): ToolError {
  return new ToolError(code, message, { details: { ...facts }, recoverable: code !== "permission_denied" });
}

/** `not_found` for server ids missing from the settings. */
export function unknownServersError(ids: readonly string[]): ToolError {
  return managerError("not_found", `no MCP server with id ${ids.map((id) => `"${id}"`).join(", ")}. Use action=list to see the ids.`, {
    missingServerIds: [...ids],
  });
}

const REDACTED = "<redacted>";

/** A copy of `config` with env and header values and the OAuth client secret replaced by `<redacted>`. */
export function redactMcpServerConfig(config: McpServerConfig): McpServerConfig {
  const copy: McpServerConfig = { ...config, args: [...config.args] };
  if (config.auth?.clientSecret !== undefined) copy.auth = { ...config.auth, clientSecret: REDACTED };
  if (config.env) copy.env = Object.fromEntries(Object.keys(config.env).map((key) => [key, REDACTED]));
  if (config.headers) copy.headers = Object.fromEntries(Object.keys(config.headers).map((key) => [key, REDACTED]));
  return copy;
}

/** Next steps derived from an error message. */
export function suggestFixes(message: string, config: Pick<McpServerConfig, "transport" | "command"> | undefined): string[] {
  const out: string[] = [];
  const text = message.toLowerCase();
  if (config?.transport === "stdio" && /enoent|not found|no such file/.test(text)) {
    out.push(`The command "${config.command}" was not found: install it, or use an absolute path (the server gets the host's PATH).`);
  }
  if (/timed? ?out|timeout/.test(text))
    out.push("The server did not answer in time: raise timeoutMs, or check that it starts on its own (a first npx run downloads packages).");
  if (/\b401\b|\b403\b|unauthori[sz]ed|forbidden/.test(text))
    out.push("The server refused the credentials: check the headers (for example Authorization) and the token's scope.");
  if (config?.transport === "sse" && /endpoint|405|messageurl/.test(text))
    out.push("This looks like a legacy SSE server: set messageUrl to its POST endpoint, or use transport http if it speaks Streamable HTTP.");
  if (/econnrefused|fetch failed|enotfound/.test(text)) out.push("Nothing answers at the URL: check it and that the server is running.");
  if (/closed|exited|crash/.test(text)) out.push("The server process ended: run action=diagnose with include_stderr to read its error output.");
  return out;
}

/** The text lines and details of one result. */
export class ManagerReport {
  readonly lines: string[];
  readonly details: McpManagerDetails;
  constructor(action: McpManagerAction) {
    this.lines = [`McpManager action=${action}`];
    this.details = { kind: "manage_mcp", action, ok: true, errors: [] };
  }
  /** Appends one line of result text. */
  line(text: string): this {
    this.lines.push(text);
    return this;
  }
  /** Adds facts to the details; the parameter type keeps them to the keys of McpManagerDetails. */
  set(facts: Partial<Omit<McpManagerDetails, "kind" | "action" | "errors">>): this {
    Object.assign(this.details, facts);
    return this;
  }
  /** Marks the result failed with `message`. */
  fail(message: string): this {
    this.details.ok = false;
    this.details.errors.push(message);
    return this;
  }
  /** Records a refused call: its message, its code and the facts of {@link McpManagerErrorFacts}. */
  reject(error: ToolError): this {
    this.fail(error.message);
    this.details.code = error.code;
    const { serverId, missingServerIds, field } = error.details;
    if (typeof serverId === "string") this.details.serverId = serverId;
    if (Array.isArray(missingServerIds)) this.details.missingServerIds = missingServerIds.map(String);
    if (typeof field === "string") this.details.field = field;
    return this;
  }
  /** The tool output; a failed one starts with "McpManager failed: <errors>". */
  output(isError = !this.details.ok) {
    const text = this.lines.join("\n");
    return { content: isError ? `McpManager failed: ${this.details.errors.join("; ")}\n${text}` : text, details: this.details, isError };
  }
}

/** On a non-local workspace, a stdio server the model names would run on this host, where none of its commands run: refused. */
export function refuseModelStdioOnRemoteWorkspace(environment: McpManagerEnvironment, config: McpServerConfigInput, action: string): void {
  if (environment.remoteWorkspace !== undefined && (config.transport ?? "stdio") === "stdio") {
    throw managerError(
      "permission_denied",
      `action=${action} would start a stdio server on this host, and this registry works on the workspace ${environment.remoteWorkspace}, where its commands run; only http and sse servers (or the host's own stored servers) can be used here.`,
      { serverId: config.id },
    );
  }
}
