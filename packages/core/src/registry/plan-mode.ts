import { ToolError } from "../errors.js";
import type { ToolDefinition } from "../types.js";
import { resolveToolAnnotations } from "./tool-annotations.js";

/**
 * Whether plan mode lists and runs `tool`: what its metadata's
 * `annotations.listedInPlanMode` says (see `resolveToolAnnotations`; a tool
 * that declares no annotations is listed exactly when read-only). The SDK's
 * read-only tools and the tools that only ask or plan (AskUserQuestion,
 * ExitPlanMode, Agent, which starts read-only agents in plan mode, and
 * SendMessage) declare it; a host's tool that only shares such a name, and
 * every MCP server's tool, does not. A call to any other tool is refused in
 * plan mode ({@link planModeRefusal}).
 *
 * @example
 * const visible = registryTools.filter((tool) => !planMode || isListedInPlanMode(tool));
 */
export function isListedInPlanMode(tool: Pick<ToolDefinition, "metadata">): boolean {
  return resolveToolAnnotations(tool.metadata).listedInPlanMode;
}

/**
 * What a call to a tool plan mode does not list answers: plan mode reaches
 * the executors too, so a model that calls a write tool it remembers from
 * before plan mode started is refused, not obeyed. `registryTools` (the
 * registry's tools) name the state-changing tools plan mode still runs and
 * the one that presents the plan (kind `exit_plan_mode`).
 */
export function planModeRefusal(toolName: string, registryTools: readonly Pick<ToolDefinition, "name" | "metadata">[] = []): ToolError {
  const listed = registryTools.filter((tool) => isListedInPlanMode(tool));
  const others = listed.filter((tool) => !resolveToolAnnotations(tool.metadata).readOnly).map((tool) => tool.name);
  const present = listed.find((tool) => tool.metadata.kind === "exit_plan_mode")?.name;
  const allowed = others.length === 0 ? "read-only tools" : `read-only tools and ${others.join(", ")}`;
  const next = present === undefined ? "Finish the plan and present it to the user." : `Finish the plan and present it with ${present}.`;
  return new ToolError("permission_denied", `${toolName} cannot run in plan mode: only ${allowed} run until the user approves a plan. ${next}`, {
    details: { planMode: true },
    recoverable: false,
  });
}
