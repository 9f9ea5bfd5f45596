import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import type { McpToolEntry } from "./dynamic-tools.js";

/** Above this estimate of MCP schema tokens, MCP tools are hidden until ToolSearch activates them. */
export const DEFAULT_TOOL_SEARCH_TOKEN_BUDGET = 12_000;

/** A rough token estimate of the tools' names, descriptions and schemas (4 characters a token). */
export function estimateToolSchemaTokens(entries: readonly McpToolEntry[]): number {
  let characters = 0;
  for (const { definition } of entries) characters += definition.name.length + definition.description.length + JSON.stringify(definition.jsonSchema).length;
  return Math.ceil(characters / 4);
}

/** A ToolSearch hit. */
export interface ToolSearchHit {
  name: string;
  serverId: string;
  score: number;
}

/**
 * Scores tools against a query: each query word found in the tool name
 * counts 3, in the server id 2, in the description 1.
 */
export function scoreToolSearch(entries: readonly McpToolEntry[], query: string): ToolSearchHit[] {
  const words = query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const hits: ToolSearchHit[] = [];
  for (const entry of entries) {
    const name = `${entry.definition.name} ${entry.toolName}`.toLowerCase();
    const server = entry.serverId.toLowerCase();
    const description = entry.definition.description.toLowerCase();
    let score = 0;
    for (const word of words) {
      if (name.includes(word)) score += 3;
      if (server.includes(word)) score += 2;
      if (description.includes(word)) score += 1;
    }
    if (score > 0) hits.push({ name: entry.definition.name, serverId: entry.serverId, score });
  }
  return hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

/** Input of ToolSearch. */
export const toolSearchInputSchema = z.object({
  query: z.string().min(1).describe("Words describing the capability you need, e.g. 'github issue' or 'read file'."),
  max_results: z.number().int().min(1).max(10).optional().describe("How many tools to activate; default 5, at most 10."),
});

/** Lazy-load state shared by ToolSearch and the dynamic bundle. */
export interface ToolSearchState {
  entries(): McpToolEntry[];
  activated: Set<string>;
  /** Called once per search that exposed tools not exposed before. */
  onActivated?(names: readonly string[]): void;
}

/**
 * The ToolSearch tool (chat only): finds MCP tools hidden by the lazy-load
 * budget and activates the best matches for the rest of the conversation.
 */
export function createToolSearchTool(state: ToolSearchState): ToolDefinition {
  return defineTool({
    name: "ToolSearch",
    description:
      "Finds MCP server tools that are not listed yet (they are loaded on demand to save context) and activates them. " +
      "Give a few words describing what you need; the best matches (default 5, at most 10) are returned with their parameters and become callable by name right away.",
    inputSchema: toolSearchInputSchema,
    metadata: { groupId: "system", kind: "search", isReadOnly: true, displayCategory: "search", annotations: { readOnly: true, listedInPlanMode: true } },
    scopes: ["chat"],
    execute({ query, max_results }) {
      const entries = state.entries();
      const hits = scoreToolSearch(entries, query).slice(0, max_results ?? 5);
      if (hits.length === 0) {
        const servers = [...new Set(entries.map((entry) => entry.serverId))];
        return {
          content: `No MCP tool matches "${query}". Try other words; servers with tools: ${servers.join(", ") || "(none)"}.`,
          details: { query, activated: [], totalTools: entries.length },
        };
      }
      const byName = new Map(entries.map((entry) => [entry.definition.name, entry]));
      const lines = [`Activated ${hits.length} tool(s) for "${query}"; call them by name:`];
      const newlyActivated = hits.filter((hit) => !state.activated.has(hit.name)).map((hit) => hit.name);
      for (const hit of hits) {
        state.activated.add(hit.name);
        const definition = byName.get(hit.name)!.definition;
        lines.push("", `## ${definition.name}`, definition.description, `parameters: ${JSON.stringify(definition.jsonSchema)}`);
      }
      if (newlyActivated.length > 0) state.onActivated?.(newlyActivated);
      return { content: lines.join("\n"), details: { query, activated: hits.map((hit) => hit.name), totalTools: entries.length } };
    },
  });
}
