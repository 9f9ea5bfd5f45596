import type { ToolPlugin } from "@agent-tools/core";
import { type SystemToolId, createSystemToolBundle } from "../system-tools/system-tools.js";

/** The selected system tools by id (e.g. HttpGetTest); an unknown id throws `SdkError`. Not in a worktree child. */
export function systemToolsPlugin(ids: readonly SystemToolId[]): ToolPlugin {
  return { id: "system", scopes: ["chat", "cron"], child: "omit", create: () => createSystemToolBundle(ids) };
}
