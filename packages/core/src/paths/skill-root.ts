import { lstatSync } from "node:fs";
import path from "node:path";
import { ToolError } from "../errors.js";
import { quoteForMessage } from "../quote.js";
import { isWithin, tryRealpath } from "./containment.js";
import type { PathIntent, RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";

const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The canonical skills root (its would-be place when it does not exist yet); undefined without `skill://`. */
export function canonicalSkillsRoot(state: PathPolicyState): string | undefined {
  if (state.skills === undefined) return undefined;
  return tryRealpath(state.skills.rootDir) ?? path.resolve(state.skills.rootDir);
}

/**
 * The root of one skill for one intent: checks that `skill://` is available
 * and the name is valid, asks the host's `access` hook (default read-only),
 * and places the skill in the canonical skills root. A skill folder that is
 * a symlink is refused: `skill://` reaches only the skills root's own
 * folders, never where a link points. Throws `ToolError`
 * (`permission_denied`, `invalid_path`, `out_of_bounds`).
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
  const rootPath = path.join(canonicalSkillsRoot(state) as string, skillName);
  if (isSymlink(rootPath)) {
    throw new ToolError(
      "out_of_bounds",
      `${label}: skill://${skillName}/ is a symlink, not a folder of the skills root; skill:// paths reach only the skills root's own folders. Reinstall the skill with SkillsManager install.`,
      { details: { skillName } },
    );
  }
  return { scope: "skill", rootPath, access: decision.access, skillName };
}

/** A path reached in the skills root by another form: the skill's root for the intent and the components below it. */
export interface SkillReach {
  readonly candidate: Extract<RootCandidate, { scope: "skill" }>;
  readonly segments: string[];
}

/**
 * The skill policy by canonical path, whatever form reached it (a
 * workspace-relative path with the dataDir inside the workspace, `root://`,
 * a symlink): a path inside a skill folder gets that skill's root for the
 * intent, as `skill://<name>/...` would (the access hook decides); the
 * skills root itself, and on delete a folder holding it, are refused.
 * Undefined when the path has nothing to do with the skills root, or lies
 * in a workspace or granted root the host placed inside the skills root.
 *
 * @example
 * skillReachedBy(state, workspace, "/repo/.agent-tools/skills/pdf/SKILL.md", "read", "Read path"); // { candidate: { scope: "skill", skillName: "pdf", ... }, segments: ["SKILL.md"] }
 */
export function skillReachedBy(
  state: PathPolicyState,
  candidate: RootCandidate,
  canonicalPath: string,
  intent: PathIntent,
  label: string,
): SkillReach | undefined {
  const root = canonicalSkillsRoot(state);
  if (root === undefined) return undefined;
  // A workspace or granted root the host placed inside the skills root (e.g. to develop a skill) keeps its own access.
  if (candidate.scope !== "external" && isWithin(root, candidate.rootPath) && isWithin(candidate.rootPath, canonicalPath)) return undefined;
  if (intent === "delete" && canonicalPath !== root && isWithin(canonicalPath, root)) {
    throw new ToolError(
      "permission_denied",
      `${label} holds the skills folder, so deleting it is refused. Delete single files, or remove a skill with SkillsManager delete.`,
      { details: {} },
    );
  }
  if (!isWithin(root, canonicalPath)) return undefined;
  const [skillName, ...segments] = path
    .relative(root, canonicalPath)
    .split(path.sep)
    .filter((part) => part !== "");
  if (skillName === undefined) {
    throw new ToolError(
      "permission_denied",
      `${label} is the skills folder itself. Use SkillsManager list to see the skills, and Read or Glob on skill://<name>/... to read one.`,
      { details: {} },
    );
  }
  return { candidate: skillRoot(state, skillName, intent, label), segments };
}

/**
 * The canonical skills root when it lies strictly below `directory`, so a
 * walk from there skips it (its skills are reached through `skill://`);
 * empty otherwise.
 *
 * @example
 * skillWalkExclusions(state, "/repo"); // ["/repo/.agent-tools/skills"] with the dataDir inside the workspace
 */
export function skillWalkExclusions(state: PathPolicyState, directory: string): string[] {
  const root = canonicalSkillsRoot(state);
  return root !== undefined && root !== directory && isWithin(directory, root) ? [root] : [];
}

function isSymlink(target: string): boolean {
  try {
    return lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}
