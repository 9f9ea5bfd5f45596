/**
 * `--mcp <file>`: MCP servers for the CLI from a JSON settings file
 * (`{ "servers": [{ "id": "crm", "transport": "http", "url": "https://..." }] }`),
 * read once; the session cannot change it (McpManager is read-only).
 */
import { readFileSync } from "node:fs";
import type { BuiltinToolRegistryOptions } from "@agent-tools/sdk";
import { UsageError } from "./cli-options.js";

/** The MCP settings the registry reads. */
export type CliMcpSettings = ReturnType<NonNullable<BuiltinToolRegistryOptions["mcp"]>["getSettings"]>;

/** Reads the settings file; a missing or malformed file is a usage error naming it. */
export function readMcpSettingsFile(file: string): CliMcpSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--mcp ${file}: cannot read it as JSON (${(error as Error).message}).`);
  }
  const servers = (parsed as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers)) throw new UsageError(`--mcp ${file}: expected { "servers": [...] } with one object per MCP server.`);
  return { servers: servers as CliMcpSettings["servers"], selected: [] };
}
