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
export type { SubagentWorktree, SubagentWorktreeChanges, SubagentApplyOutcome, SubagentWorktrees } from "./ports/subagent-worktrees.js";
