/**
 * The skill access policy as pure decisions: which skills are enabled, which
 * are protected, what `skill://` paths may do, and which SkillsManager
 * actions the host allows. Every denial says what is refused and why, and
 * ends with {@link SKILL_DENIAL_SUFFIX}.
 */
import type { PathIntent, SkillAccessDecision } from "@agent-tools/core";
import { SKILL_DENIAL_SUFFIX, type SkillAccessPolicy, type SkillsManagerAction } from "./skill-types.js";

/** What the access decisions read: the host's policy, the skills root, the built-ins and the names granted at run time. */
export interface SkillAccessState {
  readonly policy: SkillAccessPolicy;
  /** Absolute skills root (one folder per skill). */
  readonly skillsRoot: string;
  /** Names of the built-in skills (always enabled, never changed). */
  readonly builtInNames: readonly string[];
  /** Skills granted during the run (installed or created by the model). */
  readonly grantedNames: ReadonlySet<string>;
}

/** SkillsManager actions that list skills (need `allowSkillInventory`). */
export const SKILL_INVENTORY_ACTIONS: readonly SkillsManagerAction[] = Object.freeze(["list", "registry_search"]);

/** SkillsManager actions that manage skills (need `allowSkillManagement`). */
export const SKILL_MANAGEMENT_ACTIONS: readonly SkillsManagerAction[] = Object.freeze([
  "install",
  "create",
  "validate",
  "package",
  "delete",
  "registry_install",
]);

/** Actions that replace or remove a skill folder, refused on protected skills. */
const CHANGING_ACTIONS: ReadonlySet<SkillsManagerAction> = new Set(["install", "create", "delete", "registry_install"]);
/** Actions that address an existing skill by name and so need it enabled. */
const EXISTING_SKILL_ACTIONS: ReadonlySet<SkillsManagerAction> = new Set(["read", "validate", "package", "delete"]);
const WRITE_INTENTS: ReadonlySet<PathIntent> = new Set(["write", "edit", "delete"]);

/** A path with `/` separators and no trailing slash, for prefix comparisons. */
function comparable(dir: string): string {
  const slashed = dir.replace(/\\/g, "/");
  return slashed.length > 1 ? slashed.replace(/\/+$/, "") : slashed;
}

/** True when `child` equals `parent` or sits inside it. */
function isSameOrInside(parent: string, child: string): boolean {
  const p = comparable(parent);
  const c = comparable(child);
  return c === p || c.startsWith(p === "/" ? "/" : `${p}/`);
}

/**
 * The absolute folder of a skill under the root.
 *
 * @example
 * skillBaseDir("/data/skills", "pdf"); // "/data/skills/pdf"
 */
export function skillBaseDir(skillsRoot: string, name: string): string {
  return `${comparable(skillsRoot)}/${name}`;
}

/** True when `name` is one of the built-in skills. */
export function isBuiltInSkill(state: SkillAccessState, name: string): boolean {
  return state.builtInNames.includes(name);
}

/**
 * Whether the model may use a skill: built-ins and run-time grants always;
 * otherwise every skill when neither `allowedSkillNames` nor
 * `allowedSkillBaseDirs` is an array, else a skill listed by name or whose
 * folder equals (or sits inside) a listed folder. An empty array enables
 * nothing beyond the built-ins and grants.
 *
 * @example
 * isSkillEnabled({ policy: { allowedSkillNames: ["pdf"] }, skillsRoot: "/s", builtInNames: [], grantedNames: new Set() }, "docx"); // false
 */
export function isSkillEnabled(state: SkillAccessState, name: string): boolean {
  if (isBuiltInSkill(state, name) || state.grantedNames.has(name)) return true;
  const { allowedSkillNames, allowedSkillBaseDirs } = state.policy;
  if (!Array.isArray(allowedSkillNames) && !Array.isArray(allowedSkillBaseDirs)) return true;
  if (allowedSkillNames?.includes(name)) return true;
  const baseDir = skillBaseDir(state.skillsRoot, name);
  return allowedSkillBaseDirs?.some((dir) => isSameOrInside(dir, baseDir)) ?? false;
}

