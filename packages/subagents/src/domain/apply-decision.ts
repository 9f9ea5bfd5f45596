/**
 * Whether a completed worktree child's changes go to the parent, by its
 * apply policy: `none` keeps them as candidate artifacts, `explicit`
 * applies only when every changed path is allowed, `auto` applies all.
 * Whatever the policy, a change outside the workspace (the workspace may be
 * a subfolder of the repository) is never applied.
 */
import { leavesWorkspace } from "./apply-refusal.js";
import type { SubagentApplyPolicy, SubagentRunStatus } from "./subagent-types.js";

/** Why a worktree's changes were not applied. */
export type ApplySkipReason =
  | "no_changes"
  /** Not decided any more (changes that are only litter are `no_changes`); kept for reports saved before. */
  | "no_applyable_changes"
  | "apply_policy_none"
  | "changes_outside_workspace"
  | "explicit_apply_paths_mismatch"
  | "run_not_completed";

/** The outcome of {@link decideApply}. */
export type ApplyDecision =
  | { readonly action: "apply"; readonly paths: string[] }
  | {
      readonly action: "skip";
      readonly reason: ApplySkipReason;
      /** The applicable changed paths, left in the worktree for the parent to pick from. */
      readonly candidateArtifacts: string[];
      /** With `explicit_apply_paths_mismatch`: the changed paths no allowed entry matches. */
      readonly mismatchedPaths?: string[];
      /** With `changes_outside_workspace`: the changed paths outside the workspace (`../...`). */
      readonly outsidePaths?: string[];
    };

/** Operating-system litter never applied (compared case-insensitively by file name). */
export const IGNORED_CHANGED_FILES: readonly string[] = [".DS_Store", "Thumbs.db", "Desktop.ini"];
const IGNORED = new Set(IGNORED_CHANGED_FILES.map((name) => name.toLowerCase()));

/** Whether a changed path is operating-system litter ({@link IGNORED_CHANGED_FILES} in any folder, any case). */
export function isOperatingSystemLitter(path: string): boolean {
  return IGNORED.has(baseName(normalizePath(path)).toLowerCase());
}

/**
 * Decides the apply step of a worktree run. Only a `completed` run applies
 * (others skip with `run_not_completed`). Ignored litter files are dropped
 * and directory entries that are parents of other changed paths collapsed;
 * then: nothing left (nothing changed, or only litter) -> `no_changes`;
 * policy `none` -> `apply_policy_none`; a path outside the workspace
 * (`../x`, absolute) -> `changes_outside_workspace` (nothing applied, every
 * policy); `explicit` -> apply only when every path matches an allowed entry
 * (else `explicit_apply_paths_mismatch`); `auto` -> apply.
 *
 * @example
 * decideApply({ runStatus: "completed", changedPaths: ["src/a.ts"], applyPolicy: "explicit", allowedOutputPaths: ["src/**"] });
 * // { action: "apply", paths: ["src/a.ts"] }
 */
export function decideApply(options: {
  readonly runStatus: SubagentRunStatus;
  readonly changedPaths: readonly string[];
  readonly applyPolicy: SubagentApplyPolicy;
  readonly allowedOutputPaths: readonly string[];
}): ApplyDecision {
  const paths = applicablePaths(options.changedPaths);
  if (options.runStatus !== "completed") return { action: "skip", reason: "run_not_completed", candidateArtifacts: paths };
  // A worktree whose only changes are litter is unchanged.
  if (paths.length === 0) return { action: "skip", reason: "no_changes", candidateArtifacts: [] };
  if (options.applyPolicy === "none") return { action: "skip", reason: "apply_policy_none", candidateArtifacts: paths };
  // Changed paths are workspace-relative: a child's worktree holds the whole repository, the parent's workspace may be a subfolder of it.
  const outsidePaths = paths.filter(leavesWorkspace);
  if (outsidePaths.length > 0) return { action: "skip", reason: "changes_outside_workspace", candidateArtifacts: paths, outsidePaths };
  switch (options.applyPolicy) {
    case "explicit": {
      const mismatchedPaths = paths.filter((path) => !options.allowedOutputPaths.some((entry) => matchesAllowedOutputPath(path, entry)));
      if (mismatchedPaths.length > 0) return { action: "skip", reason: "explicit_apply_paths_mismatch", candidateArtifacts: paths, mismatchedPaths };
      return { action: "apply", paths };
    }
    case "auto":
      return { action: "apply", paths };
  }
}

/**
 * The changed paths worth applying: `/` separators, no `./` prefix or
 * trailing `/`, litter files dropped, a directory entry dropped when a path
 * inside it is listed too, duplicates removed; order kept.
 */
export function applicablePaths(changedPaths: readonly string[]): string[] {
  const normalized = [...new Set(changedPaths.map(normalizePath).filter((path) => path !== ""))];
  const kept = normalized.filter((path) => !isOperatingSystemLitter(path));
  return kept.filter((path) => !kept.some((other) => other !== path && other.startsWith(`${path}/`)));
}

/**
 * Whether a changed path matches one `allowed_output_paths` entry. A plain
 * entry matches the path itself or any path under it as a directory
 * (`.` matches everything inside the workspace). A path or an entry that
 * leaves the workspace (absolute, or with a `..` segment) never matches. An entry with `*` or `?` is a glob over the whole
 * path: `**` followed by `/` is any number of directories, another `**` any
 * characters, `*` any characters but `/`, `?` one character but `/`.
 *
 * @example
 * matchesAllowedOutputPath("docs/api/index.md", "docs");       // true
 * matchesAllowedOutputPath("src/a/b.test.ts", "src/**\/*.test.ts"); // true
 */
export function matchesAllowedOutputPath(path: string, entry: string): boolean {
  const target = normalizePath(path);
  const pattern = normalizePath(entry);
  if (hasDotDot(target) || hasDotDot(pattern) || /^(?:\/|[A-Za-z]:)/.test(target)) return false;
  if (pattern === "" || pattern === ".") return target !== "";
  if (!/[*?]/.test(pattern)) return target === pattern || target.startsWith(`${pattern}/`);
  return globToRegExp(pattern).test(target);
}

/** A glob as an anchored regular expression (see {@link matchesAllowedOutputPath}). */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; ) {
    if (glob.startsWith("**/", index)) {
      source += "(?:.*/)?";
      index += 3;
    } else if (glob.startsWith("**", index)) {
      source += ".*";
      index += 2;
    } else if (glob[index] === "*") {
      source += "[^/]*";
      index += 1;
    } else if (glob[index] === "?") {
      source += "[^/]";
      index += 1;
    } else {
      source += glob[index]!.replace(/[.+^${}()|[\]\\]/g, "\\$&");
      index += 1;
    }
  }
  return new RegExp(`^${source}$`);
}

function normalizePath(path: string): string {
  let result = path
    .trim()
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/");
  while (result.startsWith("./")) result = result.slice(2);
  while (result.length > 1 && result.endsWith("/")) result = result.slice(0, -1);
  return result;
}

function hasDotDot(path: string): boolean {
  return path.split("/").includes("..");
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
