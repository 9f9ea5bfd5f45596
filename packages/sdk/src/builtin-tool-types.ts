import type { ExecuteToolCallOptions, ToolCall, ToolContent, ToolRegistry, ToolResult } from "@agent-tools/core";
import type { McpHostBundles, McpManagerDetails, McpManagerInput } from "@agent-tools/core/mcp";
import type { MemoryManagerDetails } from "@agent-tools/memory";
import type { memoryManagerInputSchema } from "@agent-tools/memory/internal";
import type { ApplyPatchDetails } from "@agent-tools/tools-fs/apply-patch";
import type { NotebookEditDetails } from "@agent-tools/tools-fs/notebook-edit";
import type { LspDetails } from "@agent-tools/lsp";
import type { lspInputSchema } from "@agent-tools/lsp/internal";
import type { DeleteDetails, EditDetails, GlobDetails, GrepDetails, ImageDetails, ListDetails, ReadDetails, WriteDetails } from "@agent-tools/tools-fs";
import type {
  applyPatchInputSchema,
  deleteInputSchema,
  editInputSchema,
  globInputSchema,
  grepInputSchema,
  imageInputSchema,
  listInputSchema,
  notebookEditInputSchema,
  readInputSchema,
  writeInputSchema,
} from "@agent-tools/tools-fs/internal";
import type { ManagedProcessDetails, ShellSessionResponse, ShellSyncDetails } from "@agent-tools/tools-shell";
import type { TaskListDetails } from "@agent-tools/tools-tasks";
import type { taskCreateInputSchema, taskListInputSchema, taskUpdateInputSchema } from "@agent-tools/tools-tasks/internal";
import type { z } from "zod";
import type { AskUserQuestionDetails, askUserQuestionInputSchema } from "./interaction-tools/ask-user-question-tool.js";
import type { ExitPlanModeDetails, exitPlanModeInputSchema } from "./interaction-tools/exit-plan-mode-tool.js";
import type { HttpGetTestDetails, httpGetTestInputSchema } from "./system-tools/http-get-test.js";
import type { WebFetchDetails } from "@agent-tools/tools-web";
import type { WebFetchInput } from "@agent-tools/tools-web/internal";

/**
 * Arguments of Bash. In `chat` (resumable sessions) every field is accepted;
 * in `cron` (synchronous) `yield_time_ms` does not exist.
 */
export interface BashInput {
  /** The shell command line. */
  command: string;
  /** Workspace-relative, `skill://<name>/...`, or absolute; default the workspace root. */
  cwd?: string;
  /** Hard limit in ms; the whole process tree is killed when reached. */
  timeout_ms?: number;
  /** chat only: how long this call waits before returning a running session. */
  yield_time_ms?: number;
}

/** Arguments of ProcessWait (chat). */
export interface ProcessWaitInput {
  /** The `session_id` of a Bash result. */
  session_id: string;
  /** The `cursor` of the previous result; default the oldest buffered output. */
  cursor?: number;
  /** Longest wait in ms. */
  yield_time_ms?: number;
}

/** Arguments of ProcessStop (chat). */
export interface ProcessStopInput {
  /** The `session_id` of a Bash result. */
  session_id: string;
  /** The `cursor` of the previous result; the remaining output after it is returned. */
  cursor?: number;
}

/** Arguments of ManagedProcess (chat); which fields apply depends on `action`. */
export interface ManagedProcessInput {
  action: "start" | "status" | "read_log" | "wait" | "stop";
  /** start: the command, in the foreground (no trailing `&`). */
  command?: string;
  /** start: working directory. */
  cwd?: string;
  /** start: a short name. */
  label?: string;
  /** start: true lets the process outlive the host application. */
  isolated?: boolean;
  /** The `process_id` from start; required except for status. */
  process_id?: string;
  /** read_log / wait: byte offset in the log. */
  cursor?: number;
  /** wait: longest wait in ms. */
  yield_time_ms?: number;
  /** read_log / wait: bytes of log to return. */
  max_bytes?: number;
}

/** Arguments of ToolSearch (chat, with MCP configured). */
export interface ToolSearchInput {
  /** Words describing the capability, e.g. `github issue`. */
  query: string;
  /** How many tools to activate; default 5, at most 10. */
  max_results?: number;
}

/** `details` of ToolSearch: the query, the tools it activated, and how many MCP tools there are. */
export interface ToolSearchDetails {
  query: string;
  activated: string[];
  totalTools: number;
}

/**
 * Every built-in tool of {@link buildBuiltinToolRegistry} by name: its
 * arguments (`input`) and the `details` of a successful result.
 *
 * Bash has two shapes: a resumable session response in `chat`
 * ({@link ShellSessionResponse}) and a synchronous result in `cron`
 * ({@link ShellSyncDetails}). Narrow with `"session_id" in details`.
 *
 * Which tools a registry offers depends on its scope and options: Edit or
 * ApplyPatch (or both) as `editSurface` chooses; the task
 * tools, ProcessWait, ProcessStop and ManagedProcess are chat only; MemoryManager
 * is left out with `memory: false` (and is read-only in cron by default); McpManager
 * and ToolSearch need `mcp`; HttpGetTest needs `systemTools: ["HttpGetTest"]`;
 * WebFetch needs `webFetch`; LSP needs `lsp`;
 * AskUserQuestion needs `interaction.onAskUserQuestion` and ExitPlanMode needs
 * `interaction.onExitPlanMode` and plan mode (both chat only).
 * MCP server tools (`mcp_<server>_<tool>`) and the host's own tools are not
 * in the map: their results stay a plain `ToolResult`.
 */
