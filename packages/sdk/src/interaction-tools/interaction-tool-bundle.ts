import type { ToolBundle } from "@agent-tools/core";
import { createAskUserQuestionTool } from "./ask-user-question-tool.js";
import { createExitPlanModeTool } from "./exit-plan-mode-tool.js";
import type { InteractionHostOptions, PlanModeControl } from "./interaction-types.js";

/** Options of {@link createInteractionToolBundle}. */
export interface InteractionToolBundleOptions extends InteractionHostOptions {
  /**
   * The registry whose plan mode ExitPlanMode reads and leaves. A getter,
   * because the bundle is built before its registry; `undefined` (not built
   * yet, or no registry) lists no ExitPlanMode and leaves nothing on approval.
   */
  planMode?: () => PlanModeControl | undefined;
}

/**
 * The trusted bundle `interaction` (chat scope only): AskUserQuestion and
 * ExitPlanMode. Both are always callable (their names are reserved), but
 * listed to the model only when they can work: AskUserQuestion when the host
 * gives `onAskUserQuestion`, ExitPlanMode when the host gives
 * `onExitPlanMode` and the registry is in plan mode. A call without its
 * callback is refused with a message that tells the model what to do instead.
 *
 * @example
 * let registry: ToolRegistry | undefined;
 * const interaction = createInteractionToolBundle({ onAskUserQuestion, onExitPlanMode, planMode: () => registry });
 * registry = createToolRegistry({ workdir, bundles: [interaction], planMode: true });
 */
export function createInteractionToolBundle(options: InteractionToolBundleOptions = {}): ToolBundle {
  const host: InteractionHostOptions = options;
  const planMode = () => options.planMode?.();
  const tools = [createAskUserQuestionTool(host), createExitPlanModeTool(host, planMode)];
  return {
    id: "interaction",
    trusted: true,
    listTools: () => tools,
    isExposed(name) {
      if (name === "AskUserQuestion") return typeof host.onAskUserQuestion === "function";
      if (name === "ExitPlanMode") return typeof host.onExitPlanMode === "function" && planMode()?.planMode === true;
      return true;
    },
  };
}
