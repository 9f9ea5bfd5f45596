/**
 * Which tools a delegated child may use. A readonly child borrows the
 * parent's read-only tools, except those that read the parent's own session
 * state (its Bash sessions, its task list, its lazily loaded tools); a
 * worktree child gets a fresh registry on its worktree, filtered to files,
 * its own shell sessions, read-only memory and MCP business tools. Children
 * never start other agents or manage skills, MCP servers, cron tasks,
 * managed processes or terminals.
 */
import type { ToolMetadata } from "@agent-tools/core";
import type { SubagentMode } from "./subagent-types.js";

/**
 * Tools no child ever gets, whatever their metadata. `SendMessage` is among
 * them because a borrowed SendMessage would speak for its owner (the parent):
 * the runtime gives each child its own instance instead. `ManagedProcess`
 * keeps its processes under the data directory a worktree child shares with
 * the parent: a child would list, read and stop the parent's processes (and
 * could leave isolated ones running after it ends).
 */
export const SUBAGENT_EXCLUDED_TOOLS: readonly string[] = [
  "Agent",
  "SendMessage",
  "SkillsManager",
  "McpManager",
  "CronTaskManager",
  "ReadTerminal",
  "ManagedProcess",
];

const EXCLUDED = new Set(SUBAGENT_EXCLUDED_TOOLS.map((name) => name.toLowerCase()));

/**
 * Groups a readonly child never borrows from the parent, read-only or not:
 * their tools act on the parent's session, not on the workspace. `shell`
 * (ProcessWait would read the parent's Bash sessions), `task` (TaskList
 * would read the parent's plan), `system` (ToolSearch would change which
 * tools the parent sees) and `subagent`.
 */
export const READONLY_CHILD_EXCLUDED_GROUPS: readonly string[] = ["shell", "task", "system", "subagent"];

const READONLY_EXCLUDED_GROUPS = new Set(READONLY_CHILD_EXCLUDED_GROUPS);

/** Options of {@link isToolAllowedForChild}. */
export interface ChildToolPolicyOptions {
  /** Plan mode or a strictly read-only parent: MCP business tools are dropped too. */
  readonly strictReadOnly?: boolean;
  /**
   * The registry the tool comes from: the parent's (readonly mode) or the
   * worktree's (worktree mode). A tool from the other registry is refused:
   * a parent tool would act on the parent's workspace from a worktree child.
   */
  readonly source: "parent" | "worktree";
}

/** True for an MCP server's own tool (not the MCP management or search tools). */
export function isMcpBusinessTool(metadata: ToolMetadata): boolean {
  return metadata.groupId === "mcp" && metadata.kind === "mcp";
}

/**
 * Whether a child in `mode` may use a tool.
 *
 * - `readonly` (tools of the parent): the read-only ones outside
 *   {@link READONLY_CHILD_EXCLUDED_GROUPS}, plus MCP business tools unless
 *   `strictReadOnly`.
 * - `worktree` (tools of the worktree registry): file-system and shell
 *   tools (its own sessions; no ManagedProcess), read-only memory, plus MCP
 *   business tools unless `strictReadOnly`.
 * - Never {@link SUBAGENT_EXCLUDED_TOOLS} (names compared case-insensitively).
 *
 * @example
 * isToolAllowedForChild("readonly", { name: "Read", metadata: readTool.metadata }, { source: "parent" }); // true
 */
export function isToolAllowedForChild(
  mode: SubagentMode,
  tool: { readonly name: string; readonly metadata: ToolMetadata },
  options: ChildToolPolicyOptions,
): boolean {
  if (EXCLUDED.has(tool.name.toLowerCase())) return false;
  const { metadata } = tool;
  const mcpAllowed = isMcpBusinessTool(metadata) && options.strictReadOnly !== true;
  if (mode === "readonly") {
    if (options.source !== "parent") return false;
    return mcpAllowed || (metadata.isReadOnly && metadata.groupId !== "mcp" && !READONLY_EXCLUDED_GROUPS.has(metadata.groupId));
  }
  if (options.source !== "worktree") return false;
  if (metadata.groupId === "fs" || metadata.groupId === "shell") return true;
  if (metadata.groupId === "memory") return metadata.isReadOnly;
  return mcpAllowed;
}

/**
 * The error text of a call to a tool the child may not use.
 *
 * @example
 * toolNotAvailableText("Write", "readonly"); // "Tool Write is not available to delegated subagents in mode=readonly."
 */
export function toolNotAvailableText(toolName: string, mode: SubagentMode): string {
  return `Tool ${toolName} is not available to delegated subagents in mode=${mode}.`;
}
