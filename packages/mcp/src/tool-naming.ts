/**
 * How an MCP server's tool becomes a model-facing tool name:
 * `mcp_<server>_<tool>`, at most 64 characters, with an FNV-1a suffix when
 * the plain form is too long.
 */

/** Longest sanitised server or tool part. */
export const MCP_NAME_PART_MAX = 48;
/** Longest tool name (the provider limit). */
export const MCP_TOOL_NAME_MAX = 64;

/**
 * FNV-1a 32-bit over the UTF-16 code units of `text` (offset `0x811c9dc5`,
 * prime `0x01000193`, 32-bit multiply), as an unsigned integer.
 *
 * @example
 * fnv1a32("a"); // 0xe40c292c
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Sanitises one part of a name: trim, replace runs of characters outside
 * `[A-Za-z0-9_-]` with `_`, strip leading and trailing `_`, cut to 48, and
 * fall back to `fallback` when nothing is left.
 */
export function sanitizeMcpNamePart(part: string, fallback: string): string {
  const cleaned = part
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MCP_NAME_PART_MAX);
  return cleaned === "" ? fallback : cleaned;
}

/**
 * The model-facing name of tool `toolName` of server `serverId`.
 *
 * `mcp_<sid>_<tn>` when it fits in 64 characters; otherwise
 * `mcp_<sid[0..16]>_<tn[0..24]>_<hash8>` where `hash8` is
 * {@link fnv1a32} of `serverId + "::" + toolName` in 8 hex digits.
 *
 * @example
 * buildMcpToolName("github", "create_issue"); // "mcp_github_create_issue"
 */
export function buildMcpToolName(serverId: string, toolName: string): string {
  const server = sanitizeMcpNamePart(serverId, "server");
  const tool = sanitizeMcpNamePart(toolName, "tool");
  const plain = `mcp_${server}_${tool}`;
  if (plain.length <= MCP_TOOL_NAME_MAX) return plain;
  const hash = fnv1a32(`${serverId}::${toolName}`).toString(16).padStart(8, "0");
  return `mcp_${server.slice(0, 16)}_${tool.slice(0, 24)}_${hash}`.slice(0, MCP_TOOL_NAME_MAX);
}

/**
 * The prefixes every model-facing tool name of server `serverId` starts
 * with (the plain form's, and the shortened form's when the sanitised id is
 * longer than 16 characters). Approval rules may name a tool of a server
 * that is not connected yet by such a name.
 *
 * @example
 * mcpToolNamePrefixes("github"); // ["mcp_github_"]
 */
export function mcpToolNamePrefixes(serverId: string): string[] {
  const server = sanitizeMcpNamePart(serverId, "server");
  return server.length > 16 ? [`mcp_${server}_`, `mcp_${server.slice(0, 16)}_`] : [`mcp_${server}_`];
}
