/**
 * A Bash line that hides commands from the parser (it does not parse, or a
 * shell reads its script from standard input or a file, `source`, a command
 * string decided at run time) cannot be checked against deny and ask rules
 * with a command pattern. While the tool has such rules, a bare allow of the
 * tool (`Bash`) and bypassPermissions mode do not allow the line: it falls to
 * the fallback, at least ask. Without such rules nothing can be bypassed and
 * they allow it as before.
 */
import type { CommandPart } from "../shell/command-parts.js";
import type { CompiledPermissions, CompiledRule } from "./compile-permissions.js";
import { type CallFacts, ruleNamesTool } from "./rule-match.js";

function hiddenReasonOf(part: CommandPart | undefined): string | undefined {
  if (part === undefined) return undefined;
  return part.notAllowableReason ?? `"${part.text}" may run commands this policy cannot read`;
}

/**
 * Why the call's command line hides commands from the deny and ask rules
 * with a command pattern that name its tool, or undefined (no such rule, no
 * hidden command).
 *
 * @example
 * hiddenFromRules(compiled, factsOf("echo 'rm x' | sh")); // '"sh" runs commands from its standard input, ...'
 */
export function hiddenFromRules(compiled: CompiledPermissions, facts: CallFacts): string | undefined {
  const command = facts.command;
  if (command === undefined) return undefined;
  const hidden = !command.ok ? `the command line could not be parsed (${command.reason})` : hiddenReasonOf(command.parts.find((part) => part.hidesCommands));
  if (hidden === undefined) return undefined;
  // `Bash` deny and ask rules also reach the other tools that run a command line (ManagedProcess start, a scheduled script).
  const reaches = (rule: CompiledRule) => ruleNamesTool(rule, facts.toolName, facts.metadata) || (rule.target.kind === "tool" && rule.target.name === "Bash");
  const guarded = compiled.rules.some((rule) => rule.list !== "allow" && rule.command !== undefined && reaches(rule));
  return guarded ? hidden : undefined;
}
