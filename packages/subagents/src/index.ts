/**
 * @agent-tools/subagents: the Agent and SendMessage tools. Children run a
 * tool loop through the host's ModelClient, read-only in the parent's
 * workspace or in their own git worktree, talk over a message bus, and are
 * persisted so a run resumes after a crash.
 *
 * @packageDocumentation
 */
export type { AgentPromptTemplate } from "./domain/subagent-types.js";
export type { SubagentStore } from "./ports/subagent-store.js";
export type { SubagentApplyRecorder, SubagentWorktrees } from "./ports/subagent-worktrees.js";

// Domain: the call id and arguments a UI gives one card per agent.
export { subagentCardCallId, subagentCardArguments } from "./domain/subagent-protocol.js";
export type {
  SubagentReportDetails,
  SubagentBatchDetails,
} from "./domain/subagent-protocol.js";
// End of domain exports.

// Persistence: subagent stores (in memory, SQLite and PostgreSQL through Kysely).
export { InMemorySubagentStore } from "./ports/in-memory-subagent-store.js";
export { KyselySubagentStore } from "./stores/kysely-subagent-store.js";
// Worktrees: git worktrees of worktree-mode children.
export { GitSubagentWorktrees } from "./runtime/git-subagent-worktrees.js";
export type { GitSubagentWorktreesOptions } from "./runtime/git-subagent-worktrees.js";
export { WorkspaceSubagentWorktrees } from "./runtime/workspace-subagent-worktrees.js";
export type { WorkspaceSubagentWorktreesOptions } from "./runtime/workspace-subagent-worktrees.js";
// End of persistence and worktree exports.

// Runtime: scheduler, conversation state, the run state machine and the batch.
export type { SubagentSchedulerLimits } from "./runtime/subagent-scheduler.js";
// Tools: Agent, SendMessage and their bundle.
export { createSubagentToolBundle } from "./tools/subagent-tool-bundle.js";
export { createApplyCheckpointRecorder } from "./runtime/apply-checkpoint-recording.js";
export type { SubagentToolBundle, SubagentToolBundleOptions } from "./tools/subagent-tool-bundle.js";
// End of runtime and tool exports.
export { subagentTools } from "./tools/subagent-tools-plugin.js";
export type { SubagentToolsPluginOptions } from "./tools/subagent-tools-plugin.js";
