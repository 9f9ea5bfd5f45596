import { ToolError } from "../errors.js";
import type { ToolDefinition } from "../types.js";

/**
 * Tools listed in plan mode although they are not read-only: AskUserQuestion
 * (asking the user is most useful while planning; it changes nothing), the
 * way out of plan mode, and the subagent tools (in plan mode Agent starts
 * read-only children only; they call the parent's tools, which plan mode
 * limits too).
 */
export const PLAN_MODE_EXTRA_TOOL_NAMES: readonly string[] = Object.freeze(["AskUserQuestion", "ExitPlanMode", "Agent", "SendMessage"]);

/**
 * The group and kind each of {@link PLAN_MODE_EXTRA_TOOL_NAMES} carries: a
 * host's own tool that only shares the name (a deploying `Agent`, a
 * `SendMessage` that posts to a chat service) keeps the default group
 * `custom` and is refused like any other write tool.
 */
const EXTRA_TOOL_SIGNATURES: ReadonlyMap<string, string> = new Map([
  ["AskUserQuestion", "system/ask_user"],
  ["ExitPlanMode", "system/exit_plan_mode"],
  ["Agent", "subagent/agent"],
  ["SendMessage", "subagent/message"],
]);

/**
 * Whether plan mode lists and runs `tool`: a tool whose metadata says it is
 * read-only, or one of {@link PLAN_MODE_EXTRA_TOOL_NAMES} with the SDK's
 * group and kind (the name alone is not enough). A call to any other tool is
 * refused in plan mode ({@link planModeRefusal}); Agent starts read-only
 * agents only.
 *
 * @example
 * const visible = registryTools.filter((tool) => !planMode || isListedInPlanMode(tool));
 */
export function isListedInPlanMode(tool: Pick<ToolDefinition, "name" | "metadata">): boolean {
  if (tool.metadata.isReadOnly === true) return true;
  const signature = EXTRA_TOOL_SIGNATURES.get(tool.name);
  return signature !== undefined && signature === `${tool.metadata.groupId}/${tool.metadata.kind}`;
}

/**
 * What a call to a tool plan mode does not list answers: plan mode reaches
 * the executors too, so a model that calls a write tool it remembers from
 * before plan mode started is refused, not obeyed.
 */
export function planModeRefusal(toolName: string): ToolError {
  return new ToolError(
    "permission_denied",
    `${toolName} cannot run in plan mode: only read-only tools, AskUserQuestion, Agent (read-only agents), SendMessage and ExitPlanMode run until the user approves a plan. Finish the plan and present it with ExitPlanMode.`,
    { details: { planMode: true }, recoverable: false },
  );
}
