/**
 * The subagent domain's vocabulary: constants, inputs, identities, runs,
 * messages and the issue codes every layer shares. Pure data, no I/O.
 */

/** Limits and fixed names of the subagent tools. */
export const SUBAGENT_LIMITS = {
  /** Agents in one Agent call, and the default (and largest) concurrency. */
  maxAgents: 8,
  /** Parallel subagent runs per parent turn, across all Agent calls. */
  maxParallelRuns: 8,
  /** Parallel Bash executions per parent turn, across all children. */
  maxParallelBash: 4,
  /** Characters of an agent's summary (its final assistant text). */
  summaryChars: 8000,
  /** Characters of a worktree diff carried in a report. */
  diffChars: 20_000,
  /** Version of the persisted run context; another version resumes fresh. */
  contextSchemaVersion: 2,
  /** Attempts to create a worktree branch on name collisions. */
  worktreeAttempts: 8,
  /** Hydrated run contexts kept in memory per conversation store. */
  hydratedContexts: 64,
  /** Messages in a bus snapshot. */
  snapshotMessages: 24,
  /** Characters of one message body in a snapshot. */
  snapshotBodyChars: 2400,
  /** Messages listed from the store per bus read. */
  busListLimit: 80,
  /** Characters of a message body preview in `subagent_message` details. */
  messagePreviewChars: 800,
  /** Agents and templates listed in the Agent tool description. */
  rosterInDescription: 12,
  /** Characters of a roster entry's last summary in the Agent description. */
  rosterSummaryChars: 500,
  /** Characters of a volatile roster field (run status section). */
  rosterFieldChars: 360,
} as const;

/** Agent ids: `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`. */
export const SUBAGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The parent's id on the message bus. */
export const PARENT_AGENT_ID = "parent";
/** The broadcast recipient. */
export const BROADCAST_RECIPIENT = "*";

/** Where a child works: read-only in the parent's workspace, or in its own git worktree. */
export type SubagentMode = "readonly" | "worktree";
/** What happens to a worktree child's changes when it completes. */
export type SubagentApplyPolicy = "none" | "explicit" | "auto";
/** Status of a run. */
export type SubagentRunStatus = "running" | "completed" | "failed" | "cancelled";
/** Channel of a bus message. */
export type SubagentChannel = "direct" | "shared" | "decision" | "question";

/** Issue codes of a rejected Agent call or a failed provision. */
export const SUBAGENT_ISSUE_CODES = [
  "invalid_arguments",
  "duplicate_agent_id",
  "unknown_agent_id",
  "unknown_template",
  "identity_conflict",
  "worktree_unavailable",
  "output_path_outside_workspace",
  "unknown_recipient",
  "provision_failed",
] as const;
/** One issue code. */
export type SubagentIssueCode = (typeof SUBAGENT_ISSUE_CODES)[number];

/** One problem found by validation; the whole call is rejected when there is any. */
export interface SubagentIssue {
  readonly code: SubagentIssueCode;
  /** The entry's id when the issue belongs to one agent. */
  readonly agentId?: string;
  readonly message: string;
}

/** One entry of the Agent tool's `agents` array, as the model sends it (snake_case kept). */
export interface AgentEntryInput {
  readonly id: string;
  readonly prompt: string;
  readonly name?: string;
  readonly role?: string;
  readonly identity?: string;
  readonly template?: string;
  readonly mode?: SubagentMode;
  readonly apply_policy?: SubagentApplyPolicy;
  readonly allowed_output_paths?: readonly string[];
  readonly resume?: boolean;
  readonly retain_worktree?: boolean;
}

/** The Agent tool's input. */
export interface AgentBatchInput {
  readonly agents: readonly AgentEntryInput[];
  readonly concurrency?: number;
}

/** A prompt template a host offers (only enabled ones with a non-empty prompt are offered). */
export interface AgentPromptTemplate {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly prompt: string;
  readonly enabled: boolean;
}

/** A subagent's identity, kept per parent conversation across runs. */
export interface SubagentIdentity {
  /** Canonical id (the case first used). */
  readonly id: string;
  readonly name: string;
  readonly role: string;
  /** Extra identity prompt; `""` when none. */
  readonly identityPrompt: string;
  readonly templateId?: string;
  /** Mode of the latest run; the default mode of the next one. */
  readonly lastMode?: SubagentMode;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A validated, resolved entry, ready to run. */
export interface ResolvedAgentEntry {
  /** Position in the call, 0-based. */
  readonly index: number;
  readonly identity: SubagentIdentity;
  /** True when this call creates the identity. */
  readonly isNew: boolean;
  readonly prompt: string;
  readonly mode: SubagentMode;
  readonly applyPolicy: SubagentApplyPolicy;
  /** Deduplicated, as given (globs or paths relative to the workspace). */
  readonly allowedOutputPaths: readonly string[];
  readonly resume: boolean;
  readonly retainWorktree: boolean;
  readonly template?: AgentPromptTemplate;
}

/** A persisted run: identity, status and the context to resume from. */
export interface SubagentRunRecord {
  /** `<callId>:agent:<n>:<agentId>:<uuid>`. */
  readonly runId: string;
  readonly agentId: string;
  readonly status: SubagentRunStatus;
  readonly mode: SubagentMode;
  readonly prompt: string;
  /** The model conversation (ModelMessage[] of @agent-tools/core), as JSON-able data. */
  readonly messages: readonly unknown[];
  /** Version of `messages`' shape; another version resumes fresh. */
  readonly contextSchemaVersion: number;
  /** Completed tool-loop rounds. */
  readonly rounds: number;
  readonly toolCalls: number;
  readonly summary?: string;
  readonly error?: string;
  /** Worktree directory, while it exists. */
  readonly worktreePath?: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly endedAt?: number;
}

/** One message of the bus. `seq` is assigned by the store, increasing per parent conversation. */
export interface SubagentMessage {
  readonly seq: number;
  /** `parent` or an agent id. */
  readonly senderId: string;
  /** `parent`, `*` or an agent id. */
  readonly recipientId: string;
  readonly channel: SubagentChannel;
  readonly subject?: string;
  readonly body: string;
  readonly sourceRunId?: string;
  readonly sourceToolCallId?: string;
  readonly createdAt: number;
}
