/**
 * Whether one compiled rule applies to one call. The call's facts (its
 * parsed command line, its resolved paths) are computed once per call and
 * shared by every rule.
 */
import type { ToolMetadata } from "@agent-tools/core";
import type { CommandPart, ParsedCommandLine } from "../shell/command-parts.js";
import { matchesCommandPart } from "../shell/command-pattern.js";
import { type CallPath, withMirrored } from "./call-paths.js";
import type { CompiledRule } from "./compile-permissions.js";
import { matchesDomain } from "./domain-pattern.js";
import { type PathBases, matchPathPattern } from "./path-pattern.js";
import { fileRuleCovers, readsWhatItChanges, specifierKindOf } from "./rule-tools.js";

/** What the rules look at of one call. */
export interface CallFacts {
  readonly toolName: string;
  readonly metadata: ToolMetadata;
  /** The parsed command line of a shell tool call (undefined: no command, e.g. ManagedProcess `status`). */
  readonly command?: ParsedCommandLine;
  /** The working directory a shell tool call gives (`cwd`), as given. */
  readonly cwd?: string;
  /** The paths of a file tool call (empty for other tools). */
  readonly paths: readonly CallPath[];
  /** The host of a WebFetch call's URL (as the URL parser writes it). */
  readonly host?: string;
  readonly bases: PathBases;
  readonly nocase: boolean;
}

/** Why a deny or ask rule matched: the command part or path it matched. */
export interface RuleHit {
  readonly rule: CompiledRule;
  /** The command part (its text) or path (as given) the rule matched, when it has a specifier. */
  readonly subject?: { readonly kind: "command" | "path" | "domain"; readonly text: string };
}

/** True when the rule's name covers the call's tool (before its specifier is looked at). */
export function ruleNamesTool(rule: CompiledRule, toolName: string, metadata: ToolMetadata): boolean {
  const target = rule.target;
  switch (target.kind) {
    case "server":
      return metadata.serverId === target.id;
    case "group":
      return metadata.groupId === target.id;
    case "glob":
      return target.pattern.test(toolName);
    case "tool":
      return specifierKindOf(target.name) === "path" ? fileRuleCovers(target.name, toolName, metadata) : target.name === toolName;
  }
}

/**
 * The first path of the call a deny/ask path rule matches (the lexical path
 * counts too, and in a linked worktree the path's counterpart in the main
 * worktree; a walk is matched by what it could reach).
 */
function deniedPath(rule: CompiledRule, facts: CallFacts): CallPath | undefined {
  const pattern = rule.path;
  if (pattern === undefined) return undefined;
  return facts.paths.find((item) =>
    withMirrored(item.denyTargets, facts.bases).some((target) =>
      matchPathPattern(pattern, target, { bases: facts.bases, nocase: facts.nocase, mode: item.walk ? "reach" : "path" }),
    ),
  );
}

/** True when an allow path rule covers every path of the call (its canonical form; a walk, or Delete of a directory, only when everything below is covered). */
export function allowsPaths(rule: CompiledRule, facts: CallFacts): boolean {
  const pattern = rule.path;
  if (pattern === undefined || facts.paths.length === 0) return false;
  return facts.paths.every((item) => {
    const target = item.canonical;
    if (target === undefined) return false;
    const options = { bases: facts.bases, nocase: facts.nocase };
    // Delete of a directory removes the directory too: the rule must name it as well as cover what is below.
    if (item.tree === true && !matchPathPattern(pattern, target, { ...options, mode: "path" })) return false;
    return matchPathPattern(pattern, target, { ...options, mode: item.walk ? "cover" : "path" });
  });
}

/** The first part of the command line a deny/ask command rule matches (a dynamic word may match anything there). */
function deniedPart(rule: CompiledRule, facts: CallFacts): CommandPart | undefined {
  const pattern = rule.command;
  if (pattern === undefined || facts.command === undefined) return undefined;
  return facts.command.parts.find((part) => matchesCommandPart(pattern, part, "deny"));
}

/**
 * True when a `Bash` deny or ask rule reaches a call of another tool that
 * runs a command line (ManagedProcess `start`): a command the rules keep
 * from Bash must not run through the other door. Allow rules stay per tool.
 */
function bashRuleReaches(rule: CompiledRule, facts: CallFacts): boolean {
  return rule.target.kind === "tool" && rule.target.name === "Bash" && facts.toolName !== "Bash" && facts.command !== undefined;
}

/**
 * A `Read(<path>)` deny or ask rule reaches ApplyPatch too: a patch reads
 * the files it names (a hunk that does not match answers with the file's
 * closest lines; a `Move to` carries the content to a path Read may see).
 */
function readRuleReachesPatch(rule: CompiledRule, facts: CallFacts): boolean {
  return rule.target.kind === "tool" && rule.target.name === "Read" && rule.specifier !== undefined && readsWhatItChanges(facts.toolName);
}

/** The hit of a deny or ask rule on the call, or undefined when it does not apply. */
export function denyOrAskHit(rule: CompiledRule, facts: CallFacts): RuleHit | undefined {
  if (!ruleNamesTool(rule, facts.toolName, facts.metadata) && !bashRuleReaches(rule, facts) && !readRuleReachesPatch(rule, facts)) return undefined;
  if (rule.specifier === undefined) return { rule };
  if (rule.domain !== undefined) {
    return facts.host !== undefined && matchesDomain(rule.domain, facts.host) ? { rule, subject: { kind: "domain", text: facts.host } } : undefined;
  }
  if (rule.command !== undefined) {
    const part = deniedPart(rule, facts);
    return part === undefined ? undefined : { rule, subject: { kind: "command", text: part.text } };
  }
  const hit = deniedPath(rule, facts);
  return hit === undefined ? undefined : { rule, subject: { kind: "path", text: hit.input } };
}

/**
 * The allow rules that allow the call: a rule without specifier alone; for
 * a command line, one matching rule for every part (the line must parse and
 * every part must be allowable); for paths, one rule covering every path.
 * Undefined when the allow rules do not allow it.
 */
export function allowingRules(rules: readonly CompiledRule[], facts: CallFacts): readonly CompiledRule[] | undefined {
  const named = rules.filter((rule) => rule.list === "allow" && ruleNamesTool(rule, facts.toolName, facts.metadata));
  const bare = named.find((rule) => rule.specifier === undefined);
  if (bare !== undefined) return [bare];
  const command = facts.command;
  if (command !== undefined && named.some((rule) => rule.command !== undefined)) {
    if (!command.ok || command.parts.length === 0 || command.parts.some((part) => !part.allowable)) return undefined;
    const used: CompiledRule[] = [];
    for (const part of command.parts) {
      const rule = named.find((candidate) => candidate.command !== undefined && matchesCommandPart(candidate.command, part, "allow"));
      if (rule === undefined) return undefined;
      if (!used.includes(rule)) used.push(rule);
    }
    return used;
  }
  const host = facts.host;
  if (host !== undefined) {
    const domainRule = named.find((rule) => rule.domain !== undefined && matchesDomain(rule.domain, host));
    if (domainRule !== undefined) return [domainRule];
  }
  const pathRule = named.find((rule) => rule.path !== undefined && allowsPaths(rule, facts));
  return pathRule === undefined ? undefined : [pathRule];
}
