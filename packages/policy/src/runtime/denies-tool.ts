/**
 * Whether the rules deny every call of a tool whatever its input: a deny
 * rule naming the tool without a specifier (`Bash`, `Read` for the whole
 * Read family, `mcp_github_*`, `server:<id>`, `group:<id>`), or plan mode for
 * a tool plan mode refuses. The registry then leaves the tool out of what
 * the model sees (hooks cannot allow such a call: a deny rule always wins).
 */
import type { ToolMetadata } from "@agent-tools/core";
import type { CompiledPermissions } from "../rules/compile-permissions.js";
import { planModeRefuses } from "../rules/permission-modes.js";
import { ruleNamesTool } from "../rules/rule-match.js";

/** True when `compiled` denies every call of `toolName`. */
export function deniesTool(compiled: CompiledPermissions, toolName: string, metadata: ToolMetadata): boolean {
  if (compiled.mode === "plan" && planModeRefuses(metadata)) return true;
  return compiled.rules.some((rule) => rule.list === "deny" && rule.specifier === undefined && ruleNamesTool(rule, toolName, metadata));
}
