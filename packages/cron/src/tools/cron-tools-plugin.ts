import type { ToolPlugin } from "@agent-tools/core";
import { type CronTaskManagerToolOptions, createCronTaskManagerTool } from "./cron-task-manager-tool.js";

/**
 * CronTaskManager as a plugin (chat and cron), on the given store. Firing
 * the tasks is a scheduler's job (`startCronScheduler`). Never in a
 * subagent's worktree registry.
 *
 * @example
 * const registry = await buildToolRegistry({ workdir, plugins: [cronTools({ store: await KyselyCronStore.open(storage) })] });
 */
export function cronTools(options: CronTaskManagerToolOptions): ToolPlugin {
  return {
    id: "cron",
    scopes: ["chat", "cron"],
    child: "omit",
    create() {
      const tool = createCronTaskManagerTool(options);
      return { id: "cron", trusted: true, listTools: () => [tool] };
    },
  };
}
