import { SdkError, type ToolBundle, type ToolDefinition } from "@agent-tools/core";
import { HttpGetTest } from "./http-get-test.js";

/**
 * Tools a host opts into by id (`systemTools` of `buildBuiltinToolRegistry`):
 * useful to many hosts, but not offered to every model by default.
 */
const SYSTEM_TOOLS = { HttpGetTest } satisfies Record<string, ToolDefinition>;

/** The id of a selectable system tool; the id is also the tool's name. */
export type SystemToolId = keyof typeof SYSTEM_TOOLS;

/** Every selectable system tool id. */
export const SYSTEM_TOOL_IDS = Object.keys(SYSTEM_TOOLS) as readonly SystemToolId[];

/**
 * A trusted bundle (`system`) of the selected system tools, in the order
 * given; an id given twice is used once. An unknown id throws `SdkError`
 * listing the known ones.
 *
 * @example
 * const bundle = createSystemToolBundle(["HttpGetTest"]);
 */
export function createSystemToolBundle(ids: readonly SystemToolId[]): ToolBundle {
  if (!Array.isArray(ids)) throw new SdkError("invalid_options", `systemTools must be an array of ids (${SYSTEM_TOOL_IDS.join(", ")}).`);
  const tools: ToolDefinition[] = [];
  for (const id of new Set(ids)) {
    if (typeof id !== "string" || !Object.hasOwn(SYSTEM_TOOLS, id)) {
      throw new SdkError("invalid_options", `Unknown system tool ${JSON.stringify(id)}; known: ${SYSTEM_TOOL_IDS.join(", ")}.`, {
        known: [...SYSTEM_TOOL_IDS],
      });
    }
    tools.push(SYSTEM_TOOLS[id as SystemToolId]);
  }
  return { id: "system", trusted: true, listTools: () => tools };
}
