/**
 * @agent-tools/subagents: the Agent and SendMessage tools. Children run a
 * tool loop through the host's ModelClient, read-only in the parent's
 * workspace or in their own git worktree, talk over a message bus, and are
 * persisted so a run resumes after a crash.
 *
 * @packageDocumentation
 */
export { SUBAGENT_LIMITS, SUBAGENT_ID_PATTERN, PARENT_AGENT_ID, BROADCAST_RECIPIENT, SUBAGENT_ISSUE_CODES } from "./domain/subagent-types.js";
export type {
  SubagentMode,
  SubagentApplyPolicy,
  SubagentRunStatus,
  SubagentChannel,
  SubagentIssueCode,
  SubagentIssue,
  AgentEntryInput,
  AgentBatchInput,
  AgentPromptTemplate,
  SubagentIdentity,
  ResolvedAgentEntry,
  SubagentRunRecord,
  SubagentMessage,
} from "./domain/subagent-types.js";
export type { NewSubagentMessage, SubagentStore } from "./ports/subagent-store.js";
export type {
  SubagentWorktree,
  SubagentWorktreeChanges,
  SubagentApplyOutcome,
  SubagentApplyRecorder,
  SubagentApplyRecovery,
  SubagentWorktrees,
} from "./ports/subagent-worktrees.js";

// Domain (pure rules: protocol, validation, policies, prompts, bus, roster).
export { subagentCardCallId, subagentRunId, subagentCardArguments } from "./domain/subagent-protocol.js";
export type {
  SubagentReportDetails,
  SubagentBatchDetails,
  SubagentBatchMode,
  SubagentCardDetails,
  SubagentCardArguments,
  SubagentMessageDetails,
  SubagentApplyStatus,
  SubagentApplyMethod,
  SubagentWorktreeCleanupStatus,
} from "./domain/subagent-protocol.js";
export { validateAgentBatch, AGENT_PARAMETERS, AGENT_ENTRY_FIELDS } from "./domain/agent-batch-validation.js";
export { createIdentity, titleCase } from "./domain/agent-identity.js";
export type { AgentBatchValidation, AgentBatchValidationContext } from "./domain/agent-batch-validation.js";
export { renderAgentRejection, AGENT_REJECTION_HEADER } from "./domain/agent-rejection.js";
export { offeredTemplates, normalizeTemplates, findTemplate } from "./domain/agent-templates.js";
export {
  isToolAllowedForChild,
  isMcpBusinessTool,
  toolNotAvailableText,
  SUBAGENT_EXCLUDED_TOOLS,
  READONLY_CHILD_EXCLUDED_GROUPS,
} from "./domain/child-tool-policy.js";
export type { ChildToolPolicyOptions } from "./domain/child-tool-policy.js";
export { decideApply, applicablePaths, matchesAllowedOutputPath, globToRegExp, IGNORED_CHANGED_FILES } from "./domain/apply-decision.js";
export type { ApplyDecision, ApplySkipReason } from "./domain/apply-decision.js";
export { APPLY_REFUSAL_REASONS, isGitEntryName, hasGitEntry, leavesWorkspace, describeRefusals } from "./domain/apply-refusal.js";
export type { ApplyRefusal, ApplyRefusalReason } from "./domain/apply-refusal.js";
export { decideCleanup } from "./domain/cleanup-decision.js";
export type { CleanupDecision } from "./domain/cleanup-decision.js";
export {
  buildSubagentSystemPrompt,
  buildTaskMessage,
  buildContinuationMessage,
  applyPolicySentence,
  BUS_REFRESH_HEADER,
} from "./domain/subagent-prompts.js";
export type { SubagentSystemPromptOptions } from "./domain/subagent-prompts.js";
export { visibleTo, renderBusSnapshot, renderBusDelta, BUS_DELTA_HEADER, BUS_SNAPSHOT_HEADER, BUS_SNAPSHOT_BUCKETS } from "./domain/message-bus.js";
export type { BusSnapshot } from "./domain/message-bus.js";
export { resolveSendMessage, normalizeChannel, renderSendMessageResult } from "./domain/send-message-rules.js";
export type { SendMessageResolution } from "./domain/send-message-rules.js";
export { renderRosterForAgentTool, renderParentRoster, compareIds } from "./domain/roster-rendering.js";
export { truncateSummary, truncateDiff, EMPTY_SUBAGENT_REPORT } from "./domain/subagent-summary.js";
export { agentInputSchema, agentEntryInputSchema, sendMessageInputSchema } from "./domain/agent-schemas.js";
export type { SendMessageInput } from "./domain/agent-schemas.js";
// End of domain exports.

