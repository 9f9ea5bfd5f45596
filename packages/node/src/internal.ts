/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The process-tree helpers and the sandbox policy resolution that the shell,
 * cron and sdk packages use next to `ExecaProcessRunner` and `BubblewrapSandbox`.
 * Hosts import from `@agent-tools/node`.
 *
 * @packageDocumentation
 */
export { isProcessAlive, readProcessInfo, readProcessTreeTag } from "./process-tree.js";
export { killProcessTree } from "./process-tree-killer.js";
export { checkSandboxSettings } from "./sandbox/check-sandbox-settings.js";
export { defaultHiddenPaths, resolveSandboxPolicy } from "./sandbox/sandbox-policy.js";
export { NodeDurableProcessLauncher } from "./durable/node-durable-process-launcher.js";
export { readJsonFile, writeJsonAtomic } from "./durable/durable-session-files.js";
export type {
  DurableLaunchRequest,
  DurableLogRead,
  DurableProcessLauncher,
  DurableProcessSpec,
  DurableProcessView,
  DurableSupervisorState,
} from "./durable/durable-process-types.js";
