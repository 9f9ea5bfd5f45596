import { type ToolMetadata, type ToolRegistry, resolveToolAnnotations } from "@agent-tools/core";
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/**
 * MCP tool annotations from what a tool declares (its metadata's
 * `annotations`, or the defaults `resolveToolAnnotations` derives for a tool
 * that declares none): `readOnlyHint` always; `destructiveHint` and
 * `idempotentHint` for tools that change state, where declared;
 * `openWorldHint` where declared. Hints the tool does not declare are left
 * out, so clients apply the MCP defaults.
 *
 * @example
 * toolAnnotations({ groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" });
 * // { readOnlyHint: true, openWorldHint: false }
 */
export function toolAnnotations(metadata: ToolMetadata | undefined): ToolAnnotations | undefined {
  if (!metadata) return undefined;
  const declared = resolveToolAnnotations(metadata);
  const annotations: ToolAnnotations = { readOnlyHint: declared.readOnly };
  if (!declared.readOnly) {
    if (declared.destructive !== undefined) annotations.destructiveHint = declared.destructive;
    if (declared.idempotent !== undefined) annotations.idempotentHint = declared.idempotent;
  }
  if (declared.openWorld !== undefined) annotations.openWorldHint = declared.openWorld;
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
