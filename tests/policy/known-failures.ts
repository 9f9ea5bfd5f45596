/**
 * Rows of the decision table that fail today, each with the reading of why
 * (reported to the lead of issue 35, who routes the fixes). The test runs
 * them with `it.fails`: such a row passes while it still fails, and fails
 * the moment it is fixed, so this list must shrink with every fix: never
 * add a row here to hide a regression.
 *
 * Keys are `<group>/<row name>`.
 */

/** A tool the policy denies whatever its input is refused by the registry before the policy explains it. */
const WHOLE_TOOL_DENY =
  'explain answers layer "registry" with no rule and the reason "denied by the host\'s approval policy" for a tool the policy denies whatever its input (bare deny rule, MCP name or glob, server:<id>, plan mode): the registry refuses it through deniedError before asking the policy, so the verdict loses the rule and layer the design and docs/policy.md promise ("The decision reports the layer of the rule that made it") and the model is told the approval policy denied it';

export const KNOWN_FAILURES: Readonly<Record<string, string>> = {
  "path rules/a bare Delete rule covers every Delete": WHOLE_TOOL_DENY,
  "mcp names/exact MCP name denied": WHOLE_TOOL_DENY,
  "mcp names/legacy server:<id> denies the server's tools": WHOLE_TOOL_DENY,
  "mcp names/'*' in the middle of a name: github": WHOLE_TOOL_DENY,
  "mcp names/'*' in the middle of a name: gitlab": WHOLE_TOOL_DENY,
  "mcp names/deny of one tool beats the server's allow glob": WHOLE_TOOL_DENY,
  "mcp names/a managed MCP deny beats a project allow": WHOLE_TOOL_DENY,
  "mcp names/plan mode denies an MCP tool (not read-only)": WHOLE_TOOL_DENY,
  "modes/plan denies Write": WHOLE_TOOL_DENY,
  "modes/plan denies Edit": WHOLE_TOOL_DENY,
  "modes/plan denies Delete": WHOLE_TOOL_DENY,
  "modes/plan denies Bash": WHOLE_TOOL_DENY,
  "modes/plan denies TaskCreate": WHOLE_TOOL_DENY,
  "modes/the managed mode wins over the project's": WHOLE_TOOL_DENY,
  "fallbacks and plain tools/a bare rule on a tool without specifiers denies it": WHOLE_TOOL_DENY,
  "traps/a command after a heredoc's start on the same line":
    'tree-sitter-bash 0.25.1 reports a syntax error for `cat <<EOF; rm -rf build` + body (valid Bash: rm runs after cat), and no part is read, so the deny rule "Bash(rm *)" does not fire: the line asks (not allowed, but a managed deny is not applied)',
};
