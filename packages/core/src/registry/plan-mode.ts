import { ToolError } from "../errors.js";
import type { ToolDefinition } from "../types.js";

/**
 * Tools listed in plan mode although they are not read-only: the way out of
 * plan mode, and the subagent tools (in plan mode Agent starts read-only
 * children only; they call the parent's tools, which plan mode limits too).
 */
export const PLAN_MODE_EXTRA_TOOL_NAMES: readonly string[] = Object.freeze(["ExitPlanMode", "Agent", "SendMessage"]);

const extra = new Set(PLAN_MODE_EXTRA_TOOL_NAMES);

/**
 * Whether plan mode lists and runs `tool`: a tool whose metadata says it is
 * read-only, or one of {@link PLAN_MODE_EXTRA_TOOL_NAMES}. A call to any
 * other tool is refused in plan mode ({@link planModeRefusal}); Agent starts
 * read-only agents only.
 *
 * @example
 * const visible = registryTools.filter((tool) => !planMode || isListedInPlanMode(tool));
 */
export function isListedInPlanMode(tool: Pick<ToolDefinition, "name" | "metadata">): boolean {
  return tool.metadata.isReadOnly === true || extra.has(tool.name);
}

/**
 * What a call to a tool plan mode does not list answers: plan mode reaches
 * the executors too, so a model that calls a write tool it remembers from
 * before plan mode started is refused, not obeyed.
 */
export function planModeRefusal(toolName: string): ToolError {
  return new ToolError(
    "permission_denied",
    `${toolName} cannot run in plan mode: only read-only tools, Agent (read-only agents), SendMessage and ExitPlanMode run until the user approves a plan. Finish the plan and present it with ExitPlanMode.`,
    { details: { planMode: true }, recoverable: false },
  );
}