export interface BuiltinToolMap {
  Read: { input: z.input<typeof readInputSchema>; details: ReadDetails };
  Image: { input: z.input<typeof imageInputSchema>; details: ImageDetails };
  Write: { input: z.input<typeof writeInputSchema>; details: WriteDetails };
  Edit: { input: z.input<typeof editInputSchema>; details: EditDetails };
  ApplyPatch: { input: z.input<typeof applyPatchInputSchema>; details: ApplyPatchDetails };
  NotebookEdit: { input: z.input<typeof notebookEditInputSchema>; details: NotebookEditDetails };
  Delete: { input: z.input<typeof deleteInputSchema>; details: DeleteDetails };
  List: { input: z.input<typeof listInputSchema>; details: ListDetails };
  Glob: { input: z.input<typeof globInputSchema>; details: GlobDetails };
  Grep: { input: z.input<typeof grepInputSchema>; details: GrepDetails };
  Bash: { input: BashInput; details: ShellSessionResponse | ShellSyncDetails };
  ProcessWait: { input: ProcessWaitInput; details: ShellSessionResponse };
  ProcessStop: { input: ProcessStopInput; details: ShellSessionResponse };
  ManagedProcess: { input: ManagedProcessInput; details: ManagedProcessDetails };
  TaskCreate: { input: z.input<typeof taskCreateInputSchema>; details: TaskListDetails };
  TaskUpdate: { input: z.input<typeof taskUpdateInputSchema>; details: TaskListDetails };
  TaskList: { input: z.input<typeof taskListInputSchema>; details: TaskListDetails };
  MemoryManager: { input: z.input<typeof memoryManagerInputSchema>; details: MemoryManagerDetails };
  McpManager: { input: McpManagerInput; details: McpManagerDetails };
  ToolSearch: { input: ToolSearchInput; details: ToolSearchDetails };
  HttpGetTest: { input: z.input<typeof httpGetTestInputSchema>; details: HttpGetTestDetails };
  WebFetch: { input: WebFetchInput; details: WebFetchDetails };
  LSP: { input: z.input<typeof lspInputSchema>; details: LspDetails };
  AskUserQuestion: { input: z.input<typeof askUserQuestionInputSchema>; details: AskUserQuestionDetails };
  ExitPlanMode: { input: z.input<typeof exitPlanModeInputSchema>; details: ExitPlanModeDetails };
}

/** The name of a built-in tool, exactly as it is registered. */
export type BuiltinToolName = keyof BuiltinToolMap;

/** The arguments of built-in tool `N`. */
export type BuiltinToolInput<N extends BuiltinToolName> = BuiltinToolMap[N]["input"];

/** The `details` of a successful call of built-in tool `N`. */
export type BuiltinToolDetails<N extends BuiltinToolName> = BuiltinToolMap[N]["details"];

/**
 * The result of a call of built-in tool `N`: check `isError` first; on
 * success `details` is the tool's own type, on failure the error's facts.
 */
export type BuiltinToolResult<N extends BuiltinToolName> =
  | { isError: false; details: BuiltinToolDetails<N>; content: ToolContent[] }
  | { isError: true; details: Record<string, unknown>; content: ToolContent[] };

/** A tool call whose `name` is a built-in tool's (a literal, so the result can be typed). */
export interface BuiltinToolCall<N extends BuiltinToolName> extends ToolCall {
  name: N;
}

/**
 * The registry of {@link buildBuiltinToolRegistry}: a `ToolRegistry` whose
 * `executeToolCall` types the result when `name` is a literal
 * {@link BuiltinToolName} (exact case). Any other name, or a `string`
 * variable, gives the plain `ToolResult`.
 *
 * @example
 * const started = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "npm test" } });
 * if (!started.isError && "session_id" in started.details) console.log(started.details.session_id);
 */
export interface BuiltinToolRegistry extends ToolRegistry {
  /** True while MCP tools are deferred behind ToolSearch (listed only once a search activates them); false otherwise and without MCP. */
  readonly mcpToolDeferralActive: boolean;
  /** The MCP bundles of this registry (prompts, servers, refresh), or undefined without MCP. */
  readonly mcp: McpHostBundles | undefined;
  executeToolCall<N extends BuiltinToolName>(call: BuiltinToolCall<N>, options?: ExecuteToolCallOptions | null): Promise<BuiltinToolResult<N>>;
  executeToolCall(call: ToolCall, options?: ExecuteToolCallOptions | null): Promise<ToolResult>;
}
