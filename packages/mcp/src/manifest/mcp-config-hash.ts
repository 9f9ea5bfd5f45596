import { createHash } from "node:crypto";
import type { McpServerConfig } from "@agent-tools/core/mcp";

/**
 * The hash that keys a server's cached manifest: sha256 (hex) over a stable
 * JSON of what decides which server answers and what it lists: transport,
 * command, args, url, messageUrl, cwd, the sorted NAMES of `env` and
 * `headers`, and the OAuth grant, client id and scope. Values of `env` and
 * `headers` and every secret stay out, so a rotated token keeps the cache
 * and nothing secret can be read back from a stored hash. `cwd` is in it,
 * so the same command run in two projects caches two manifests.
 *
 * @example
 * const hash = mcpConfigHash(normalizeMcpServerConfig({ id: "docs", command: "docs-mcp" }));
 */
export function mcpConfigHash(config: McpServerConfig): string {
  const identity = {
    transport: config.transport ?? null,
    command: config.command ?? null,
    args: Array.isArray(config.args) ? config.args : [],
    url: config.url ?? null,
    messageUrl: config.messageUrl ?? null,
    cwd: config.cwd ?? null,
    envNames: Object.keys(config.env ?? {}).sort(),
    headerNames: Object.keys(config.headers ?? {}).sort(),
    auth:
      config.auth === undefined
        ? null
        : { grant: config.auth.grant ?? "authorization_code", clientId: config.auth.clientId ?? null, scope: config.auth.scope ?? null },
  };
  // Keys are written in this fixed order, so JSON.stringify is stable.
  return createHash("sha256").update(JSON.stringify(identity)).digest("hex");
}
