import type { ToolDefinition } from "../types.js";

/**
 * Tools listed in plan mode although they are not read-only: the way out of
 * plan mode, and the subagent tools (children of a parent in plan mode only read).
 */
export const PLAN_MODE_EXTRA_TOOL_NAMES: readonly string[] = Object.freeze(["ExitPlanMode", "Agent", "SendMessage"]);

const extra = new Set(PLAN_MODE_EXTRA_TOOL_NAMES);

/**
 * Whether plan mode lists `tool` to the model: a tool whose metadata says it
 * is read-only, or one of {@link PLAN_MODE_EXTRA_TOOL_NAMES}. Plan mode
 * filters only what the model sees; a call to any other tool still runs
 * (the executors are unchanged), so a host that wants calls refused too
 * sets an approval policy.
 *
 * @example
 * const visible = registryTools.filter((tool) => !planMode || isListedInPlanMode(tool));
 */
export function isListedInPlanMode(tool: Pick<ToolDefinition, "name" | "metadata">): boolean {
  return tool.metadata.isReadOnly === true || extra.has(tool.name);
}
