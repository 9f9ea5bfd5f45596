/**
 * The shared vocabulary of the SDK: tool definitions, calls, results,
 * metadata, bundles and the per-call context.
 */
import type { ZodType } from "zod";
import type { ToolErrorCode } from "./errors.js";
import type { PathPolicy } from "./paths/path-policy.js";
import type { ToolPorts } from "./ports/tool-ports.js";
import type { JsonSchemaObject } from "./tool-schema.js";
import type { ToolCallTelemetry } from "./telemetry/telemetry-types.js";

export type { JsonSchemaObject, ToolSchema } from "./tool-schema.js";

/** Where a registry runs: an interactive chat, or an unattended cron prompt. */
export type RuntimeScope = "chat" | "cron";

/** Every runtime scope, in a stable order. */
export const RUNTIME_SCOPES: readonly RuntimeScope[] = ["chat", "cron"];

/** The group a tool belongs to; approval rules can target `group:<id>`. `custom` is the default of `defineTool`. */
export type ToolGroupId = "fs" | "shell" | "skill" | "system" | "mcp" | "subagent" | "memory" | "task" | "custom" | (string & {});

/** The groups of the SDK's own tools (and `custom`, the default of `defineTool`): `group:<id>` approval rules may name each. */
export const TOOL_GROUP_IDS: readonly ToolGroupId[] = Object.freeze(["fs", "shell", "skill", "system", "mcp", "subagent", "memory", "task", "custom"]);

/** How a UI may file a tool call. */
export type ToolDisplayCategory = "file" | "search" | "terminal" | "system" | "mcp" | "other";

/**
 * What a tool does, one word out of a closed set (the kinds of the SDK's own
 * tools and `custom`, the default of `defineTool`): file tools `read`,
 * `list`, `search`, `image`, `write`, `edit`, `delete`; shell tools
 * `execute`, `process`, `stop`, `wait`; task tools `task_create`,
 * `task_list`, `task_update`; `memory`, `skills`, `cron`, `manage` (McpManager),
 * `ask_user`, `exit_plan_mode`, `http_get`, `mcp` (a tool of an MCP server),
 * `agent`, `message` (subagents) and `custom`.
 */
export const TOOL_KINDS = Object.freeze([
  "read",
  "list",
  "search",
  "image",
  "write",
  "edit",
  "delete",
  "execute",
  "process",
  "stop",
  "wait",
  "task_create",
  "task_list",
  "task_update",
  "memory",
  "skills",
  "cron",
  "manage",
  "ask_user",
  "exit_plan_mode",
  "http_get",
  "mcp",
  "agent",
  "message",
  "custom",
] as const);

/** One of {@link TOOL_KINDS}. */
export type ToolKind = (typeof TOOL_KINDS)[number];

/**
 * What a tool declares about its effects; the names follow MCP's
 * `ToolAnnotations` (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
 * `openWorldHint`) plus `listedInPlanMode`. Approval, plan mode, the MCP
 * server and the AI SDK adapter read these, never the tool's name. A tool
 * that declares none gets the defaults of `resolveToolAnnotations`.
 */
export interface ToolAnnotations {
  /** The tool never changes state; must equal the metadata's `isReadOnly`. */
  readonly readOnly: boolean;
  /** A call may destroy or overwrite data (meaningful when not read-only). Left out: not declared (MCP clients assume true). */
  readonly destructive?: boolean;
  /** The same call twice has the effect of one (meaningful when not read-only). Left out: not declared (MCP clients assume false). */
  readonly idempotent?: boolean;
  /** The tool reaches beyond the workspace (network, processes, other servers). Left out: not declared (MCP clients assume true). */
  readonly openWorld?: boolean;
  /** Plan mode lists and runs the tool (read-only tools, and tools that only ask or plan). */
  readonly listedInPlanMode: boolean;
}

/** Static facts about a tool, for UIs, traces, schedulers and approval rules. */
export interface ToolMetadata {
  /** The tool's group. */
  readonly groupId: ToolGroupId;
  /** What the tool does, one of {@link TOOL_KINDS}. */
  readonly kind: ToolKind;
  /** True when the tool never changes state; such calls may run in parallel and are allowed by default. */
  readonly isReadOnly: boolean;
  /** Where a UI files the call. */
  readonly displayCategory: ToolDisplayCategory;
  /** For MCP tools: the server id. */
  readonly serverId?: string;
  /**
   * What the tool declares about its effects. The SDK's tools declare them;
   * left out, `resolveToolAnnotations` derives defaults from `isReadOnly`,
   * the kind and the group.
   */
  readonly annotations?: ToolAnnotations;
}

/** A text block of a result. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image block of a result (base64 data). */
export interface ImageContent {
  type: "image";
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
}

/** What the model sees of a result. */
export type ToolContent = TextContent | ImageContent;

