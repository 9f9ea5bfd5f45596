/**
 * The `hooks` option: lifecycle events, matchers on tool names, and handlers
 * of three kinds (an in-process function, a command, an HTTP endpoint), with
 * Claude Code's input and output conventions. {@link checkHookSettings}
 * checks what a host gave and returns a frozen copy; every unknown event,
 * key or kind, every wrong type, is an `SdkError` naming it (fail closed: a
 * hook the host meant to run is never silently dropped).
 *
 * Timing and failure rules (shared by every runner):
 * - Timeout: `timeoutMs`, default {@link DEFAULT_HOOK_TIMEOUT_MS} (60 s, for
 *   function hooks too), at most {@link MAX_HOOK_TIMEOUT_MS} (10 min). A hook
 *   still running at its timeout is ended (a command's whole process tree is
 *   killed, an HTTP request aborted, a function's `signal` aborted) and counts
 *   as failed.
 * - Order: the matching hooks of one event run in parallel; their answers
 *   are merged in declaration order (the order of the matchers, then of the
 *   handlers inside each).
 * - Failure (throws, a command exits with a code other than 0 or 2, output
 *   that is not a JSON object of the documented shape, a non-2xx HTTP status,
 *   a redirect, a timeout): for `PreToolUse` and `PermissionRequest` the call
 *   is denied with a reason naming the hook (fail closed); for the other
 *   events it is logged (`logger.warn`) and ignored.
 * - Abort: an aborted call aborts its hooks (processes killed, requests aborted).
 */
import type { PolicyDecision } from "@agent-tools/core/policy";

/** Every event a hook may be given for. */
export const HOOK_EVENT_NAMES = Object.freeze([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStart",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
] as const);

/** One of {@link HOOK_EVENT_NAMES}. */
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** The events about one tool call (their matcher is matched against the tool name). */
export const TOOL_HOOK_EVENTS: ReadonlySet<HookEventName> = new Set(["PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"]);

/** A hook's timeout when it gives none: 60 s (Claude Code's), for every kind. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** The largest `timeoutMs` accepted: 10 minutes. */
export const MAX_HOOK_TIMEOUT_MS = 600_000;

/** The largest output (stdout of a command, body of an HTTP answer) a hook may give: 1 MiB; more is a failure. */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;

/**
 * What a hook receives (snake_case, as Claude Code sends it): a command on
 * stdin, an HTTP endpoint as the POST body, a function as its argument.
 * Session and subagent events carry their payload's keys as well.
 */
export interface HookInput {
  readonly hook_event_name: HookEventName;
  readonly session_id?: string;
  /** The registry's working directory. */
  readonly cwd: string;
  /** The permission mode in force (`default`, `acceptEdits`, `plan`, `dontAsk`, `bypassPermissions`). */
  readonly permission_mode: string;
  /** Canonical tool name (tool events). */
  readonly tool_name?: string;
  /** The call's validated input (tool events). */
  readonly tool_input?: Readonly<Record<string, unknown>>;
  /** The call id (tool events). */
  readonly tool_use_id?: string;
  /** The result (`PostToolUse`): `{ content, details, isError }`. */
  readonly tool_response?: unknown;
  /** The error message (`PostToolUseFailure`). */
  readonly error?: string;
  readonly [key: string]: unknown;
}

/** The event-specific part of a hook's answer. */
export interface HookSpecificOutput {
  /** When given, must name the event the hook ran for. */
  readonly hookEventName?: HookEventName;
  /** `PreToolUse`: allow (skips a rule's ask, never a rule's deny), deny, ask, or defer (the call waits for the host). */
  readonly permissionDecision?: PolicyDecision;
  readonly permissionDecisionReason?: string;
  /** `PreToolUse`: the input to run the tool with instead (validated again by the tool's schema; the rules see it). */
  readonly updatedInput?: Record<string, unknown>;
  /** Text added to what the model reads of the call. */
  readonly additionalContext?: string;
  /** `PostToolUse`/`PostToolUseFailure`: replaces the text the model reads. */
  readonly updatedToolOutput?: string;
  /** `PermissionRequest`: settles an `ask`. */
  readonly decision?: { readonly behavior: "allow" | "deny"; readonly message?: string };
}

/** What a hook may answer (every key optional; an empty answer means "no opinion"). */
export interface HookOutput {
  /** `false` on `PreToolUse`/`PermissionRequest` denies the call with `stopReason`; ignored elsewhere. */
  readonly continue?: boolean;
  readonly stopReason?: string;
  /** Logged for the host; not shown to the model. */
  readonly systemMessage?: string;
  /** `"block"`: `PreToolUse`/`PermissionRequest` deny; `PostToolUse*`: the model reads `reason` with the result. */
  readonly decision?: "block";
  readonly reason?: string;
  readonly hookSpecificOutput?: HookSpecificOutput;
}

/** Options a function hook's `run` receives. */
export interface FunctionHookOptions {
  /** Aborted when the call is aborted or the hook's timeout passes. */
  readonly signal: AbortSignal;
}

/** A hook run in-process. */
export interface FunctionHookHandler {
  readonly type: "function";
  /** How answers and reasons name it (default `function#<index>`). */
  readonly name?: string;
  readonly timeoutMs?: number;
  run(input: HookInput, options: FunctionHookOptions): HookOutput | undefined | Promise<HookOutput | undefined>;
}

/**
 * A hook run as a shell command (through the registry's process runner):
 * the input as JSON on stdin; exit 0 with a JSON object (or nothing) on
 * stdout answers; exit 2 blocks with stderr as the reason; anything else fails.
 * It runs with `AGENT_TOOLS_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` set to the workdir.
 */
export interface CommandHookHandler {
  readonly type: "command";
  readonly name?: string;
  /** A shell command line (run with /bin/bash -c). */
  readonly command: string;
  readonly timeoutMs?: number;
  /** Working directory; relative to the registry's workdir (default: the workdir). */
  readonly cwd?: string;
  /** Variables added to the environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A hook answered by an HTTP endpoint: the input is POSTed as JSON; a 2xx JSON body (or empty body) answers; redirects are not followed. */
export interface HttpHookHandler {
  readonly type: "http";
  readonly name?: string;
  /** An `http:` or `https:` URL. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/** One hook. */
export type HookHandler = FunctionHookHandler | CommandHookHandler | HttpHookHandler;

/** The kind of a hook. */
export type HookKind = HookHandler["type"];

/**
 * Hooks of one event that apply to some tool names. `matcher` is not a
 * regular expression: an exact tool name, several joined by `|`
 * (`Edit|Write`), `*` inside a name as a wildcard (`mcp_github_*`), and `*`,
 * `""` or no matcher for every tool. For session and subagent events it is
 * matched against the payload's `source` (SessionStart), `reason`
 * (SessionEnd) or `agent_type` (else `agent_role`; Subagent*).
 */
export interface HookMatcher {
  readonly matcher?: string;
  readonly hooks: readonly HookHandler[];
}

/** The `hooks` option: matchers per event. */
export type HookSettings = { readonly [Event in HookEventName]?: readonly HookMatcher[] };
