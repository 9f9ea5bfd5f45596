/**
 * What an apply refuses outright, whatever the apply policy: a worktree's
 * content is the child's data, and some of it must never reach the parent.
 * One refused path stops the whole apply (nothing is applied, the worktree
 * is kept) and the report names every refused path with its reason.
 */

/** Why a changed path is refused. */
export const APPLY_REFUSAL_REASONS = ["git_entry", "outside_workspace", "link_outside_workspace", "submodule", "special_file", "invalid_path"] as const;
/** One of {@link APPLY_REFUSAL_REASONS}. */
export type ApplyRefusalReason = (typeof APPLY_REFUSAL_REASONS)[number];

/** A changed path an apply refuses. */
export interface ApplyRefusal {
  /** Repository-relative, `/` separators. */
  readonly path: string;
  readonly reason: ApplyRefusalReason;
  /** What was found, for the report (e.g. a link's target). */
  readonly detail: string;
}

/** Code points HFS+ ignores in names (so `.g\u200cit` is `.git` there), as git's own `is_hfs_dotgit` lists them. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * True when one path segment names git's metadata on some file system:
 * `.git` in any case, with trailing dots or spaces (NTFS drops them), with
 * code points HFS+ ignores, or the NTFS short name `git~1`.
 *
 * @example
 * isGitEntryName(".GIT"); // true
 * isGitEntryName(".gitignore"); // false
 */
export function isGitEntryName(segment: string): boolean {
  const name = segment
    .replace(HFS_IGNORED, "")
    .replace(/[. ]+$/, "")
    .toLowerCase();
  return name === ".git" || /^git~\d+$/.test(name);
}

/** True when any segment of `path` (`/` or `\` separated) is a {@link isGitEntryName} `.git` entry. */
export function hasGitEntry(path: string): boolean {
  return path.split(/[\\/]/).some(isGitEntryName);
}

/**
 * True when a path relative to the workspace leaves it: absolute (`/x`,
 * `C:\x`, `\\server`), or climbing out with `..` once normalised
 * (`../x`, `a/../../x`). `\` counts as a separator.
 *
 * @example
 * leavesWorkspace("src/../../README.md"); // true
 * leavesWorkspace("src/./a.ts"); // false
 */
export function leavesWorkspace(path: string): boolean {
  if (/^(?:[\\/]|[A-Za-z]:)/.test(path)) return true;
  let depth = 0;
  for (const segment of path.split(/[\\/]/)) {
    if (segment === "..") depth -= 1;
    else if (segment !== "" && segment !== ".") depth += 1;
    if (depth < 0) return true;
  }
  return false;
}

const EXPLANATIONS: Readonly<Record<ApplyRefusalReason, string>> = {
  git_entry: "a .git entry: git's own files are never applied",
  outside_workspace: "outside the workspace",
  link_outside_workspace: "a symbolic link that leaves the workspace",
  submodule: "a submodule: submodule changes are never applied",
  special_file: "not a regular file or symbolic link",
  invalid_path: "a path name the apply cannot take as it is",
};

/**
 * The report's text for refused paths: what was refused and why, that
 * nothing was applied, and where the worktree is kept.
 *
 * @example
 * describeRefusals([{ path: "evil", reason: "link_outside_workspace", detail: "-> /etc" }], "/wt");
 */
export function describeRefusals(refusals: readonly ApplyRefusal[], worktreePath: string): string {
  const listed = refusals.map((refusal) => `${refusal.path} (${EXPLANATIONS[refusal.reason]}${refusal.detail === "" ? "" : `: ${refusal.detail}`})`);
  return `Refused ${refusals.length === 1 ? "a changed path" : `${refusals.length} changed paths`}, so nothing was applied: ${listed.join("; ")}. The worktree is kept at ${worktreePath} for inspection.`;
}
