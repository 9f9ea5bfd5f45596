/**
 * `skill://` on a workspace that is not the host's own disk: the skills are
 * the host's data (`<dataDir>/skills`), so a `skill://` path is resolved on
 * this disk by the local policy's own rules (the host's access hook, a
 * symlinked skill folder refused, symlinks inside a skill kept inside it),
 * never in the workspace. Read-only for the file tools there, and never a
 * working directory: the workspace's commands run where the skill's files
 * are not.
 */
import path from "node:path";
import { ToolError } from "../errors.js";
import { quoteForMessage } from "../quote.js";
import { isWithin, tryRealpath } from "./containment.js";
import type { PathIntent, ResolvePathOptions, ResolvedPath, SkillPathOptions } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";
import { resolvePath } from "./resolve-path.js";
import { canonicalSkillsRoot } from "./skill-root.js";

const CHANGE_INTENTS: ReadonlySet<PathIntent> = new Set(["write", "edit", "delete"]);

/** The host's skills as a lexical policy holds them. */
export interface HostSkills {
  /** A path-policy state holding only the skills (no workspace path ever reaches it). */
  readonly state: PathPolicyState;
  /** The workspace's label, for messages. */
  readonly label: string;
}

/**
 * The host's skills for a lexical policy; the state's workdir is the skills
 * root itself, which only `skill://` inputs ever reach.
 *
 * @example
 * const skills = hostSkills({ rootDir: "/data/skills" }, "ssh://dev@host:22");
 */
export function hostSkills(options: SkillPathOptions, label: string): HostSkills {
  const rootDir = path.resolve(options.rootDir);
  const state: PathPolicyState = Object.freeze({
    workdir: rootDir,
    declaredWorkdir: rootDir,
    granted: Object.freeze([]),
    skills: Object.freeze({ rootDir, options }),
    uploadsDir: undefined,
  });
  return Object.freeze({ state, label });
}

/**
 * Resolves `skill://<name>/...` on this disk as the local policy does, for
 * reading (Read, Image, List, Glob, Grep). A change (Write, Edit, Delete) and
 * a working directory (Bash, ManagedProcess) are refused (`permission_denied`,
 * `unsupported_target`) with what to do instead.
 *
 * @example
 * resolveHostSkillPath(skills, "skill://pdf/SKILL.md", { intent: "read" }).absolutePath; // "/data/skills/pdf/SKILL.md"
 */
export function resolveHostSkillPath(skills: HostSkills, input: string, options: ResolvePathOptions): ResolvedPath {
  const label = options.label ?? "path";
  if (options.intent === "cwd") {
    throw new ToolError(
      "unsupported_target",
      `${label} ${quoteForMessage(input)}: commands run on ${skills.label}, where the skill's files are not (skills live on the host), so a skill's folder cannot be a working directory there. Read the skill's instructions and files with Read skill://<name>/..., and do its work with the workspace's own tools; to run a skill's scripts there, the host installs them in the workspace as project files, or uses a local workspace.`,
      { details: { workspace: skills.label, scope: "skill" } },
    );
  }
  if (CHANGE_INTENTS.has(options.intent)) {
    throw new ToolError(
      "permission_denied",
      `${label} ${quoteForMessage(input)}: skill:// paths are read-only on ${skills.label} (skills live on the host). Change a skill with SkillsManager create or install.`,
      { details: { workspace: skills.label, scope: "skill" } },
    );
  }
  return resolvePath(skills.state, input, options);
}

/**
 * `skill://<name>/...` for an absolute path of this disk inside the skills
 * root (the results of a walk over a skill), or undefined.
 *
 * @example
 * displayHostSkillPath(skills, "/data/skills/pdf/SKILL.md"); // "skill://pdf/SKILL.md"
 */
export function displayHostSkillPath(skills: HostSkills, absolutePath: string): string | undefined {
  const resolved = path.resolve(absolutePath);
  for (const root of new Set([canonicalSkillsRoot(skills.state) as string, skills.state.workdir])) {
    if (resolved === root || !isWithin(root, resolved)) continue;
    const [name, ...rest] = path.relative(root, resolved).split(path.sep);
    return `skill://${name}/${rest.join("/")}`;
  }
  return undefined;
}

/** Whether `rootPath` is one of the host's skill folders (the canonical skills root's own children). */
export function isHostSkillRoot(skills: HostSkills, rootPath: string): boolean {
  const root = canonicalSkillsRoot(skills.state) as string;
  return path.dirname(rootPath) === root && rootPath !== root;
}

/** True when the canonical form of `absolutePath` exists and stays inside `rootPath` (read on this disk). */
export function staysInsideOnHost(rootPath: string, absolutePath: string): boolean {
  const real = tryRealpath(absolutePath);
  return real !== null && isWithin(rootPath, real);
}
