import type { McpManifest } from "@agent-tools/core/mcp";
import { z } from "zod";

/**
 * The largest manifest a persistent store keeps: 4 MiB of JSON (UTF-8).
 * A server listing more is not cached; its tools are listed live each build.
 */
export const MAX_STORED_MCP_MANIFEST_BYTES = 4 * 1024 * 1024;

/** How many manifests (configuration hashes) a store keeps per server id; a put beyond it drops the oldest by `fetchedAt`. */
export const MAX_MCP_MANIFESTS_PER_SERVER = 16;

const toolSchema = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.unknown().optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  taskSupport: z.enum(["required", "optional", "forbidden"]).optional(),
});

/** The shape a stored manifest must have to be handed out (a row that fails it is a miss). */
export const mcpManifestSchema = z.object({
  serverId: z.string().min(1),
  configHash: z.string().min(1),
  fetchedAt: z.number().finite(),
  tools: z.array(toolSchema),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  capabilities: z
    .object({
      resources: z.boolean().optional(),
      resourceSubscribe: z.boolean().optional(),
      prompts: z.boolean().optional(),
      tasks: z.boolean().optional(),
    })
    .optional(),
  instructions: z.string().optional(),
});

/**
 * Parses a stored manifest body; undefined when it is not JSON, does not
 * have the manifest's shape, or names another server or configuration than
 * the row it came from. Never throws.
 */
export function parseStoredMcpManifest(body: string, serverId: string, configHash: string): McpManifest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = mcpManifestSchema.safeParse(value);
  if (!parsed.success) return undefined;
  if (parsed.data.serverId !== serverId || parsed.data.configHash !== configHash) return undefined;
  return parsed.data as McpManifest;
}
