/**
 * The refusals of a hunk, written for the model: which hunk of which file,
 * the places of the file it matched or nearly matched, and what to send next.
 */
import type { PatchHunk } from "@agent-tools/core/patch";
import type { LineViews } from "./file-lines.js";
import { type HunkBytes, type HunkLocation, locateBody } from "./hunk-locate.js";
import { PatchHunkError, candidateAt, closestPlaces, describeCandidates } from "./patch-hunk-error.js";

/** The hunk a refusal is about. */
export interface RefusedHunk {
  /** 1-based number of the hunk in its operation. */
  number: number;
  patchHunk: PatchHunk;
  /** The file's path as the model wrote it. */
  path: string;
}

const where = ({ number, patchHunk, path }: RefusedHunk) => `hunk ${number} of ${path} (patch line ${patchHunk.patchLine})`;

/** `edit_ambiguous`: the places the hunk matched under its winning pass. */
export function ambiguousHunkError(
  views: LineViews,
  hunk: HunkBytes,
  refused: RefusedHunk,
  location: Extract<HunkLocation, { kind: "ambiguous" }>,
): PatchHunkError {
  const shown = location.starts.slice(0, 5);
  const candidates = shown.map((start) => candidateAt(views, start, hunk.old.length));
  return new PatchHunkError(
    "edit_ambiguous",
    `ApplyPatch failed: ${where(refused)} matches ${location.starts.length} places (${location.strategy}), at lines ${shown.map((start) => start + 1).join(", ")}:\n${describeCandidates(candidates)}\nNothing was written. Add context lines that differ between them, or an @@ line naming the enclosing function or class, so the hunk matches one place.`,
    { path: refused.path, hunk: refused.number, patchLine: refused.patchHunk.patchLine, matchStrategy: location.strategy, candidates },
  );
}

/**
 * `edit_no_match`: an insertion whose anchor is missing, a hunk that matches
 * only before the end of the previous one (out of order or overlapping), or
 * one that matches nowhere (with the closest places).
 */
export function unplacedHunkError(
  views: LineViews,
  hunk: HunkBytes,
  refused: RefusedHunk,
  search: { from: number; anchorLine?: number | undefined },
): PatchHunkError {
  const { path, number, patchHunk } = refused;
  const base = { path, hunk: number, patchLine: patchHunk.patchLine };
  const anchor = JSON.stringify(patchHunk.anchors.at(-1) ?? "");
  const after = search.from > 0 ? ` after line ${search.from}` : "";
  if (hunk.old.length === 0) {
    return new PatchHunkError(
      "edit_no_match",
      `ApplyPatch failed: ${where(refused)} only adds lines, after the @@ line ${anchor}, which is not a line of the file${after}. Nothing was written. Read ${path} and send the hunk with an @@ line copied from an existing line, or with context lines around the insertion.`,
      base,
    );
  }
  const earlier = search.from > 0 ? locateBody(views, hunk, 0) : null;
  if (earlier?.kind === "found" && earlier.place.start < search.from) {
    return new PatchHunkError(
      "edit_no_match",
      `ApplyPatch failed: ${where(refused)} matches line ${earlier.place.start + 1}, before the end of hunk ${number - 1} (line ${search.from}). Nothing was written. Hunks of a file must follow the file's order and must not overlap: send them in the order of their lines, and merge overlapping hunks into one.`,
      { ...base, candidates: [candidateAt(views, earlier.place.start, hunk.old.length)] },
    );
  }
  const anchorNote = !patchHunk.anchors.length
    ? ""
    : search.anchorLine === undefined
      ? ` (and its @@ line ${anchor} is not a line of the file${after})`
      : ` (not after its @@ line ${anchor} at line ${search.anchorLine + 1}, nor anywhere else)`;
  const candidates = closestPlaces(views, hunk.old);
  const nearest = candidates[0]?.line;
  const tried = `also tried ignoring line endings, trailing whitespace, indentation and Unicode punctuation, and skipping one stale context line${patchHunk.anchors.length ? ", and without its @@ line" : ""}`;
  const closest = candidates.length ? ` Closest places:\n${describeCandidates(candidates)}\n` : " No line of the hunk is in the file. ";
  return new PatchHunkError(
    "edit_no_match",
    `ApplyPatch failed: ${where(refused)} does not match the file${anchorNote}; ${tried}. Nothing was written.${closest}Read ${path}${nearest ? ` around line ${nearest}` : ""} and send the hunk again with its context and - lines copied verbatim from the current content.`,
    { ...base, candidates },
  );
}
