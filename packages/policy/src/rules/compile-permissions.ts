/**
 * Compiles checked permission settings into the rules the evaluation walks:
 * deny, then ask, then allow, each across the layers managed, user, project.
 * Every rule is checked against what the registry has (fail closed): an
 * unknown or wrongly cased tool, a specifier on a tool that takes none, a
 * pattern that can never match is an `SdkError` naming the rule and the
 * closest valid name.
 */
import { SdkError } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import { closestName } from "@agent-tools/core/internal";
import { type CommandPattern, compileCommandPattern } from "../shell/command-pattern.js";
import type { ShellParser } from "../shell/shell-parser.js";
import { type PathPattern, compilePathPattern } from "./path-pattern.js";
import {
  type CheckedPermissionSettings,
  type LayeredPermissionSettings,
  PERMISSION_LAYERS,
  type PermissionLayer,
  type PermissionMode,
  type PermissionSettings,
  RULE_LISTS,
  type RuleListName,
  checkPermissionSettings,
} from "./permission-settings.js";
import { type RuleText, invalidRule, parseRuleText } from "./rule-grammar.js";
import { type DomainPattern, compileDomainPattern } from "./domain-pattern.js";
import { familyOf, specifierKindOf } from "./rule-tools.js";

/** What a rule names. */
export type RuleTarget =
  | { readonly kind: "tool"; readonly name: string }
  | { readonly kind: "glob"; readonly pattern: RegExp }
  | { readonly kind: "server"; readonly id: string }
  | { readonly kind: "group"; readonly id: string };

/** One checked rule. */
export interface CompiledRule {
  /** The rule as written. */
  readonly text: string;
  readonly layer: PermissionLayer;
  readonly list: RuleListName;
  /** Where it was given, e.g. `permissions.project.allow[2]`. */
  readonly where: string;
  /** The tool part as written (`Bash`, `mcp_github_*`, `server:github`). */
  readonly tool: string;
  readonly target: RuleTarget;
  readonly specifier?: string;
  readonly command?: CommandPattern;
  readonly path?: PathPattern;
  /** The host of a `WebFetch(domain:...)` rule. */
  readonly domain?: DomainPattern;
  /** Set when the rule was accepted by a tool-name prefix of a server not loaded yet. */
  readonly deferredPrefix?: string;
}

/** Compiled permissions of one registry. */
export interface CompiledPermissions {
  readonly mode: PermissionMode;
  /** Deny rules first, then ask, then allow; within a list managed, user, project, in the order given. */
  readonly rules: readonly CompiledRule[];
  /** The parser the Bash patterns were compiled with (and command lines are parsed with). */
  readonly shell: ShellParser;
  /** The checked settings (for lint and replay). */
  readonly settings: CheckedPermissionSettings;
  /** Per-compilation memory: case-insensitivity probes per directory, rules already reported by `checkLateToolNames`. */
  readonly memory: { readonly caseInsensitive: Map<string, boolean>; readonly reported: Set<string> };
}

/** What `compilePermissions` checks rules against and parses Bash patterns with. */
export interface CompileContext {
  readonly vocabulary: ApprovalVocabulary;
  readonly shell: ShellParser;
  /** The registry's additional root aliases: a `root://<alias>` rule naming another is an `SdkError` (it could never match). Unchecked when absent (lint, replay). */
  readonly rootAliases?: readonly string[];
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .split("*")
      .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );

function unknownName(rule: string, where: string, name: string, vocabulary: ApprovalVocabulary): never {
  const candidates = [
    ...vocabulary.toolNames,
    ...vocabulary.knownKeys,
    ...[...vocabulary.serverIds].map((id) => `server:${id}`),
    ...[...vocabulary.groupIds].map((id) => `group:${id}`),
  ];
  const suggestion = closestName(name, candidates);
  const hint = suggestion === undefined ? "" : ` Did you mean \`${suggestion}\`?`;
  return invalidRule(
    rule,
    where,
    `names no tool of this registry: \`${name}\`.${hint} Tool names are exact and case-sensitive; a rule that names nothing would silently not apply.`,
    {
      ...(suggestion === undefined ? {} : { suggestion }),
    },
  );
}

