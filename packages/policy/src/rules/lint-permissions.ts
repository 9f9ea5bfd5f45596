/**
 * Finds rules that do not do what they seem to: rules that can never fire
 * (every mistake the build refuses, reported here instead of thrown),
 * wildcards that match more than they seem to, rules shadowed by an earlier
 * one, and path rules other tools walk around.
 */
import { SdkError } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import { commandPatternTraits } from "../shell/command-pattern.js";
import type { ShellParser } from "../shell/shell-parser.js";
import { type CompiledRule, compilePermissions } from "./compile-permissions.js";
import {
  type CheckedPermissionSettings,
  type LayeredPermissionSettings,
  PERMISSION_LAYERS,
  type PermissionLayer,
  type PermissionSettings,
  RULE_LISTS,
  type RuleListName,
  checkPermissionSettings,
} from "./permission-settings.js";
import { fileRuleCovers, familyOf, specifierKindOf } from "./rule-tools.js";

/** What kind of problem a finding is. */
export type PermissionFindingKind = "never-fires" | "broad-wildcard" | "shadowed" | "duplicate" | "redundant" | "path-rule-bypassed" | "walk-blocked";

/** One problem of one rule. */
export interface PermissionFinding {
  /** The rule as written. */
  readonly rule: string;
  readonly layer: PermissionLayer;
  readonly list: RuleListName;
  readonly kind: PermissionFindingKind;
  /** What is wrong and what to write instead. */
  readonly message: string;
}

/** Options of {@link lintPermissions}. */
export interface LintOptions {
  /** What the registry has; without it tool names are not checked. */
  readonly vocabulary?: ApprovalVocabulary;
  readonly shell: ShellParser;
}

/** A vocabulary that accepts every name the rules use (lint without a registry checks everything else). */
export function permissiveVocabulary(settings: CheckedPermissionSettings): ApprovalVocabulary {
  const toolNames = new Set<string>();
  const serverIds = new Set<string>();
  const groupIds = new Set<string>();
  for (const layer of PERMISSION_LAYERS) {
    for (const list of RULE_LISTS) {
      for (const rule of settings[layer]?.[list] ?? []) {
        const name = rule.split("(")[0]!.trim();
        if (name.startsWith("server:")) serverIds.add(name.slice(7));
        else if (name.startsWith("group:")) groupIds.add(name.slice(6));
        else if (!name.includes("*")) toolNames.add(name);
      }
    }
  }
  return { toolNames, toolNamePrefixes: ["mcp_"], serverIds, groupIds, knownKeys: new Set() };
}

function compileOne(text: string, place: { layer: PermissionLayer; list: RuleListName }, options: { vocabulary: ApprovalVocabulary; shell: ShellParser }) {
  const block: PermissionSettings = { [place.list]: [text] };
  return compilePermissions({ [place.layer]: block } as LayeredPermissionSettings, options).rules[0]!;
}

/** True when a rule without specifier (or matching everything) on `covering`'s tools covers every call `rule` matches. */
function covers(covering: CompiledRule, rule: CompiledRule): boolean {
  if (covering.target.kind !== "tool" || rule.target.kind !== "tool") return covering.tool === rule.tool && covering.specifier === rule.specifier;
  const coveringName = covering.target.name;
  const names = familyOf(rule.target.name);
  const named = names.every((name) => (specifierKindOf(coveringName) === "path" ? fileRuleCovers(coveringName, name, undefined) : coveringName === name));
  if (!named) return false;
  if (covering.specifier === undefined) return true;
  if (covering.command !== undefined && commandPatternTraits(covering.command).matchesEverything) return true;
  return covering.specifier === rule.specifier;
}

function broadness(rule: CompiledRule): string | undefined {
  if (rule.command !== undefined) {
    const traits = commandPatternTraits(rule.command);
    if (traits.matchesEverything && rule.list === "allow") return `matches every command, exactly as \`${rule.tool}\` does; name the commands to allow.`;
    if (traits.wildcardInMiddle) {
      return `has a \`*\` between words, which matches any number of words: \`${rule.text}\` also matches e.g. commands with other subcommands or options in that place. Write one rule per command you mean.`;
    }
  }
  if (rule.path !== undefined && rule.list === "allow") {
    const glob = rule.path.glob;
    if (glob === "" || glob === "**" || glob.startsWith("**/") || (rule.path.anchor === "anywhere" && /^\*+$/.test(glob))) {
      return `allows every path${rule.path.anchor === "workdir" || rule.path.anchor === "anywhere" ? "" : " below its anchor"} for ${rule.tool}; narrow it to the folders you mean.`;
    }
  }
  if (rule.target.kind === "glob" && rule.list === "allow" && /^mcp_\*?$|^mcp_[^_*]*\*$/.test(rule.tool)) {
    return "matches the tools of more than one MCP server; write `mcp_<server>_*`.";
  }
  return undefined;
}