/**
 * What went wrong in an error result, for hosts (the model reads `content`):
 * the code, the message the tool gave (before the executor appended a loop
 * note or cut the text) and whether the model can fix the call and retry.
 */
export interface ToolResultError {
  /** One of the closed list of tool error codes; tool-specific facts are in the result's `details`. */
  code: ToolErrorCode;
  /** The error's message, as the tool (or the executor) wrote it for the model. */
  message: string;
  /** False when retrying cannot help: a refusal by the user or the host, a cancelled call, a component that is gone. */
  recoverable: boolean;
}

/** The result of one tool call, as returned by `executeToolCall`. */
export interface ToolResult<Details = unknown> {
  /** The only part the model sees. */
  content: ToolContent[];
  /** Typed, JSON-serialisable facts for UIs and traces. `{}` on errors unless the tool adds more. */
  details: Details;
  /** True when the call failed; `content` then says what went wrong and what to do next. */
  isError: boolean;
  /** Present exactly when `isError` is true (from `executeToolCall`): the code, message and recoverability of the failure. */
  error?: ToolResultError;
}

/** What a tool's `execute` returns; the executor normalises it into a {@link ToolResult}. */
export interface ToolOutput<Details = unknown> {
  content: string | ToolContent[];
  details?: Details;
  isError?: boolean;
  /**
   * With `isError`: the error to report (as `errorResult` builds it).
   * Absent: the executor takes `details.code` when it is a tool error code
   * (else `other`), `details.recoverable` when it is a boolean (else true)
   * and the content's text. Prefer throwing `ToolError`.
   */
  error?: ToolResultError;
}

/** A tool call as a model produced it. */
export interface ToolCall {
  /** The provider's call id. */
  id: string;
  /** The tool name; looked up exactly, then case-insensitively. */
  name: string;
  /** An object, or a JSON string of one. `undefined`, `null` and `""` mean `{}`. */
  arguments?: unknown;
}

/** A streamed piece of output or progress from a running tool. */
export interface ToolUpdate {
  /** Text to append to a live view (e.g. shell output). */
  text?: string;
  /** Which stream the text came from, when it matters. */
  stream?: "stdout" | "stderr";
  /** Structured progress, JSON-serialisable. */
  data?: unknown;
}

/** Minimal logger; hosts may route it anywhere. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** The immutable per-call context every tool receives. */
export interface ToolContext {
  /** The id of this call. */
  readonly callId: string;
  /** The canonical tool name. */
  readonly toolName: string;
  /** Aborted when the host cancels the call; tools must stop promptly. */
  readonly signal: AbortSignal;
  /** The canonical workspace directory. */
  readonly workdir: string;
  /** The registry's runtime scope. */
  readonly runtimeScope: RuntimeScope;
  /** Where the SDK keeps its own files (logs, sqlite, skills, memory). */
  readonly dataDir: string;
  /** The one place every path is resolved and checked. */
  readonly paths: PathPolicy;
  /** The registry's ports. */
  readonly ports: ToolPorts;
  /** Logger of the registry. */
  readonly logger: Logger;
  /** Stream output or progress to the host while the call runs. */
  onUpdate(update: ToolUpdate): void;
  /** Whatever the host passed as `hostContext` for this call. */
  readonly hostContext: unknown;
  /**
   * Tracing of this call: spans started here are children of its
   * `execute_tool` span (see `traceChildSpan`). Absent in contexts built
   * outside the executor; a no-op when the call is not traced.
   */
  readonly telemetry?: ToolCallTelemetry;
  /**
   * Characters of result text this call's answer may carry; the executor
   * cuts text past it. A tool that renders a long text can stop there and
   * tell the model how to page on (Grep does). Absent in contexts built
   * outside the executor.
   */
  readonly maxOutputChars?: number;
  /**
   * The checkpoint this call belongs to (the call's `checkpointId`, else the
   * registry's `checkpoint.id`): file tools record pre-images through
   * `ports.fileCheckpoints` before they change a file. Absent: none.
   */
  readonly checkpointId?: string;
}

/**
 * A tool: its name and description for the model, its input schema, metadata
 * and executor. Build one with `defineTool()`.
 */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input type; `unknown` would make ToolDefinition<X> unassignable to it.
