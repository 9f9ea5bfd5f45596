/**
 * The wire protocol between the subagent tools and a UI: the `details` kinds
 * of the Agent and SendMessage results and of the per-agent progress cards,
 * and the ids of runs and cards. The protocol lives in this one file.
 */
import type {
  AgentPromptTemplate,
  SubagentApplyPolicy,
  SubagentChannel,
  SubagentIdentity,
  SubagentIssue,
  SubagentMode,
  SubagentRunStatus,
} from "./subagent-types.js";

/** How a worktree child's changes reached the parent. */
export type SubagentApplyStatus = "applied" | "skipped" | "failed";
/**
 * How a worktree child's changes were applied: `git_apply` when every file
 * still held the version the worktree started from, `git_apply_3way` when at
 * least one was merged with the workspace's own change. `file_copy_fallback`
 * appears only in runs recorded by earlier versions.
 */
export type SubagentApplyMethod = "git_apply" | "git_apply_3way" | "file_copy_fallback";
/** What happened to a worktree after its run. */
export type SubagentWorktreeCleanupStatus = "removed" | "retained" | "skipped" | "failed";

/** One agent's report: identity, outcome, and for worktree runs the worktree, apply and cleanup facts. */
export interface SubagentReportDetails {
  // Identity.
  readonly id: string;
  readonly runId: string;
  readonly name: string;
  readonly role: string;
  readonly prompt: string;
  readonly templateId?: string;
  readonly mode: SubagentMode;
  readonly applyPolicy: SubagentApplyPolicy;
  readonly allowedOutputPaths: readonly string[];
  // Outcome.
  readonly status: SubagentRunStatus;
  /** The final assistant text (at most 8000 characters), or `(subagent returned an empty report)`. */
  readonly summary: string;
  readonly durationMs: number;
  /** Completed tool-loop rounds. */
  readonly rounds: number;
  readonly toolCalls: number;
  readonly error?: string;
  /** Persistence failures that did not stop the run. */
  readonly persistenceWarnings?: readonly string[];
  // Worktree, apply and cleanup (worktree mode only).
  readonly worktreePath?: string;
  readonly branch?: string;
  /** Repository-relative paths the worktree changed. */
  readonly changedPaths?: readonly string[];
  readonly diff?: string;
  readonly diffTruncated?: boolean;
  readonly applyStatus?: SubagentApplyStatus;
  readonly applyMethod?: SubagentApplyMethod;
  /** Why nothing was applied: an apply decision (`no_changes`, `apply_policy_none`, ...) or an apply outcome (`empty_patch`, ...). */
  readonly skipReason?: string;
  /** Runs recorded by earlier versions only: why `git apply` did not take the patch when a file copy fallback ran. */
  readonly fallbackReason?: string;
  /** Why the apply failed (`applyStatus: "failed"`), e.g. a pre-image the call's file checkpoint could not save. */
  readonly applyError?: string;
  /** Runs recorded by earlier versions only (files a copy fallback copied); empty now. */
  readonly copiedFiles?: readonly string[];
  /** Runs recorded by earlier versions only (files a copy fallback deleted); empty now. */
  readonly deletedFiles?: readonly string[];
  /** Paths that conflict with the workspace: the apply then wrote nothing (`applyStatus: "failed"`, reasons in `applyError`). */
  readonly conflictFiles?: readonly string[];
  readonly worktreeCleanupStatus?: SubagentWorktreeCleanupStatus;
  readonly cleanupReason?: string;
  /** Changed paths left in the worktree instead of applied, for the parent to pick from. */
  readonly candidateArtifacts?: readonly string[];
}

/** The mode of a whole batch: every agent's, or `mixed`. */
export type SubagentBatchMode = SubagentMode | "mixed";

/** The details of an Agent result: the batch, or its rejection. */
export interface SubagentBatchDetails {
  readonly kind: "subagent_batch";
  readonly status: "ok" | "rejected";
  readonly agentCount: number;
  readonly concurrency: number;
  readonly totalDurationMs: number;
  readonly mode: SubagentBatchMode;
  readonly agents: readonly SubagentReportDetails[];
  /** Why the call was rejected (rejections only). */
  readonly issues?: readonly SubagentIssue[];
  /** The existing agents (rejections only). */
  readonly roster?: readonly SubagentIdentity[];
  /** The offered templates (rejections only). */
  readonly templates?: readonly AgentPromptTemplate[];
}

/** One agent's progress card, streamed while a batch runs. */
export interface SubagentCardDetails {
  readonly kind: "subagent_card";
  readonly parentToolCallId: string;
  /** 1-based position in the batch. */
  readonly index: number;
  readonly total: number;
  readonly concurrency: number;
  readonly agent: Partial<SubagentReportDetails>;
}

/** The details of a SendMessage result. */
export interface SubagentMessageDetails {
  readonly kind: "subagent_message";
  readonly parentConversationId: string;
  readonly seq: number;
  readonly senderId: string;
  readonly senderName: string;
  readonly recipientId: string;
  readonly recipientName: string;
  readonly channel: SubagentChannel;
  readonly subject?: string;
  readonly sourceRunId?: string;
  readonly sourceToolCallId?: string;
  /** The body's first 800 characters, with `...` when cut. */
  readonly bodyPreview: string;
}

/** The arguments of a synthetic `Agent` card call a UI shows per agent. */
export interface SubagentCardArguments {
  readonly subagent_card: true;
  readonly parent_tool_call_id: string;
  /** 1-based. */
  readonly index: number;
  readonly total: number;
  readonly concurrency?: number;
  readonly id: string;
  readonly name?: string;
  readonly role?: string;
  readonly mode?: SubagentMode;
  readonly prompt?: string;
}

/**
 * The call id of an agent's card: `<parentToolCallId>:agent:<index>`.
 *
 * @example
 * subagentCardCallId("call_1", 2); // "call_1:agent:2"
 */
export function subagentCardCallId(parentToolCallId: string, index: number): string {
  return `${parentToolCallId}:agent:${index}`;
}

/**
 * A run id: `<callId>:agent:<index>:<agentId>:<uuid>` (`index` 1-based).
 *
 * @example
 * subagentRunId("call_1", 1, "reviewer", "0b9e"); // "call_1:agent:1:reviewer:0b9e"
 */
export function subagentRunId(callId: string, index: number, agentId: string, uuid: string): string {
  return `${subagentCardCallId(callId, index)}:${agentId}:${uuid}`;
}

/**
 * The arguments of the synthetic `Agent` card call for one agent (`index`
 * 1-based); absent optional facts are left out.
 */
export function subagentCardArguments(options: {
  readonly parentToolCallId: string;
  readonly index: number;
  readonly total: number;
  readonly concurrency?: number;
  readonly agent: Pick<SubagentReportDetails, "id"> & Partial<Pick<SubagentReportDetails, "name" | "role" | "mode" | "prompt">>;
}): SubagentCardArguments {
  const { agent } = options;
  return {
    subagent_card: true,
    parent_tool_call_id: options.parentToolCallId,
    index: options.index,
    total: options.total,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    id: agent.id,
    ...(agent.name === undefined ? {} : { name: agent.name }),
    ...(agent.role === undefined ? {} : { role: agent.role }),
    ...(agent.mode === undefined ? {} : { mode: agent.mode }),
    ...(agent.prompt === undefined ? {} : { prompt: agent.prompt }),
  };
}
