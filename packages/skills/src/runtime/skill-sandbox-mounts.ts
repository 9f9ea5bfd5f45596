/**
 * The skill access policy as sandbox mounts: with the sandbox on, these
 * (not the Bash guard) decide what a confined command sees of the skills
 * root. Computed afresh for every command, so grants made during the
 * session count from the next command on.
 */
import { type Dirent, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { type SkillAccessState, decideSkillPathAccess, isSkillEnabled } from "../domain/skill-access-rules.js";

/** What the skills add to a confined command's policy (the field names of core's `SandboxPolicy`). */
export interface SkillSandboxMounts {
  /** The canonical skills root: shown empty and read-only, only the skills below bound back. */
  readonly maskedDirectories: readonly string[];
  /** Enabled skills a command may read but not change (protected, built-in, or mutation off). */
  readonly readOnlyRoots: readonly string[];
  /** Enabled skills the policy lets a command change (`allowSkillMutation`, not protected). */
  readonly writableRoots: readonly string[];
}

/** The names `skill://<name>` accepts (core's path policy), so a command sees exactly what Read may. */
const SKILL_PATH_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const NONE: SkillSandboxMounts = Object.freeze({ maskedDirectories: [], readOnlyRoots: [], writableRoots: [] });

/**
 * The mounts of the skills root for one command: the canonical root is
 * masked (so a skill that is not enabled, the staging, backup and package
 * folders, the lock file and any skill added later are invisible), and each
 * enabled skill that is a real folder (not a symlink) with a valid name is
 * bound back: writable when the policy grants `skill://` writes, read-only
 * otherwise. Nothing when the root does not exist yet.
 *
 * @example
 * skillSandboxMounts(access.state());
 * // { maskedDirectories: ["/home/me/.agent-tools/skills"], readOnlyRoots: [".../skills/skills-creator", ".../skills/pdf"], writableRoots: [] }
 */
export function skillSandboxMounts(state: SkillAccessState): SkillSandboxMounts {
  let root: string;
  let entries: Dirent[];
  try {
    root = realpathSync(state.skillsRoot);
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return NONE;
  }
  const readOnlyRoots: string[] = [];
  const writableRoots: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (!entry.isDirectory() || !SKILL_PATH_NAME.test(name) || !isSkillEnabled(state, name)) continue;
    const decision = decideSkillPathAccess(state, name, "write");
    ("access" in decision && decision.access === "write" ? writableRoots : readOnlyRoots).push(path.join(root, name));
  }
  return { maskedDirectories: [root], readOnlyRoots, writableRoots };
}
