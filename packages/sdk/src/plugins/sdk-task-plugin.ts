import type { ToolPlugin } from "@agent-tools/core";
import { taskTools } from "@agent-tools/tools-tasks";
import { sqliteTaskStoreFactory } from "../task-store-status.js";
import { type SdkTaskWiringInput, sdkTaskBundleOptions } from "../task-wiring.js";
import { sharedSqliteLease } from "./shared-sqlite-lease.js";

/**
 * The task tools of a built-in registry: one list per workdir and
 * conversation (see task-wiring.ts), in the shared SQLite file unless the
 * host gives a store. The options are checked here, in either scope.
 */
export function sdkTaskPlugin(input: SdkTaskWiringInput): ToolPlugin {
  const taskOptions = sdkTaskBundleOptions(input);
  const plugin = taskTools(taskOptions);
  return {
    ...plugin,
    create: (host) => taskTools({ ...taskOptions, store: taskOptions.store ?? sqliteTaskStoreFactory(sharedSqliteLease(host)) }).create(host),
  };
}
