/**
 * MCP settings: the server configuration shape, normalisation, static
 * validation and the "incomplete configuration" check run before loading.
 */
import type { McpServerConfig, McpServerConfigInput, McpSettings, McpTransportKind } from "@agent-tools/core/mcp";
import { type McpConfigProblem, McpConfigError } from "./mcp-errors.js";
import { normalizeMcpServerAuth, validateMcpServerAuth } from "./oauth/mcp-server-auth-config.js";

export type { McpServerConfig, McpServerConfigInput, McpSettings, McpTransportKind } from "@agent-tools/core/mcp";

/** Every transport, in a stable order. */
export const MCP_TRANSPORTS: readonly McpTransportKind[] = ["stdio", "http", "sse"];

/** Default per-server timeout in milliseconds (connect and each request). */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** An empty settings object. */
export function emptyMcpSettings(): McpSettings {
  return { servers: [], selected: [] };
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item !== undefined && item !== null) out[key] = String(item);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Fills defaults (enabled, `stdio`, empty args, timeout 60 000) and trims
 * strings. An unknown transport string is kept so that validation can name it.
 */
export function normalizeMcpServerConfig(input: McpServerConfigInput): McpServerConfig {
  const timeout =
    typeof input.timeoutMs === "number" && Number.isFinite(input.timeoutMs) && input.timeoutMs > 0 ? Math.floor(input.timeoutMs) : DEFAULT_MCP_TIMEOUT_MS;
  const transport = typeof input.transport === "string" && input.transport.trim() !== "" ? input.transport.trim().toLowerCase() : "stdio";
  const config: McpServerConfig = {
    id: typeof input.id === "string" ? input.id.trim() : "",
    enabled: input.enabled !== false,
    transport: transport as McpTransportKind,
    command: typeof input.command === "string" ? input.command.trim() : "",
    args: Array.isArray(input.args) ? input.args.map((arg) => String(arg)) : [],
    url: typeof input.url === "string" ? input.url.trim() : "",
    timeoutMs: timeout,
  };
  if (typeof input.description === "string" && input.description.trim() !== "") config.description = input.description.trim();
  if (typeof input.docsUrl === "string" && input.docsUrl.trim() !== "") config.docsUrl = input.docsUrl.trim();
  const env = stringRecord(input.env);
  if (env) config.env = env;
  if (typeof input.cwd === "string" && input.cwd.trim() !== "") config.cwd = input.cwd.trim();
  const headers = stringRecord(input.headers);
  if (headers) config.headers = headers;
  if (typeof input.messageUrl === "string" && input.messageUrl.trim() !== "") config.messageUrl = input.messageUrl.trim();
  const auth = normalizeMcpServerAuth(input.auth);
  if (auth) config.auth = auth;
  if (input.ttlMs !== undefined) {
    const reason = ttlMsProblem(input.ttlMs);
    if (reason) throw new McpConfigError([{ label: config.id || "server", reason }]);
    config.ttlMs = input.ttlMs;
  }
  return config;
}

/** Why `value` is not a valid `ttlMs` (a non-negative finite integer of milliseconds), or undefined when it is. */
export function ttlMsProblem(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return undefined;
  return `ttlMs must be a non-negative integer number of milliseconds (0: refetched at every build; default 86400000), not ${JSON.stringify(value) ?? String(value)}`;
}

/** Enabled servers with a non-empty id, in settings order. */
export function selectEnabledMcpServers(settings: McpSettings): McpServerConfig[] {
  return (settings.servers ?? []).filter((server) => server.enabled !== false && typeof server.id === "string" && server.id.trim() !== "");
}

/** Why a configuration cannot be loaded, or undefined when it is complete. */
export function incompleteReason(server: Partial<McpServerConfig> & { transport?: string }): string | undefined {
  if (typeof server.id !== "string" || server.id.trim() === "") return "missing id (the server name)";
  const transport = server.transport ?? "stdio";
  if (!(MCP_TRANSPORTS as readonly string[]).includes(transport)) return `unknown transport "${transport}" (use stdio, http or sse)`;
  if (transport === "stdio" && (typeof server.command !== "string" || server.command.trim() === "")) return "stdio transport without a command";
  if (transport !== "stdio" && (typeof server.url !== "string" || server.url.trim() === "")) return `${transport} transport without a url`;
  if (server.ttlMs !== undefined) return ttlMsProblem(server.ttlMs);
  return undefined;
}

/** Throws {@link McpConfigError} listing every incomplete server among `servers`. */
export function assertCompleteMcpServers(servers: readonly McpServerConfig[]): void {
  const problems: McpConfigProblem[] = [];
  servers.forEach((server, index) => {
    const reason = incompleteReason(server);
    if (reason) problems.push({ label: server.id?.trim() ? server.id : `server #${index + 1}`, reason });
  });
  if (problems.length > 0) throw new McpConfigError(problems);
}

/** The outcome of {@link validateMcpServerConfig}. */
export interface McpValidation {
  errors: string[];
  warnings: string[];
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Static checks of one configuration (nothing is spawned or fetched):
 * stdio needs a command and string args; http/sse need an http(s) URL; an
 * sse `messageUrl` must resolve against `url`; `timeoutMs > 0`; no NUL in
 * `cwd`; a duplicate id when `existingIds` is given. Disabled is a warning.
 */
export function validateMcpServerConfig(raw: McpServerConfigInput, options: { existingIds?: readonly string[] } = {}): McpValidation {
  const errors: string[] = [];
  const warnings: string[] = [];
  // An invalid ttlMs is reported below with the other fields, not thrown by the normalisation.
  const ttlProblem = raw.ttlMs === undefined ? undefined : ttlMsProblem(raw.ttlMs);
  const config = normalizeMcpServerConfig(ttlProblem ? { ...raw, ttlMs: undefined } : raw);
  if (config.id === "") errors.push("id is required (the server name).");
  if (!(MCP_TRANSPORTS as readonly string[]).includes(config.transport)) errors.push(`transport must be stdio, http or sse, not "${config.transport}".`);
  if (config.transport === "stdio") {
    if (config.command === "") errors.push("stdio servers need a command.");
    if (raw.args !== undefined && (!Array.isArray(raw.args) || raw.args.some((arg) => typeof arg !== "string")))
      errors.push("args must be an array of strings.");
  }
  if (config.transport === "http" || config.transport === "sse") {
    if (!isHttpUrl(config.url)) errors.push(`${config.transport} servers need an http(s) url${config.url ? `, not "${config.url}"` : ""}.`);
    if (config.transport === "sse" && config.messageUrl !== undefined && isHttpUrl(config.url)) {
      try {
        new URL(config.messageUrl, config.url);
      } catch {
        errors.push(`messageUrl "${config.messageUrl}" does not resolve against url.`);
      }
    }
  }
  if (raw.timeoutMs !== undefined && !(typeof raw.timeoutMs === "number" && raw.timeoutMs > 0)) errors.push("timeoutMs must be a number greater than 0.");
  if (config.cwd?.includes("\0")) errors.push("cwd must not contain a NUL character.");
  if (ttlProblem) errors.push(`${ttlProblem}.`);
  errors.push(...validateMcpServerAuth(config.auth, config.transport));
  if (options.existingIds?.includes(config.id) && config.id !== "") errors.push(`a server with id "${config.id}" already exists.`);
  if (!config.enabled) warnings.push("the server is disabled; its tools will not be loaded until it is enabled.");
  return { errors, warnings };
}
