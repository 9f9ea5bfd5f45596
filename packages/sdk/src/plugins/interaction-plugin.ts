import type { ToolPlugin } from "@agent-tools/core";
import { type InteractionHostOptions, createInteractionToolBundle } from "../interaction-tools/index.js";

/**
 * AskUserQuestion and ExitPlanMode, on the host's dialogs and the plan mode
 * of their own registry. A worktree child gets them without the host's
 * dialogs (listed nowhere, refused when called).
 */
export function interactionPlugin(options: InteractionHostOptions = {}): ToolPlugin {
  return {
    id: "interaction",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => interactionPlugin(),
    create: (host) => createInteractionToolBundle({ ...options, planMode: () => (host.registry.built ? host.registry : undefined) }),
  };
}
