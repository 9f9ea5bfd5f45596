/**
 * What a call no permission rule matched gets. Following Claude Code's
 * default mode, a tool that can change things outside the conversation asks
 * (Bash, file changes, MCP tools, installs, schedules, host tools), unless
 * the registry's `approval` settles it: a rule naming the tool, its server or
 * group, or an explicit `defaultDecision`. Read-only tools, and the SDK's own
 * bookkeeping tools (tasks, memory, questions to the user, plan mode,
 * subagents, messages, waiting on or stopping processes the agent started),
 * are allowed.
 */
import type { ApprovalDecision, ApprovalOptions, ToolMetadata } from "@agent-tools/core";
import { resolveApproval } from "@agent-tools/core/internal";

/** Kinds of tools that only touch the conversation's own state: allowed when no rule names them. */
const BOOKKEEPING_KINDS: ReadonlySet<string> = new Set([
  "task_create",
  "task_list",
  "task_update",
  "memory",
  "ask_user",
  "exit_plan_mode",
  "agent",
  "message",
  "wait",
  "stop",
]);

/** True when a call of this tool needs approval when no rule and no approval setting decides it. */
export function asksByDefault(metadata: ToolMetadata): boolean {
  return metadata.isReadOnly !== true && !BOOKKEEPING_KINDS.has(metadata.kind);
}

/**
 * The decision when no permission rule matched: the `approval` settings
 * (their rules, read-only allow, their `defaultDecision` when given), else
 * `ask` for a tool that {@link asksByDefault}, else `allow`.
 *
 * @example
 * defaultDecisionOf("Bash", bashMetadata, undefined); // "ask"
 */
export function defaultDecisionOf(toolName: string, metadata: ToolMetadata, approval: ApprovalOptions | undefined): ApprovalDecision {
  const defaultDecision = approval?.defaultDecision ?? (asksByDefault(metadata) ? "ask" : "allow");
  return resolveApproval(toolName, metadata, { ...approval, defaultDecision });
}
