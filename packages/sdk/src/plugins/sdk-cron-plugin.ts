import type { ToolPlugin } from "@agent-tools/core";
import { type SdkCronOptions, createSdkCronBundle } from "../cron-wiring.js";

/** CronTaskManager (chat and cron), in the host's store, its storage or the shared SQLite file; never in a worktree child. */
export function sdkCronPlugin(options: SdkCronOptions): ToolPlugin {
  return { id: "cron", scopes: ["chat", "cron"], child: "omit", create: (host) => createSdkCronBundle(options, host) };
}
