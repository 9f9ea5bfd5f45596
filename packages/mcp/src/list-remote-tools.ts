import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import { coerceMcpRemoteTool } from "./remote-tool-schema.js";
import type { McpRemoteTool } from "./mcp-remote-types.js";
import { readTaskSupport } from "./tasks/task-support.js";

/** Every page of a server's `tools/list`, coerced. */
export interface McpToolListing {
  tools: McpRemoteTool[];
  /** One line per tool that was repaired or skipped, naming the tool and the server. */
  warnings: string[];
}

// Deliberately loose: the SDK's own ListToolsResultSchema rejects the whole
// answer when one tool's schema is off, which would hide every tool of the server.
const PermissiveListToolsResultSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * Lists every page of a server's tools without the MCP SDK's strict result
 * schema and coerces each tool on its own (see `coerceMcpRemoteTool`), so
 * one tool with a broken input schema no longer disables its whole server.
 * A tool that cannot be coerced (no name) is left out with a warning. A
 * cursor the server already sent ends the listing instead of looping.
 *
 * Note: the SDK's `client.listTools()` also caches output-schema validators
 * and task-support flags; listing through `client.request` skips that, so
 * `structuredContent` is passed on unvalidated.
 */
export async function listMcpRemoteTools(client: Client, serverId: string, options: { timeout?: number; signal?: AbortSignal } = {}): Promise<McpToolListing> {
  const tools: McpRemoteTool[] = [];
  const warnings: string[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, PermissiveListToolsResultSchema, options);
    for (const raw of page.tools) {
      const coerced = coerceMcpRemoteTool(raw);
      if ("skipped" in coerced) {
        warnings.push(`MCP server ${serverId}: ${coerced.skipped}; it is skipped, the server's other tools stay available.`);
        continue;
      }
      const taskSupport = readTaskSupport(raw);
      // Only `execution.taskSupport` counts; a top-level field of that name the server sent is dropped.
      if (taskSupport !== undefined) coerced.tool.taskSupport = taskSupport;
      else delete coerced.tool.taskSupport;
      tools.push(coerced.tool);
      if (coerced.fixes.length > 0)
        warnings.push(
          `MCP server ${serverId}: tool ${coerced.tool.name} has an invalid input schema (${coerced.fixes.join("; ")}); it is offered with the repaired schema.`,
        );
    }
    cursor = page.nextCursor;
    if (cursor !== undefined && seenCursors.has(cursor)) break;
    if (cursor !== undefined) seenCursors.add(cursor);
  } while (cursor);
  return { tools, warnings };
}