// Persistence: subagent stores (in memory, SQLite and PostgreSQL through Kysely).
export { InMemorySubagentStore, DEFAULT_SUBAGENT_RUN_LIST_LIMIT, DEFAULT_SUBAGENT_MESSAGE_LIST_LIMIT } from "./ports/in-memory-subagent-store.js";
export { KyselySubagentStore } from "./stores/kysely-subagent-store.js";
export { SUBAGENT_STORAGE_NAMESPACE, SUBAGENT_STORAGE_MIGRATIONS } from "./stores/subagent-migrations.js";
// Worktrees: git worktrees of worktree-mode children.
export {
  GitSubagentWorktrees,
  sanitiseWorktreeLabel,
  SUBAGENT_BRANCH_PREFIX,
  SUBAGENT_WORKTREE_FOLDER,
  SUBAGENT_LABEL_CHARS,
} from "./runtime/git-subagent-worktrees.js";
export type { GitSubagentWorktreesOptions } from "./runtime/git-subagent-worktrees.js";
export { SubagentWorktreeError } from "./runtime/git-subagent-worktree-error.js";
export type { SubagentWorktreeErrorCode } from "./runtime/git-subagent-worktree-error.js";
export { DEFAULT_MAX_PATCH_BYTES } from "./runtime/worktree-snapshot-read.js";
export type { WorktreeSnapshot, WorktreeChange, WorktreeExclusion, WorktreeExclusionReason } from "./runtime/worktree-snapshot-read.js";
export { findApplyRefusals } from "./runtime/git-subagent-worktree-refusals.js";
// End of persistence and worktree exports.

// Runtime: scheduler, conversation state, the run state machine and the batch.
export { Semaphore, KeyedMutex } from "./runtime/semaphore.js";
export { SubagentScheduler } from "./runtime/subagent-scheduler.js";
export type { SubagentSchedulerLimits } from "./runtime/subagent-scheduler.js";
export { SubagentConversation } from "./runtime/subagent-conversation.js";
export type { SubagentEnvironment, WorktreeRegistryOptions, ChildToolOwner } from "./runtime/subagent-environment.js";
export { createChildToolbox } from "./runtime/child-toolbox.js";
export type { ChildToolbox, ChildToolboxOptions } from "./runtime/child-toolbox.js";
export { runSubagentToolLoop, RoundLimitError } from "./runtime/subagent-tool-loop.js";
export type { SubagentToolLoopOptions, SubagentLoopProgress, SubagentLoopResult } from "./runtime/subagent-tool-loop.js";
export { runSubagent } from "./runtime/subagent-run.js";
export type { SubagentRunRequest } from "./runtime/subagent-run.js";
export { settleWorktree } from "./runtime/subagent-settle.js";
export { createApplyCheckpointRecorder } from "./runtime/apply-checkpoint-recording.js";
export type { SubagentSettleReport } from "./runtime/subagent-settle.js";
export { runAgentBatch } from "./runtime/subagent-batch.js";
export { ParentBusView } from "./runtime/parent-bus-view.js";
export type { ParentBusSnapshot } from "./runtime/parent-bus-view.js";
export type { AgentBatchRequest, AgentBatchOutcome } from "./runtime/subagent-batch.js";
// Tools: Agent, SendMessage and their bundle.
export { createAgentTool, AGENT_TOOL_DESCRIPTION } from "./tools/agent-tool.js";
export type { AgentToolOptions } from "./tools/agent-tool.js";
export { createSendMessageTool } from "./tools/send-message-tool.js";
export type { SendMessageSender } from "./tools/send-message-tool.js";
export { createSubagentToolBundle, DEFAULT_SUBAGENT_MAX_ROUNDS } from "./tools/subagent-tool-bundle.js";
export type { SubagentToolBundle, SubagentToolBundleOptions } from "./tools/subagent-tool-bundle.js";
// End of runtime and tool exports.