function findingsOfRule(rule: CompiledRule, earlier: readonly CompiledRule[], hasBash: boolean): PermissionFinding[] {
  const out: PermissionFinding[] = [];
  const add = (kind: PermissionFindingKind, message: string): void => {
    out.push({ rule: rule.text, layer: rule.layer, list: rule.list, kind, message: `${JSON.stringify(rule.text)} (${rule.where}) ${message}` });
  };
  const broad = broadness(rule);
  if (broad !== undefined) add("broad-wildcard", broad);
  const duplicate = earlier.find((other) => other.text === rule.text);
  if (duplicate !== undefined)
    add(
      "duplicate",
      `repeats ${duplicate.where}; ${duplicate.list === rule.list ? "remove one" : `the ${duplicate.list} rule is checked first, so this one never fires`}.`,
    );
  else {
    const shadow = earlier.find((other) => other.list !== rule.list && other.list !== "allow" && covers(other, rule));
    if (shadow !== undefined)
      add(
        "shadowed",
        `never fires: the ${shadow.list} rule ${JSON.stringify(shadow.text)} (${shadow.where}) is checked first and covers every call it matches.`,
      );
    const wider = earlier.find((other) => other.list === rule.list && covers(other, rule));
    if (shadow === undefined && wider !== undefined) add("redundant", `is already covered by ${JSON.stringify(wider.text)} (${wider.where}).`);
  }
  if (rule.path !== undefined && rule.list !== "allow" && hasBash) {
    add(
      "path-rule-bypassed",
      `applies to the file tools only: Bash commands (\`cat\`, \`sed -i\`, ...) can still reach these paths; add a Bash rule or a sandbox for them.`,
    );
  }
  if (rule.path !== undefined && rule.list !== "allow" && rule.path.anchor === "anywhere" && fileRuleCovers(rule.tool, "Grep", undefined)) {
    add(
      "walk-blocked",
      `matches at any depth, so every List, Glob and Grep of a folder that could hold such a name is ${rule.list === "deny" ? "denied" : "asked"} as well (fail closed); anchor it (e.g. \`/config/${rule.path.glob}\`) if that is too much.`,
    );
  }
  return out;
}

/**
 * Lints permission settings (one block or the layers). Never throws for a
 * bad rule: each is a `never-fires` finding with the build's message.
 * Throws `SdkError` only when `given` is not settings at all.
 *
 * @example
 * lintPermissions({ allow: ["Bash(git * main)"] }, { shell }); // [{ kind: "broad-wildcard", rule: "Bash(git * main)", ... }]
 */
export function lintPermissions(given: PermissionSettings | LayeredPermissionSettings, options: LintOptions): PermissionFinding[] {
  const settings = checkPermissionSettings(given);
  const vocabulary = options.vocabulary ?? permissiveVocabulary(settings);
  const findings: PermissionFinding[] = [];
  const compiled: CompiledRule[] = [];
  for (const list of RULE_LISTS) {
    for (const layer of PERMISSION_LAYERS) {
      for (const [index, text] of (settings[layer]?.[list] ?? []).entries()) {
        try {
          const rule = { ...compileOne(text, { layer, list }, { vocabulary, shell: options.shell }), where: `permissions.${layer}.${list}[${index}]` };
          compiled.push(rule);
        } catch (error) {
          if (!(error instanceof SdkError)) throw error;
          findings.push({
            rule: text,
            layer,
            list,
            kind: "never-fires",
            message: error.message.replace(`permissions.${layer}.${list}[0]`, `permissions.${layer}.${list}[${index}]`),
          });
        }
      }
    }
  }
  const hasBash = options.vocabulary === undefined || options.vocabulary.toolNames.has("Bash");
  for (const [index, rule] of compiled.entries()) findings.push(...findingsOfRule(rule, compiled.slice(0, index), hasBash));
  return findings;
}
