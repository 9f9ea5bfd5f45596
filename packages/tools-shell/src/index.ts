/**
 * @agent-tools/tools-shell: Bash (synchronous and resumable), ProcessWait, ProcessStop, ManagedProcess.
 *
 * @packageDocumentation
 */
export { createShellToolBundle } from "./shell-tool-bundle.js";
export type { ShellToolBundle, ShellToolBundleOptions } from "./shell-tool-bundle.js";
export { checkBackgroundCommand, checkLeadingSleep, checkNulByte, splitCommandSegments } from "./command-guards.js";
export type { CommandPolicy, CommandPolicyRequest, ShellMode } from "./command-guards.js";
export { OutputRingBuffer, DEFAULT_PAGE_BYTES, DEFAULT_RING_CAPACITY } from "./output-ring-buffer.js";
export type { OutputFragment, OutputPage, OutputStream } from "./output-ring-buffer.js";
export { ShellSession } from "./shell-session.js";
export type { ShellSessionOptions, ShellSessionStatus, WaitOutcome } from "./shell-session.js";
export { ShellSessionStore, MAX_SHELL_SESSIONS, SESSION_RETENTION_MS } from "./shell-session-store.js";
export type { ShellSessionStoreOptions } from "./shell-session-store.js";
export type { ShellSessionResponse } from "./session-response.js";
export type { ShellSyncDetails } from "./bash-sync-tool.js";
export type { ShellSyncResult } from "./run-shell-sync.js";
export type { ManagedProcessDetails } from "./managed-process-tool.js";
export type { LogPage, ManagedProcessRecord, ManagedProcessState } from "./managed-process-manager.js";
export { PROCESS_LOG_MAX_ENTRIES, PROCESS_LOG_MAX_AGE_MS } from "./process-log-pruning.js";
export type { ProcessLogRetention } from "./process-log-pruning.js";
export type { ShellInfo } from "./shell-environment.js";
export {
  PROVIDER_TIMEOUTS,
  DEFAULT_TIMEOUT_LIMITS,
  SESSION_YIELD,
  WAIT_YIELD,
  resolveSessionTimeout,
  resolveSyncTimeout,
  timeoutLimitsFor,
} from "./timeout-policy.js";
export type { TimeoutLimits } from "./timeout-policy.js";
export { shellTools, COMMAND_POLICY_SLOT } from "./shell-tools-plugin.js";
