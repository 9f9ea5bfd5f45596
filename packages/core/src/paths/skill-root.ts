import path from "node:path";
import { ToolError } from "../errors.js";
import { quoteForMessage } from "../quote.js";
import { tryRealpath } from "./containment.js";
import type { PathIntent, RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";

const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The root of one skill for one intent: checks that `skill://` is available
 * and the name is valid, asks the host's `access` hook (default read-only),
 * and canonicalises the skill's directory (or its would-be place when it
 * does not exist). Throws `ToolError` (`permission_denied`, `invalid_path`).
 *
 * @example
 * skillRoot(state, "pdf", "read", "Read path"); // { scope: "skill", rootPath: "/data/skills/pdf", access: "read", skillName: "pdf" }
 */
export function skillRoot(state: PathPolicyState, skillName: string, intent: PathIntent, label: string): Extract<RootCandidate, { scope: "skill" }> {
  const skills = state.skills;
  if (skills === undefined) throw new ToolError("permission_denied", `${label}: skill:// paths are not available in this runtime.`, { details: {} });
  if (!SKILL_NAME_PATTERN.test(skillName))
    throw new ToolError("invalid_path", `${label}: ${quoteForMessage(skillName)} is not a valid skill name.`, { details: {} });
  const decision = skills.options.access ? skills.options.access(skillName, intent) : { access: "read" as const };
  if ("denied" in decision) throw new ToolError("permission_denied", decision.denied, { details: { skillName } });
  const rootPath = tryRealpath(path.join(skills.rootDir, skillName)) ?? path.join(tryRealpath(skills.rootDir) ?? skills.rootDir, skillName);
  return { scope: "skill", rootPath, access: decision.access, skillName };
}
