import type { AdditionalRoot, GrantedRoot, RootAccess, RootStatus } from "./additional-roots.js";

/** Why a path is resolved; write intents need write access, `cwd` refuses `root://`. */
export type PathIntent = "read" | "list" | "search" | "image" | "write" | "edit" | "delete" | "cwd";

/** Which kind of root a path resolved into (`uploads`: the host's read-only folder of user uploads). */
export type PathScope = "workspace" | "root" | "skill" | "uploads" | "external";

/** Access decision of a skill-access hook. */
export type SkillAccessDecision = { access: RootAccess } | { denied: string };

/** How `skill://` paths resolve; the skills package plugs its policy in here. */
export interface SkillPathOptions {
  /** Directory holding one folder per skill. Default `<dataDir>/skills`. */
  rootDir: string;
  /** Decides access per skill and intent; default: read-only for every skill. */
  access?(skillName: string, intent: PathIntent): SkillAccessDecision;
}

/** Options of `createPathPolicy`. */
export interface PathPolicyOptions {
  /** Absolute workspace directory; must exist. */
  workdir: string;
  /** Extra directories reachable as `root://alias/...`. */
  additionalRoots?: readonly AdditionalRoot[];
  /** `skill://` resolution; omitted = `skill://` paths are refused. */
  skills?: SkillPathOptions;
  /**
   * Absolute directory of the files the user uploaded (the registry passes
   * `<dataDir>/uploads`): a read-only scope `uploads` reached by absolute
   * path. Reads, lists, searches and Image work there; every write intent
   * is refused, however the path reaches it. Omitted = no uploads scope.
   */
  uploadsDir?: string;
}

/** Options of {@link PathPolicy.resolve}. */
export interface ResolvePathOptions {
  intent: PathIntent;
  /** How messages name the input, e.g. `Read path`. Default `path`. */
  label?: string;
  /** Accept absolute paths outside every root (Image, Bash cwd). Default false. */
  allowExternal?: boolean;
}

/** A path that passed the policy. */
export interface ResolvedPath {
  /** The input as given. */
  readonly input: string;
  /** Absolute path inside the canonical root (the leaf is not resolved when it is a symlink being deleted). */
  readonly absolutePath: string;
  /** True when the target exists (following symlinks). */
  readonly exists: boolean;
  /** True when the last component is a symlink. */
  readonly isSymlink: boolean;
  readonly scope: PathScope;
  /** Canonical root directory (`/` for external paths). */
  readonly rootPath: string;
  /** Path relative to the root with `/` separators; "" for the root itself. */
  readonly relativePath: string;
  /** What results show: relative, `root://alias/...`, `skill://name/...` or absolute (external and uploads paths). */
  readonly displayPath: string;
  readonly access: RootAccess;
  readonly alias?: string;
  readonly skillName?: string;
}

/** Live state of a granted root, as listed by {@link PathPolicy.roots}. */
export interface RootInfo {
  readonly alias: string;
  readonly id?: string;
  readonly path: string;
  readonly canonicalPath: string;
  readonly access: RootAccess;
  readonly status: RootStatus;
}

/** The one place every tool resolves and checks paths. */
export interface PathPolicy {
  /** The canonical workspace directory. */
  readonly workdir: string;
  /** Resolves and checks an input path; throws `ToolError` (`invalid_path`, `out_of_bounds`, `permission_denied`). */
  resolve(input: string, options: ResolvePathOptions): ResolvedPath;
  /** Rewrites an absolute path for display (`.`-relative, `root://`, `skill://`, or absolute). */
  display(absolutePath: string): string;
  /** True when the canonical form of `absolutePath` stays inside `rootPath` (for walkers skipping escaping symlinks). */
  staysInside(rootPath: string, absolutePath: string): boolean;
  /**
   * Canonical directories strictly below the canonical `directory` that a
   * walk (List, Glob, Grep) must skip: the skills root when it lies there
   * (e.g. the dataDir inside the workspace), whose skills are reached
   * through `skill://`, where the skill policy applies. Usually empty.
   */
  walkExclusions(directory: string): string[];
  /** Granted roots with their live status. */
  roots(): RootInfo[];
}

/**
 * The root a path falls into, as the pure functions of the policy pass it
 * around: one variant per scope, so a root always has its grant and a skill
 * its name (no optional fields to assert on).
 */
export type RootCandidate =
  | { readonly scope: "workspace"; readonly rootPath: string; readonly access: "write" }
  | { readonly scope: "root"; readonly rootPath: string; readonly access: RootAccess; readonly root: GrantedRoot }
  | { readonly scope: "skill"; readonly rootPath: string; readonly access: RootAccess; readonly skillName: string }
  | { readonly scope: "uploads"; readonly rootPath: string; readonly access: "read" }
  | { readonly scope: "external"; readonly rootPath: string; readonly access: "write" };
