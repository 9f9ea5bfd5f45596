import { createHash } from "node:crypto";
import type { McpServerConfig } from "@agent-tools/core/mcp";

/** sha256 (hex) of `entries` sorted by name, names AND values: a changed value changes it, and it cannot be read back. */
function entriesDigest(entries: Record<string, string> | undefined): string {
  const sorted = Object.entries(entries ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(sorted)).digest("hex");
}

/**
 * The hash that keys a server's cached manifest: sha256 (hex) over a stable
 * JSON of what decides which server answers and what it lists: `scope`
 * (the project the registry works on), transport, command, args, url,
 * messageUrl, cwd, a sha256 digest of the `env` entries and one of the
 * `headers` entries (sorted; names AND values), and the OAuth grant, client
 * id and scope. So a manifest is reused only for the same configuration
 * values in the same project: another tenant's token, another `PATH`, or
 * another project sharing the store is a miss. Only this final hash is
 * stored, never a value; but a hash is only as safe as what it digests: a
 * low-entropy secret (a short PIN, a guessable token) can be found by
 * trying candidates against a stored hash. A rotated token is a miss too
 * (the server is started once to list its tools anew). The OAuth client
 * secret stays out.
 *
 * `scope` names the registry's project: `mcpTools` / `buildBuiltinToolRegistry`
 * pass the workspace (its real path, or a non-local workspace's label and
 * path); `createMcpToolBundles` without `manifestScope` uses `""`.
 *
 * @example
 * const hash = mcpConfigHash(normalizeMcpServerConfig({ id: "docs", command: "docs-mcp" }), "/work/project");
 */
export function mcpConfigHash(config: McpServerConfig, scope: string): string {
  const identity = {
    scope,
    transport: config.transport ?? null,
    command: config.command ?? null,
    args: Array.isArray(config.args) ? config.args : [],
    url: config.url ?? null,
    messageUrl: config.messageUrl ?? null,
    cwd: config.cwd ?? null,
    env: entriesDigest(config.env),
    headers: entriesDigest(config.headers),
    auth:
      config.auth === undefined
        ? null
        : { grant: config.auth.grant ?? "authorization_code", clientId: config.auth.clientId ?? null, scope: config.auth.scope ?? null },
  };
  // Keys are written in this fixed order, so JSON.stringify is stable.
  return createHash("sha256").update(JSON.stringify(identity)).digest("hex");
}