export interface ToolDefinition<Input = any, Details = unknown> {
  readonly name: string;
  /** Written for the model: what it does, limits, path forms, 1-based ranges. */
  readonly description: string;
  /** The zod schema that validates the input; absent for tools validated elsewhere (MCP). */
  readonly inputSchema?: ZodType<Input>;
  /** What the model sees: a JSON Schema object. */
  readonly jsonSchema: JsonSchemaObject;
  readonly metadata: ToolMetadata;
  /** Scopes the tool is offered in. */
  readonly scopes: readonly RuntimeScope[];
  /** Cap of the result text in characters; the executor truncates beyond it with a paging hint. */
  readonly maxOutputChars?: number;
  /**
   * When true the executor does not race the tool against the abort signal:
   * the tool promises to settle promptly after an abort with its own result
   * (e.g. a shell session reporting `cancelled` with its remaining output).
   */
  readonly handlesAbort?: boolean;
  /** When true, argument keys not in the schema are passed through instead of rejected. */
  readonly allowUnknownArguments?: boolean;
  /** The loop breaker's key part for this input; default: the `path` argument. */
  loopKey?(input: Input): string | undefined;
  /**
   * What running the call again would do (for the call ledger of durable
   * runs); a function decides per input. Absent: `none` for a read-only
   * tool, else `unsafe`.
   */
  readonly effects?: ToolEffects | ((input: Input) => ToolEffects);
  /**
   * The MCP server a call acts on, when the input names it (the MCP resource
   * tools): approval and permission rules then judge the call as that
   * server's (`server:<id>` rules apply, `onAsk` sees the id in `metadata`).
   * Absent or undefined: `metadata.serverId`.
   */
  callServerId?(input: Input): string | undefined;
  /**
   * For a call of this tool that started before a crash and has no recorded
   * outcome, when its effects are `none` or `idempotent`: run it again,
   * report it done (its result is already there) or report its outcome
   * unknown. Absent: it runs again.
   */
  resume?(input: Input, context: ToolContext): Promise<ToolResumeDecision<Details>> | ToolResumeDecision<Details>;
  /** Runs the tool. Throw `ToolError` for failures the model should see. */
  execute(input: Input, context: ToolContext): Promise<ToolOutput<Details>> | ToolOutput<Details>;
}

/**
 * What running a tool call again would do, as the tool declares it:
 * - `none`: nothing outside the call (read-only); safe to run again;
 * - `idempotent`: running it again leaves the world as one run does (Write
 *   with the same content; an Edit whose result is already in the file);
 * - `unsafe`: a second run may repeat an effect (a command, a delete, an
 *   email through an MCP tool). A started call of this kind is never run
 *   again after a crash: it is reported `outcome_unknown`.
 *
 * A tool that declares nothing is `none` when it is read-only, else `unsafe`.
 */
export type ToolEffects = "none" | "idempotent" | "unsafe";

/**
 * What a tool's `resume` decides for a call that started before a crash and
 * has no recorded outcome:
 * - `run`: run it again (its effect did not happen, or repeating it is harmless);
 * - `done`: its effect is already there; `output` is the result to report
 *   (recorded as completed, never run);
 * - `unknown`: the tool cannot tell; the call is reported `outcome_unknown`
 *   with `note` (what may have happened and how to check).
 */
export type ToolResumeDecision<Details = unknown> =
  | { readonly action: "run" }
  | { readonly action: "done"; readonly output: ToolOutput<Details> }
  | { readonly action: "unknown"; readonly note?: string };

/** A set of tools contributed to a registry by one package. */
export interface ToolBundle {
  /** A stable id, e.g. `fs`, `shell`, `mcp`. */
  readonly id: string;
  /**
   * Built-in bundles are trusted: a duplicate name between two trusted bundles
   * throws. An untrusted bundle's (MCP's) duplicate is skipped with a warning.
   */
  readonly trusted: boolean;
  /** The tools currently offered; may change over time (MCP list_changed). */
  listTools(): readonly ToolDefinition[];
  /** False for tools that stay callable but are hidden from `tools` (lazy MCP). */
  isExposed?(name: string): boolean;
  /**
   * Subscribes to changes of what `listTools` / `isExposed` answer (an MCP
   * server's list_changed, a lazily loaded tool made visible). The listener
   * runs after the change is visible; it must not throw. Returns the
   * unsubscribe function. Absent for bundles whose tools never change.
   */
  onToolsChanged?(listener: () => void): () => void;
  /**
   * What approval rules may name although `listTools` does not list it now
   * (the registry checks every key of `approval.policies` when it is
   * created). Absent for bundles whose tools are all listed from the start.
   */
  approvalTargets?(): BundleApprovalTargets;
  /** Releases processes, connections and handles. */
  close?(): Promise<void>;
}

/** What a bundle's tools may later be named or grouped by, for checking approval rules. */
export interface BundleApprovalTargets {
  /** Tools the bundle may list later (e.g. ToolSearch once lazy loading starts). */
  readonly toolNames?: readonly string[];
  /**
   * Name prefixes of tools that arrive later and cannot be named yet (`mcp_github_`
   * while that server is not connected); a rule `<prefix><rest>` is accepted,
   * and the registry warns once if the tools arrive and none has that name.
   */
  readonly toolNamePrefixes?: readonly string[];
  /** Server ids its tools carry (`server:<id>` rules), connected or not. */
  readonly serverIds?: readonly string[];
  /** Group ids its tools may carry beyond {@link TOOL_GROUP_IDS}. */
  readonly groupIds?: readonly string[];
}
