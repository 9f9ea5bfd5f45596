/**
 * Reading `git diff --binary` output (no renames): one section per file,
 * the file's repository-relative path, and a patch limited to some paths.
 */
import { readPatchPath } from "@agent-tools/core/internal";
import { isOperatingSystemLitter } from "../domain/apply-decision.js";

/** One file's part of a patch. */
export interface PatchSection {
  /** Repository-relative path, `/` separators. */
  readonly path: string;
  /** The section's text, from its `diff --git` line through the end of its last hunk. */
  readonly text: string;
}

const HEADER = "diff --git ";

/** The path of a `diff --git a/<path> b/<path>` line (both sides equal without rename detection). */
export function pathOfDiffHeader(line: string): string {
  const rest = line.slice(HEADER.length);
  if (rest.startsWith('"')) return readPatchPath(rest).path.replace(/^a\//, "");
  // `a/P b/P`: P is half of what is left once the prefixes and the space are gone.
  const length = (rest.length - 5) / 2;
  return rest.slice(2, 2 + length);
}

/** Splits a patch into its file sections, in patch order. */
export function splitPatch(patch: string): PatchSection[] {
  if (patch === "") return [];
  const sections: PatchSection[] = [];
  const starts: number[] = [];
  if (patch.startsWith(HEADER)) starts.push(0);
  for (let at = patch.indexOf(`\n${HEADER}`); at !== -1; at = patch.indexOf(`\n${HEADER}`, at + 1)) starts.push(at + 1);
  for (let index = 0; index < starts.length; index += 1) {
    const text = patch.slice(starts[index], starts[index + 1] ?? patch.length);
    const newline = text.indexOf("\n");
    sections.push({ path: pathOfDiffHeader(newline === -1 ? text : text.slice(0, newline)), text });
  }
  return sections;
}

/** Whether `path` is one of `paths` or inside one of them taken as a directory. */
export function pathSelected(path: string, paths: readonly string[]): boolean {
  return paths.some((entry) => {
    const normalised = entry.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, "");
    return normalised === "." || (normalised !== "" && (path === normalised || path.startsWith(`${normalised}/`)));
  });
}

/** Byte-order comparison of paths. */
export function comparePaths(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** What a worktree snapshot gives the changes view and the apply: its patch and the paths it left out. */
export interface SnapshotPatch {
  readonly patch: string;
  readonly excluded: readonly { readonly path: string }[];
}

/**
 * The changes of a snapshot as `SubagentWorktrees.changes` reports them:
 * every changed path (the paths the snapshot left out, special files and
 * populated submodules, count too: the apply refuses and reports them),
 * sorted, and the patch cut to `maxDiffChars`.
 */
export function describeSnapshotChanges(
  snapshot: SnapshotPatch,
  maxDiffChars: number,
): { changedPaths: string[]; diff: string; diffTruncated: boolean; diffChars: number } {
  const diff = snapshot.patch;
  const changed = [...splitPatch(diff).map((section) => section.path), ...snapshot.excluded.map((entry) => entry.path)];
  const changedPaths = [...new Set(changed)].sort(comparePaths);
  const limit = Math.max(0, Math.floor(maxDiffChars));
  return { changedPaths, diff: diff.length > limit ? diff.slice(0, limit) : diff, diffTruncated: diff.length > limit, diffChars: diff.length };
}

/**
 * The sections of a snapshot's patch an apply writes: those under `paths`
 * when given, never operating-system litter (`.DS_Store` and the like),
 * whatever paths were asked for.
 */
export function sectionsToApply(snapshot: SnapshotPatch, paths: readonly string[] | undefined): PatchSection[] {
  let sections = splitPatch(snapshot.patch);
  if (paths !== undefined) sections = sections.filter((section) => pathSelected(section.path, paths));
  return sections.filter((section) => !isOperatingSystemLitter(section.path));
}
