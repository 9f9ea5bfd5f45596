/**
 * The contract between the executor and a permission policy (rules with
 * specifiers, modes, lifecycle hooks). Core only defines it and calls it at
 * fixed points of every call; `@agent-tools/policy` implements it, and
 * `@agent-tools/sdk` builds one from `permissions` and `hooks`.
 */
import type { PathPolicy } from "../paths/path-policy-types.js";
import type { ProcessRunner } from "../ports/process-runner.js";
import type { Logger, ToolMetadata, ToolResult } from "../types.js";
import type { ApprovalDecision, ApprovalOptions } from "./approval-policy.js";
import type { ApprovalVocabulary } from "./approval-validation.js";

/** What a policy may answer before a call runs. `defer`: the call waits for the host (its `onAsk`, with `deferred: true`). */
export type PolicyDecision = ApprovalDecision | "defer";

/** One call as the policy sees it: after parsing and schema validation, before it runs. */
export interface PolicyCall {
  readonly callId: string;
  /** Canonical tool name. */
  readonly toolName: string;
  /** The validated input (what the tool would receive). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly metadata: ToolMetadata;
  /**
   * Validates a rewritten input exactly as the executor validated the
   * model's (unknown keys, size limits, the tool's schema) and returns what
   * the tool would receive; throws `ToolError` (`invalid_arguments`) when it
   * does not pass. Absent in `explain` of a call for a tool that is not known.
   */
  readonly revalidate?: (input: Record<string, unknown>) => Record<string, unknown>;
}

/** One hook's answer, as `explain` and the events report it. */
export interface HookAnswer {
  /** The event it ran for, e.g. `PreToolUse`. */
  readonly event: string;
  /** The hook's name (given, or `<kind>#<index>`). */
  readonly hook: string;
  readonly kind: "function" | "command" | "http";
  /** Its decision, when it gave one. */
  readonly decision?: PolicyDecision;
  readonly reason?: string;
  /** Why it failed or timed out, when it did (a failing PreToolUse hook denies). */
  readonly error?: string;
  readonly durationMs: number;
}

/** What a policy decided for a call before it runs. */
export interface PolicyVerdict {
  readonly decision: PolicyDecision;
  /** The rule that decided, as written (e.g. `Bash(git status)`), when one did. */
  readonly rule?: string;
  /** Where the deciding rule or setting came from: `managed`, `user`, `project`, `approval`, `mode`, `hook`, `default`. */
  readonly layer?: string;
  /** Why, in words for the model (used as the refusal text of a deny). */
  readonly reason?: string;
  /** The input a hook rewrote the call to (already revalidated); the tool runs with it. */
  readonly updatedInput?: Record<string, unknown>;
  /** Text hooks asked to add to what the model reads of this call. */
  readonly additionalContext?: string;
  /** Every hook that ran for this decision, in order. */
  readonly hooks: readonly HookAnswer[];
}

/** What a policy does with a finished call (PostToolUse, PostToolUseFailure). */
export interface PolicyAfterCall {
  /** Replaces the result the model reads. */
  readonly result?: ToolResult;
  /** Text appended to what the model reads. */
  readonly additionalContext?: string;
  readonly hooks: readonly HookAnswer[];
}

/** A policy of one registry. */
export interface ToolCallPolicy {
  /**
   * Decides a call before it runs: PreToolUse hooks (which may rewrite the
   * input), then the rules on the final input. Never rejects for a bad call;
   * a failure inside decides `deny` with the reason. Aborts with `signal`.
   */
  beforeCall(call: PolicyCall, signal: AbortSignal): Promise<PolicyVerdict>;
  /**
   * The `ask` path: PermissionRequest hooks. `allow` or `deny` settles the
   * call; `undefined` leaves it to the host's `onAsk`.
   */
  onPermissionRequest?(
    call: PolicyCall,
    verdict: PolicyVerdict,
    signal: AbortSignal,
  ): Promise<{ decision: "allow" | "deny"; reason?: string; hooks: readonly HookAnswer[] } | undefined>;
  /** After the call ran (or failed): PostToolUse / PostToolUseFailure hooks. */
  afterCall?(call: PolicyCall, result: ToolResult, signal: AbortSignal): Promise<PolicyAfterCall>;
  /**
   * What the rules (and, unless `runHooks` is false, the PreToolUse hooks)
   * decide for a call, without running the tool.
   */
  explain(call: PolicyCall, options?: { runHooks?: boolean; signal?: AbortSignal }): Promise<PolicyVerdict>;
  /** A lifecycle event that is not about one call (SessionStart, SessionEnd, SubagentStart, SubagentStop). */
  notify?(event: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<readonly HookAnswer[]>;
  /**
   * Tool names that arrived later (MCP servers loading): rules naming them
   * are checked now; a rule that names none of them is reported through the logger.
   */
  checkToolNames?(names: readonly string[]): void;
  /**
   * True when the policy denies every call of the tool whatever its input
   * (a bare `Tool` deny rule, `plan` mode for a tool that is not read-only):
   * the registry then leaves it out of `tools` and refuses its calls.
   */
  deniesTool?(toolName: string, metadata: ToolMetadata): boolean;
  /** Releases what the policy started (hook processes, timers). */
  close?(): Promise<void>;
}

/** What a registry gives its policy when it is created. */
export interface ToolCallPolicyEnvironment {
  /** The registry's path policy: how the file tools resolve a path (used to match path rules on the canonical path). */
  readonly paths: PathPolicy;
  readonly workdir: string;
  readonly dataDir: string;
  /** Everything rules may name now (tool names, prefixes still to arrive, servers, groups). */
  readonly vocabulary: () => ApprovalVocabulary;
  /** The registry's checked `approval` options: the fallback when no permission rule matches. */
  readonly approval: ApprovalOptions | undefined;
  /** Metadata of a canonical tool name, when the registry has it. */
  readonly metadataOf: (toolName: string) => ToolMetadata | undefined;
  /** For command hooks; absent when the host gave no process runner. */
  readonly processRunner: () => ProcessRunner | undefined;
  readonly logger: Logger;
}

/**
 * Builds a registry's policy: given as `policy` to `createToolRegistry`,
 * called once with the registry's environment; it throws `SdkError` for an
 * invalid rule or hook (the registry is then not created).
 */
export type ToolCallPolicyFactory = (environment: ToolCallPolicyEnvironment) => ToolCallPolicy;