/**
 * Whether a skill is readable but never changed: the built-ins, names in
 * `protectedSkillNames`, and folders equal to (or inside) a folder of
 * `protectedSkillBaseDirs`.
 *
 * @example
 * isSkillProtected(state, "skills-creator"); // true (built-in)
 */
export function isSkillProtected(state: SkillAccessState, name: string): boolean {
  if (isBuiltInSkill(state, name)) return true;
  if (state.policy.protectedSkillNames?.includes(name)) return true;
  const baseDir = skillBaseDir(state.skillsRoot, name);
  return state.policy.protectedSkillBaseDirs?.some((dir) => isSameOrInside(dir, baseDir)) ?? false;
}

function deny(message: string): { denied: string } {
  return { denied: `${message} ${SKILL_DENIAL_SUFFIX}` };
}

function notEnabledMessage(name: string, what: string): string {
  return `Skill "${name}" is not enabled for this session, so ${what} is refused. Use SkillsManager list to see the enabled skills, or ask the user to enable "${name}".`;
}

function protectedMessage(state: SkillAccessState, name: string, what: string): string {
  const why = isBuiltInSkill(state, name) ? "is a built-in skill" : "is protected by the host's skill access policy";
  return `Skill "${name}" ${why}: it can be read but not changed, so ${what} is refused. Create a new skill with another name instead.`;
}

/**
 * The access of a `skill://<name>/...` path for one intent (core's
 * `SkillPathOptions.access` hook): read for an enabled skill; write for a
 * write, edit or delete when `allowSkillMutation` is true and the skill is
 * not protected; a denial otherwise.
 *
 * @example
 * decideSkillPathAccess(state, "pdf", "read"); // { access: "read" }
 * decideSkillPathAccess(state, "pdf", "write"); // { denied: "Changing files inside skills ... is turned off ..." } unless allowSkillMutation
 */
export function decideSkillPathAccess(state: SkillAccessState, name: string, intent: PathIntent): SkillAccessDecision {
  if (!isSkillEnabled(state, name)) return deny(notEnabledMessage(name, `access to skill://${name}/`));
  if (!WRITE_INTENTS.has(intent)) return { access: "read" };
  const what = `${intent === "delete" ? "deleting" : "changing"} files in skill://${name}/`;
  if (isSkillProtected(state, name)) return deny(protectedMessage(state, name, what));
  if (state.policy.allowSkillMutation !== true) {
    return deny(
      `Changing files inside skills (Write, Edit or Delete on skill://${name}/...) is turned off by the host's skill access policy, so ${what} is refused. Skills stay readable with Read, Glob and SkillsManager read.`,
    );
  }
  return { access: "write" };
}

/**
 * Whether a SkillsManager action may run: `list` and `registry_search` need
 * `allowSkillInventory` (default true); install, create, validate, package,
 * delete and registry_install need `allowSkillManagement` (default true);
 * read, validate, package and delete need an enabled skill; install, create,
 * delete and registry_install onto a protected or built-in skill are
 * refused. Returns the denial message, or undefined when allowed.
 *
 * @example
 * decideManagerAction(state, "delete", "skills-creator"); // 'Skill "skills-creator" is a built-in skill: ... Do not bypass this ...'
 */
export function decideManagerAction(state: SkillAccessState, action: SkillsManagerAction, name?: string): string | undefined {
  if (SKILL_INVENTORY_ACTIONS.includes(action) && state.policy.allowSkillInventory === false) {
    return deny(`Listing and searching skills (SkillsManager ${action}) is turned off by the host's skill access policy, so ${action} is refused.`).denied;
  }
  if (SKILL_MANAGEMENT_ACTIONS.includes(action) && state.policy.allowSkillManagement === false) {
    return deny(
      `Managing skills (SkillsManager install, create, validate, package, delete, registry_install) is turned off by the host's skill access policy, so ${action} is refused.`,
    ).denied;
  }
  if (name === undefined) return undefined;
  if (EXISTING_SKILL_ACTIONS.has(action) && !isSkillEnabled(state, name)) return deny(notEnabledMessage(name, `SkillsManager ${action}`)).denied;
  if (CHANGING_ACTIONS.has(action) && isSkillProtected(state, name)) return deny(protectedMessage(state, name, `SkillsManager ${action}`)).denied;
  return undefined;
}
