/**
 * A call checked against one definition of a tool must not reach another:
 * when the server's live listing (a lazy start's first listing, or a
 * listing that arrived while the call waited) shows the called tool with
 * another description, title, input schema, annotations or task support
 * than the definition the call was validated (and approved) against, the
 * call is not sent. The rebuilt tool is what the next call is checked and
 * approved against.
 */
import { ToolError } from "@agent-tools/core";
import type { McpRemoteTool } from "../mcp-remote-types.js";

/** The parts of a listed tool that make its definition (what the model and the host's approval saw). */
const DEFINITION_FIELDS = ["title", "description", "inputSchema", "annotations", "taskSupport"] as const;

/** One part of a tool's definition. */
export type McpToolDefinitionField = (typeof DEFINITION_FIELDS)[number];

/** JSON with object keys sorted at every depth (a cached manifest and a live listing may order keys differently). */
function canonicalJson(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== "object" || Array.isArray(member)) return member;
    // No prototype: an own `__proto__` key is kept as a member.
    const sorted = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  });
}

/** The definition fields in which `live` differs from `called` (empty: the same definition). */
export function changedToolFields(called: McpRemoteTool, live: McpRemoteTool): McpToolDefinitionField[] {
  return DEFINITION_FIELDS.filter((field) => canonicalJson(called[field]) !== canonicalJson(live[field]));
}

/** The `conflict` a model gets when the server's live definition of the called tool is not the one its call was checked against. */
export function toolChangedError(toolName: string, remoteName: string, serverId: string, changed: readonly McpToolDefinitionField[]): ToolError {
  return new ToolError(
    "conflict",
    `The MCP tool ${toolName} changed on server ${serverId} (${changed.join(", ")} differ from the definition this call was checked against); ` +
      `the call was not sent. Read the tool's new definition (it replaced the old one in your tools; McpManager action=tools server_id=${serverId} shows it) ` +
      `and call it again only if it still does what you want.`,
    { details: { serverId, tool: remoteName, changed: [...changed] } },
  );
}
