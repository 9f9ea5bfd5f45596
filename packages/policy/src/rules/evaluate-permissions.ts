/**
 * Decides one call from compiled permissions: deny rules, then (plan mode)
 * tools that change state, then ask rules, then allow rules, across the
 * layers managed, user, project; first match wins. When no rule decides,
 * the mode does, then the registry's approval options. A command line that
 * does not parse is asked at least; dontAsk turns every ask into a deny.
 */
import type { ApprovalOptions, PathPolicy, ToolMetadata } from "@agent-tools/core";
import { defaultDecisionOf } from "./default-decision.js";
import { isCaseInsensitive, pathBasesOf, resolveCallPath } from "./call-paths.js";
import { callHostOf } from "./domain-pattern.js";
import type { CompiledPermissions } from "./compile-permissions.js";
import type { PathBases } from "./path-pattern.js";
import { acceptEditsAllows, bypassStillAsks, planModeRefuses, protectedPlacesOf } from "./permission-modes.js";
import { type CallFacts, type RuleHit, allowingRules, denyOrAskHit } from "./rule-match.js";
import { MAX_PATCH_TARGETS, callTargetsOf, commandOf, excessPatchTargets, isWalkTool, pathIntentOf } from "./rule-tools.js";
import { hiddenFromRules } from "./hidden-commands.js";

/** What evaluating a call needs of the registry. */
export interface RuleEnvironment {
  /** The registry's path policy; without it (lint, replay) paths resolve lexically against `workdir`. */
  readonly paths?: PathPolicy;
  readonly workdir: string;
  readonly dataDir: string;
  /** The home directory `~/` rules are anchored at. */
  readonly home: string;
  /** The registry's approval options: the fallback when no rule and no mode decides. */
  readonly approval?: ApprovalOptions;
  metadataOf(toolName: string): ToolMetadata | undefined;
}

/** A decision of the rules, with the rule and layer that made it. */
export interface RuleVerdict {
  readonly decision: "allow" | "ask" | "deny";
  /** The rule as written, when a rule decided (several joined by ", " when a command line needed one per part). */
  readonly rule?: string;
  /** `managed`, `user`, `project`, `mode`, `approval` or `default`. */
  readonly layer?: string;
  /** Why, in words for the model. */
  readonly reason?: string;
}

/** One call as the rules see it. */
export interface RuleCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly metadata: ToolMetadata;
}

const NO_BASES: PathBases = Object.freeze({ workdir: [], home: [], roots: new Map<string, readonly string[]>() });

