/**
 * Merges the results of one event's hooks (given in declaration order):
 *
 * - PreToolUse: deny > ask > defer > allow; a failed hook denies (fail
 *   closed) with a reason naming it; among equal decisions the first by
 *   declaration order gives the reason. `updatedInput`: several hooks that
 *   rewrite the input differently make the call ambiguous and it is denied
 *   (no hook silently loses); the same rewrite from several is fine.
 *   `additionalContext` is joined in declaration order.
 * - PermissionRequest: a failure or a deny denies; else an allow allows;
 *   else no decision (the host's `onAsk` decides).
 * - PostToolUse / PostToolUseFailure: failures are returned for logging and
 *   otherwise ignored; blocks (exit 2, `decision: "block"`) give reasons the
 *   model reads; `updatedToolOutput`: the first by declaration order.
 */
import { isDeepStrictEqual } from "node:util";
import type { HookAnswer, PolicyDecision } from "@agent-tools/core/policy";
import { type HookResult, decisionOf, toHookAnswer } from "./dispatch-hooks.js";

/** What the PreToolUse hooks decided together. */
export interface PreToolUseDecision {
  readonly decision?: PolicyDecision;
  /** For the model, naming the deciding hook. */
  readonly reason?: string;
  /** The hook whose answer decided. */
  readonly hook?: string;
  readonly updatedInput?: Record<string, unknown>;
  readonly additionalContext?: string;
  readonly answers: readonly HookAnswer[];
}

const RANK: Readonly<Record<PolicyDecision, number>> = { deny: 4, ask: 3, defer: 2, allow: 1 };

function joinContext(results: readonly HookResult[]): string | undefined {
  const parts: string[] = [];
  for (const result of results) {
    if (result.outcome.kind !== "answered") continue;
    const context = result.outcome.output.hookSpecificOutput?.additionalContext;
    if (context !== undefined && context.trim() !== "") parts.push(context);
  }
  return parts.length === 0 ? undefined : parts.join("\n");
}

function voteReason(event: string, result: HookResult, decision: PolicyDecision, reason: string | undefined): string {
  if (result.outcome.kind === "failed") return `The ${event} hook "${result.name}" failed (${result.outcome.error}), so the call is denied.`;
  const verb = { deny: "denied", ask: "asks for approval of", defer: "deferred", allow: "allowed" }[decision];
  return `The ${event} hook "${result.name}" ${verb} this call${reason === undefined || reason.trim() === "" ? "." : `: ${reason.trim()}`}`;
}

function rewrites(results: readonly HookResult[]): { input?: Record<string, unknown>; ambiguous?: string[] } {
  const rewriting: { name: string; input: Record<string, unknown> }[] = [];
  for (const result of results) {
    if (result.outcome.kind !== "answered") continue;
    const input = result.outcome.output.hookSpecificOutput?.updatedInput;
    if (input !== undefined) rewriting.push({ name: result.name, input });
  }
  const first = rewriting[0];
  if (first === undefined) return {};
  if (rewriting.every((entry) => isDeepStrictEqual(entry.input, first.input))) return { input: first.input };
  return { ambiguous: rewriting.map((entry) => entry.name) };
}

/** Merges PreToolUse results (declaration order). */
export function mergePreToolUse(results: readonly HookResult[]): PreToolUseDecision {
  const answers = results.map((result) => toHookAnswer(result, "PreToolUse"));
  let best: { decision: PolicyDecision; reason: string; hook: string } | undefined;
  for (const result of results) {
    const vote = result.outcome.kind === "failed" ? { decision: "deny" as const, reason: undefined } : decisionOf(result, "PreToolUse");
    if (vote.decision === undefined) continue;
    if (best === undefined || RANK[vote.decision] > RANK[best.decision]) {
      best = { decision: vote.decision, reason: voteReason("PreToolUse", result, vote.decision, vote.reason), hook: result.name };
    }
  }
  const additionalContext = joinContext(results);
  const context = additionalContext === undefined ? {} : { additionalContext };
  if (best?.decision === "deny") return { ...best, ...context, answers };
  const rewrite = rewrites(results);
  if (rewrite.ambiguous !== undefined) {
    const names = rewrite.ambiguous.map((name) => `"${name}"`).join(", ");
    return {
      decision: "deny",
      reason: `The PreToolUse hooks ${names} rewrote this call's input differently, so the call is denied as ambiguous.`,
      hook: rewrite.ambiguous[0]!,
      ...context,
      answers,
    };
  }
  return { ...best, ...(rewrite.input === undefined ? {} : { updatedInput: rewrite.input }), ...context, answers };
}

/** Merges PermissionRequest results: deny (or a failure) > allow > no decision. */
export function mergePermissionRequest(results: readonly HookResult[]): { decision?: "allow" | "deny"; reason?: string; answers: readonly HookAnswer[] } {
  const answers = results.map((result) => toHookAnswer(result, "PermissionRequest"));
  let allow: string | undefined;
  for (const result of results) {
    const vote = result.outcome.kind === "failed" ? { decision: "deny" as const, reason: undefined } : decisionOf(result, "PermissionRequest");
    if (vote.decision === "deny") return { decision: "deny", reason: voteReason("PermissionRequest", result, "deny", vote.reason), answers };
    if (vote.decision === "allow" && allow === undefined) allow = voteReason("PermissionRequest", result, "allow", vote.reason);
  }
  return allow === undefined ? { answers } : { decision: "allow", reason: allow, answers };
}

/** What PostToolUse / PostToolUseFailure hooks asked for together. */
export interface PostToolUseChanges {
  /** The text the model reads instead, from the first hook (declaration order) that gave one. */
  readonly updatedToolOutput?: string;
  /** Hooks that gave a replacement that was not used (a later one than the first). */
  readonly ignoredReplacements: readonly string[];
  /** Block reasons, each naming its hook. */
  readonly blocks: readonly string[];
  readonly additionalContext?: string;
  /** Failed hooks: logged by the caller, otherwise ignored. */
  readonly failures: readonly { readonly hook: string; readonly error: string }[];
  readonly answers: readonly HookAnswer[];
}

/** Merges PostToolUse or PostToolUseFailure results. */
export function mergePostToolUse(results: readonly HookResult[], event: "PostToolUse" | "PostToolUseFailure"): PostToolUseChanges {
  const answers = results.map((result) => toHookAnswer(result, event));
  const blocks: string[] = [];
  const failures: { hook: string; error: string }[] = [];
  const ignoredReplacements: string[] = [];
  let updatedToolOutput: string | undefined;
  for (const result of results) {
    if (result.outcome.kind === "failed") {
      failures.push({ hook: result.name, error: result.outcome.error });
      continue;
    }
    const vote = decisionOf(result, event);
    if (vote.decision === "deny") blocks.push(`The ${event} hook "${result.name}" blocked this result: ${vote.reason?.trim() || "(no reason given)"}`);
    const replacement = result.outcome.kind === "answered" ? result.outcome.output.hookSpecificOutput?.updatedToolOutput : undefined;
    if (replacement === undefined) continue;
    if (updatedToolOutput === undefined) updatedToolOutput = replacement;
    else ignoredReplacements.push(result.name);
  }
  const additionalContext = joinContext(results);
  return {
    ...(updatedToolOutput === undefined ? {} : { updatedToolOutput }),
    ignoredReplacements,
    blocks,
    ...(additionalContext === undefined ? {} : { additionalContext }),
    failures,
    answers,
  };
}