/** Checks the tool part of a rule; returns what it names and the prefix it was accepted by, if any. */
function checkName(rule: string, where: string, name: string, vocabulary: ApprovalVocabulary): { target: RuleTarget; deferredPrefix?: string } {
  if (vocabulary.knownKeys.has(name)) return { target: { kind: "tool", name } };
  for (const kind of ["server", "group"] as const) {
    if (!name.startsWith(`${kind}:`)) continue;
    const id = name.slice(kind.length + 1);
    if ((kind === "server" ? vocabulary.serverIds : vocabulary.groupIds).has(id)) return { target: { kind, id } };
    return unknownName(rule, where, name, vocabulary);
  }
  if (name.includes("*")) {
    if (!name.startsWith("mcp_")) invalidRule(rule, where, "uses `*` in a tool name; only MCP tool names (`mcp_<server>_*`) may hold `*`.");
    const pattern = globToRegExp(name);
    if ([...vocabulary.toolNames].some((tool) => pattern.test(tool))) return { target: { kind: "glob", pattern } };
    const literal = name.slice(0, name.indexOf("*"));
    const prefix = vocabulary.toolNamePrefixes.find((candidate) => literal.startsWith(candidate) || candidate.startsWith(literal));
    if (prefix !== undefined) return { target: { kind: "glob", pattern }, deferredPrefix: prefix };
    return invalidRule(rule, where, `matches no tool of this registry and no MCP server still to load: \`${name}\`.`);
  }
  if (vocabulary.toolNames.has(name)) return { target: { kind: "tool", name } };
  if (familyOf(name).length > 1 && familyOf(name).some((member) => vocabulary.toolNames.has(member))) return { target: { kind: "tool", name } };
  const prefix = vocabulary.toolNamePrefixes.find((candidate) => name.startsWith(candidate) && name.length > candidate.length);
  if (prefix !== undefined) return { target: { kind: "tool", name }, deferredPrefix: prefix };
  return unknownName(rule, where, name, vocabulary);
}

function compileSpecifier(
  rule: RuleText & { specifier: string },
  where: string,
  shell: ShellParser,
): { command?: CommandPattern; path?: PathPattern; domain?: DomainPattern } {
  const { text, tool, specifier } = rule;
  const kind = specifierKindOf(tool);
  if (kind === "none") invalidRule(text, where, `gives a specifier, but ${tool} takes no specifier; write \`${tool}\` for every call of the tool.`);
  if (kind === "domain") return { domain: compileDomainPattern(text, specifier, where) };
  try {
    if (kind === "command") return { command: compileCommandPattern(shell, specifier) };
    return { path: compilePathPattern(text, specifier) };
  } catch (error) {
    if (!(error instanceof SdkError)) throw error;
    if (error.message.includes(JSON.stringify(text))) throw error;
    return invalidRule(text, where, `has a pattern that can never match: ${error.message}`, { ...error.details });
  }
}

function compileRule(text: string, place: { layer: PermissionLayer; list: RuleListName; where: string }, context: CompileContext): CompiledRule {
  const parsed = parseRuleText(text, place.where);
  const { target, deferredPrefix } = checkName(text, place.where, parsed.tool, context.vocabulary);
  const compiled =
    parsed.specifier === undefined
      ? {}
      : target.kind === "tool"
        ? compileSpecifier({ ...parsed, specifier: parsed.specifier }, place.where, context.shell)
        : undefined;
  if (compiled === undefined) invalidRule(text, place.where, `gives a specifier, but ${parsed.tool} takes no specifier.`);
  checkRootAlias(text, place.where, compiled.path, context.rootAliases);
  return Object.freeze({
    text,
    ...place,
    tool: parsed.tool,
    target,
    ...(parsed.specifier === undefined ? {} : { specifier: parsed.specifier }),
    ...compiled,
    ...(deferredPrefix === undefined ? {} : { deferredPrefix }),
  });
}