function factsOf(compiled: CompiledPermissions, call: RuleCall, environment: RuleEnvironment): CallFacts {
  const intent = pathIntentOf(call.toolName, call.metadata);
  // Only file tools look at the bases (realpath of the workdir and home, the roots): a Bash call skips those system calls.
  const bases = intent === undefined ? NO_BASES : pathBasesOf(environment);
  const walkTool = isWalkTool(call.toolName);
  const paths =
    intent === undefined
      ? []
      : callTargetsOf(call.toolName, call.input, intent).map((target) =>
          resolveCallPath(target.path, {
            workdir: environment.workdir,
            toolName: call.toolName,
            intent: target.intent,
            walkTool,
            ...(environment.paths ? { paths: environment.paths } : {}),
          }),
        );
  const line = commandOf(call.toolName, call.input);
  const host = callHostOf(call.toolName, call.input);
  const cwd = line !== undefined && typeof call.input.cwd === "string" ? call.input.cwd : undefined;
  const nocase = paths.length > 0 && isCaseInsensitive(bases.workdir.at(-1) ?? environment.workdir, compiled.memory.caseInsensitive);
  return {
    toolName: call.toolName,
    metadata: call.metadata,
    paths,
    bases,
    nocase,
    ...(line === undefined ? {} : { command: compiled.shell.parse(line) }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(host === undefined ? {} : { host }),
  };
}

const layerWords = (layer: string): string => `${layer} settings`;

function subjectWords(hit: RuleHit): string {
  if (hit.subject === undefined) return "";
  return ` for the ${hit.subject.kind === "domain" ? "host" : hit.subject.kind} ${JSON.stringify(hit.subject.text)}`;
}

function denyVerdict(hit: RuleHit, toolName: string): RuleVerdict {
  return {
    decision: "deny",
    rule: hit.rule.text,
    layer: hit.rule.layer,
    reason: `${toolName} is denied by the rule ${JSON.stringify(hit.rule.text)} (${layerWords(hit.rule.layer)})${subjectWords(hit)}. Do not retry it; do the task another way or ask the user.`,
  };
}

function askVerdict(hit: RuleHit, toolName: string): RuleVerdict {
  return {
    decision: "ask",
    rule: hit.rule.text,
    layer: hit.rule.layer,
    reason: `${toolName} needs approval by the rule ${JSON.stringify(hit.rule.text)} (${layerWords(hit.rule.layer)})${subjectWords(hit)}.`,
  };
}

function firstHit(compiled: CompiledPermissions, list: "deny" | "ask", facts: CallFacts): RuleHit | undefined {
  for (const rule of compiled.rules) {
    if (rule.list !== list) continue;
    const hit = denyOrAskHit(rule, facts);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

function fallback(compiled: CompiledPermissions, call: RuleCall, facts: CallFacts, environment: RuleEnvironment): RuleVerdict {
  if (compiled.mode === "acceptEdits" && acceptEditsAllows(facts)) {
    return { decision: "allow", layer: "mode", reason: "acceptEdits mode allows file changes inside the workspace." };
  }
  const decision = defaultDecisionOf(call.toolName, call.metadata, environment.approval);
  const layer = environment.approval === undefined ? "default" : "approval";
  if (facts.command !== undefined && !facts.command.ok && decision === "allow") {
    return { decision: "ask", layer, reason: `The command line could not be parsed (${facts.command.reason}); it needs approval.` };
  }
  const hidden = decision === "allow" ? hiddenFromRules(compiled, facts) : undefined;
  if (hidden !== undefined)
    return { decision: "ask", layer, reason: `The command line hides commands from the permission rules (${hidden}); it needs approval.` };
  return {
    decision,
    layer,
    ...(decision === "allow"
      ? {}
      : {
          reason:
            decision === "deny"
              ? `${call.toolName} is denied by the approval settings.`
              : `${call.toolName} needs approval: no permission rule allows this call.`,
        }),
  };
}

function decide(compiled: CompiledPermissions, call: RuleCall, environment: RuleEnvironment): RuleVerdict {
  const excess = excessPatchTargets(call.toolName, call.input);
  if (excess !== undefined) {
    return {
      decision: "deny",
      layer: "default",
      reason: `${call.toolName} names ${excess} paths, more than the ${MAX_PATCH_TARGETS} the permission rules judge in one patch. Split it into patches of at most ${MAX_PATCH_TARGETS} files.`,
    };
  }
  const facts = factsOf(compiled, call, environment);
  const denied = firstHit(compiled, "deny", facts);
  if (denied !== undefined) return denyVerdict(denied, call.toolName);
  if (compiled.mode === "plan" && planModeRefuses(call.metadata)) {
    return {
      decision: "deny",
      layer: "mode",
      reason: `${call.toolName} changes state and the session is in plan mode: only read-only tools run. Present the plan instead.`,
    };
  }
  if (compiled.mode === "bypassPermissions") {
    const why = bypassStillAsks(facts, protectedPlacesOf(environment.dataDir, environment.workdir)) ?? hiddenFromRules(compiled, facts);
    if (why !== undefined) return { decision: "ask", layer: "mode", reason: `bypassPermissions mode still asks here: ${why}.` };
    return { decision: "allow", layer: "mode", reason: "bypassPermissions mode allows every call no rule denies." };
  }
  const asked = firstHit(compiled, "ask", facts);
  if (asked !== undefined) return askVerdict(asked, call.toolName);
  const allowing = allowingRules(compiled.rules, facts);
  // A bare `Bash` allow does not allow commands hidden from the deny and ask rules (see hidden-commands.ts).
  if (allowing !== undefined && hiddenFromRules(compiled, facts) === undefined) {
    const first = allowing[0]!;
    return { decision: "allow", rule: allowing.map((rule) => rule.text).join(", "), layer: first.layer };
  }
  return fallback(compiled, call, facts, environment);
}

/**
 * The rules' decision for `call`. Pure apart from reading the file system
 * to resolve paths (symlinks) and probing case sensitivity once per folder.
 *
 * @example
 * evaluatePermissions(compiled, { toolName: "Bash", input: { command: "rm -rf build" }, metadata }, environment);
 * // { decision: "deny", rule: "Bash(rm -rf *)", layer: "project", reason: 'Bash is denied by the rule "Bash(rm -rf *)" ...' }
 */
export function evaluatePermissions(compiled: CompiledPermissions, call: RuleCall, environment: RuleEnvironment): RuleVerdict {
  const verdict = decide(compiled, call, environment);
  if (compiled.mode !== "dontAsk" || verdict.decision !== "ask") return verdict;
  return {
    ...verdict,
    decision: "deny",
    reason: `${verdict.reason ?? `${call.toolName} would need approval.`} The session is in dontAsk mode, so it is denied instead. Do not retry it.`,
  };
}
