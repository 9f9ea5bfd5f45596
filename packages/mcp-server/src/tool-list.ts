import type { ToolMetadata, ToolRegistry } from "@agent-tools/core";
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/** Kinds of non-read-only tools that overwrite, delete or run arbitrary commands. */
const DESTRUCTIVE_KINDS = new Set(["delete", "write", "edit", "execute", "process", "stop"]);
/** Kinds whose repeated call with the same arguments has no further effect. */
const IDEMPOTENT_KINDS = new Set(["write", "delete"]);

/**
 * MCP tool annotations from a tool's metadata: `readOnlyHint` from
 * `isReadOnly`; for tools that change state, `destructiveHint` and
 * `idempotentHint` where the kind tells (a write, a delete, a shell command);
 * `openWorldHint` for tools that reach beyond the workspace (MCP servers,
 * shell commands) and `false` for file tools. Hints the metadata says
 * nothing about are left out, so clients apply the MCP defaults.
 *
 * @example
 * toolAnnotations({ groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" });
 * // { readOnlyHint: true, openWorldHint: false }
 */
export function toolAnnotations(metadata: ToolMetadata | undefined): ToolAnnotations | undefined {
  if (!metadata) return undefined;
  const annotations: ToolAnnotations = { readOnlyHint: metadata.isReadOnly };
  if (!metadata.isReadOnly) {
    if (DESTRUCTIVE_KINDS.has(metadata.kind)) annotations.destructiveHint = true;
    if (IDEMPOTENT_KINDS.has(metadata.kind)) annotations.idempotentHint = true;
  }
  if (metadata.groupId === "mcp" || metadata.groupId === "shell") annotations.openWorldHint = true;
  else if (metadata.groupId === "fs") annotations.openWorldHint = false;
  return annotations;
}

/**
 * The registry's exposed tools as MCP `tools/list` entries (name,
 * description, JSON Schema input, annotations), minus the excluded names
 * (given lower-cased).
 *
 * @example
 * const { tools } = { tools: listMcpTools(registry, new Set(["bash"])) };
 */
export function listMcpTools(registry: ToolRegistry, excluded: ReadonlySet<string>): Tool[] {
  const metadata = registry.metadataByName;
  return registry.tools
    .filter((tool) => !excluded.has(tool.name.toLowerCase()))
    .map((tool) => {
      const annotations = toolAnnotations(metadata[tool.name]);
      return {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as Tool["inputSchema"],
        ...(annotations ? { annotations } : {}),
      };
    });
}