/** `Read(root://nosuch/**)` names a root the registry does not have: it would never match, so a deny would fail open. */
function checkRootAlias(text: string, where: string, pattern: PathPattern | undefined, aliases: readonly string[] | undefined): void {
  if (pattern?.anchor !== "root" || aliases === undefined || aliases.includes(pattern.alias ?? "")) return;
  const suggestion = closestName(pattern.alias ?? "", aliases);
  const known = aliases.length === 0 ? "this registry has no additional roots" : `its roots are ${aliases.map((alias) => `root://${alias}`).join(", ")}`;
  invalidRule(
    text,
    where,
    `names the root \`root://${pattern.alias}\`, which this registry does not have (${known})${suggestion ? `; did you mean \`root://${suggestion}\`?` : "."}`,
  );
}

function modeOf(settings: CheckedPermissionSettings): PermissionMode {
  const layers = PERMISSION_LAYERS.map((layer) => settings[layer]).filter((block): block is Readonly<PermissionSettings> => block !== undefined);
  const mode = layers.find((block) => block.defaultMode !== undefined)?.defaultMode ?? "default";
  if (mode === "bypassPermissions" && layers.some((block) => block.disableBypassPermissionsMode === "disable")) {
    throw new SdkError(
      "invalid_options",
      'permissions.defaultMode is "bypassPermissions", but disableBypassPermissionsMode is "disable": choose another mode or remove the setting that disables it.',
      { option: "defaultMode" },
    );
  }
  return mode;
}

/**
 * Checks and compiles `given` (one settings block, or the layers managed,
 * user, project). Throws `SdkError` (`invalid_options`) for every mistake
 * listed in docs/policy.md; the message names the rule, where it was given,
 * and a suggestion where there is one.
 *
 * @example
 * compilePermissions({ deny: ["Bash(rm -rf *)"] }, { vocabulary, shell }).rules[0].layer; // "project"
 */
export function compilePermissions(
  given: PermissionSettings | LayeredPermissionSettings | CheckedPermissionSettings,
  context: CompileContext,
): CompiledPermissions {
  const settings = checkPermissionSettings(given);
  const mode = modeOf(settings);
  const rules: CompiledRule[] = [];
  for (const list of RULE_LISTS) {
    for (const layer of PERMISSION_LAYERS) {
      for (const [index, text] of (settings[layer]?.[list] ?? []).entries()) {
        rules.push(compileRule(text, { layer, list, where: `permissions.${layer}.${list}[${index}]` }, context));
      }
    }
  }
  return Object.freeze({
    mode,
    rules: Object.freeze(rules),
    shell: context.shell,
    settings,
    memory: { caseInsensitive: new Map<string, boolean>(), reported: new Set<string>() },
  });
}

/**
 * Checks the rules that were accepted only by a tool-name prefix, now that
 * `names` arrived (an MCP server loaded): a rule whose prefix those names
 * carry but which names none of them is reported once through `warn`, with
 * the closest name (it does not apply).
 *
 * @example
 * checkLateToolNames(compiled, ["mcp_github_create_issue"], logger.warn); // warns about "mcp_github_create_isue"
 */
export function checkLateToolNames(
  compiled: CompiledPermissions,
  names: readonly string[],
  warn: (message: string, data: Record<string, unknown>) => void,
): void {
  for (const rule of compiled.rules) {
    const prefix = rule.deferredPrefix;
    if (prefix === undefined || compiled.memory.reported.has(rule.where)) continue;
    const arrived = names.filter((name) => name.startsWith(prefix));
    if (arrived.length === 0) continue;
    const target = rule.target;
    const matches = arrived.some((name) => (target.kind === "glob" ? target.pattern.test(name) : target.kind === "tool" && target.name === name));
    if (matches) continue;
    compiled.memory.reported.add(rule.where);
    const suggestion = closestName(rule.tool, arrived);
    warn(
      `The permission rule ${JSON.stringify(rule.text)} (${rule.where}) names no tool of the server that loaded (tools starting with "${prefix}")${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} It does not apply.`,
      { rule: rule.text, option: rule.where, prefix, ...(suggestion === undefined ? {} : { suggestion }) },
    );
  }
}
