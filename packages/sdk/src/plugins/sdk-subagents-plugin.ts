import type { ToolPlugin } from "@agent-tools/core";
import { type SdkSubagentOptions, createSdkSubagentBundle } from "../subagent-wiring.js";

/**
 * Agent and SendMessage (chat scope) through `subagentTools`: read-only
 * children run on this registry, worktree children on a child registry built
 * from every plugin's `child` policy. The registry's conversation also names
 * the saved runs unless `conversationId` is set. Never in a child.
 */
export function sdkSubagentsPlugin(options: SdkSubagentOptions): ToolPlugin {
  return {
    id: "subagents",
    scopes: ["chat"],
    child: "omit",
    create: (host) =>
      createSdkSubagentBundle(
        options.conversationId === undefined && host.conversationId !== undefined ? { ...options, conversationId: host.conversationId } : options,
        host,
      ),
  };
}
