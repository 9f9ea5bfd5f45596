import type { ToolPlugin } from "@agent-tools/core";
import { type SdkInteractionOptions, createInteractionToolBundle } from "../interaction-tools/index.js";

/**
 * AskUserQuestion and ExitPlanMode, on the host's dialogs and the plan mode
 * of their own registry. A worktree child gets them without the host's
 * dialogs (listed nowhere, refused when called).
 */
export function interactionPlugin(options: SdkInteractionOptions = {}): ToolPlugin {
  // planMode is the registry's (read by the composition), not the dialogs'.
  const { planMode: _planMode, ...dialogs } = options;
  return {
    id: "interaction",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => interactionPlugin(),
    create: (host) => createInteractionToolBundle({ ...dialogs, planMode: () => (host.registry.built ? host.registry : undefined) }),
  };
}
