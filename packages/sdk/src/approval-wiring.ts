import type { BuiltinToolName } from "./builtin-tool-types.js";

/** Built-in tools whose results {@link BuiltinToolName} does not type. */
type UntypedBuiltinToolName = "Agent" | "SendMessage" | "SkillsManager" | "CronTaskManager" | "SSHManager";

// A record, so the compiler checks that every built-in name is here.
const BUILTIN_NAMES: Readonly<Record<BuiltinToolName | UntypedBuiltinToolName, true>> = {
  Read: true,
  Image: true,
  Write: true,
  Edit: true,
  ApplyPatch: true,
  NotebookEdit: true,
  Delete: true,
  List: true,
  Glob: true,
  Grep: true,
  Bash: true,
  ProcessWait: true,
  ProcessStop: true,
  ManagedProcess: true,
  TaskCreate: true,
  TaskUpdate: true,
  TaskList: true,
  MemoryManager: true,
  McpManager: true,
  ToolSearch: true,
  HttpGetTest: true,
  WebFetch: true,
  LSP: true,
  AskUserQuestion: true,
  ExitPlanMode: true,
  Agent: true,
  SendMessage: true,
  SkillsManager: true,
  CronTaskManager: true,
  SSHManager: true,
};

/**
 * Every tool name `buildBuiltinToolRegistry` may register, in some scope or
 * configuration. Approval rules may name each in any registry (one rule set
 * can serve a chat registry with subagents and a cron registry without):
 * an exact built-in name is never a typo.
 *
 * @example
 * BUILTIN_TOOL_NAMES.includes("TaskCreate"); // true
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = Object.freeze(Object.keys(BUILTIN_NAMES));
