/**
 * Applies the hunks of one `*** Update File:` operation to a file's bytes:
 * pure, no I/O. Every hunk is located first (in order, each searched from
 * after the previous one, see hunk-locate.ts); if any fails, a
 * {@link PatchHunkError} is thrown and nothing is returned.
 *
 * What is kept of the file:
 * - its bytes everywhere outside the hunks, and for every context line (the
 *   patch's spelling of a context line is never written); the file is
 *   handled as a latin1 byte string, so invalid UTF-8 survives;
 * - its BOM, and its line endings: a context line keeps its own, an added
 *   line takes the file's dominant one (CRLF in a CRLF file);
 * - its final-newline state: a file without a final newline still has none
 *   after the patch, even when a hunk appends at the end (the appended lines
 *   are separated by the file's line ending, the last one is not
 *   terminated); an empty file gets terminated lines.
 *
 * Added lines are written as the model sent them, re-indented only when the
 * hunk matched under an indentation shift (or tabs for spaces). A hunk of
 * additions only is inserted after its last `@@` anchor's line; without an
 * anchor (or with `*** End of File`) it is appended at the end of the file,
 * as Codex does.
 */
import type { PatchHunk } from "@agent-tools/core/patch";
import { dominantEolOf, toByteString } from "../edit/edit-match.js";
import { countLineEndings } from "../shared/line-ending-count.js";
import type { ApplyPatchHunksOptions, PatchedFile, PatchedHunk } from "./patch-match-types.js";
import { type FileLines, type LineViews, createLineViews, rawLine, splitFileLines } from "./file-lines.js";
import { type HunkBytes, type HunkPlace, locateBody, locateHunk } from "./hunk-locate.js";
import { reindentLine } from "./indent-transform.js";
import { PatchHunkError, candidateAt, closestPlaces, describeCandidates } from "./patch-hunk-error.js";

/** The hunk's lines as latin1 byte strings of their UTF-8. */
function hunkBytesOf(hunk: PatchHunk): HunkBytes {
  const lines = hunk.lines.map((line) => ({ kind: line.kind, text: toByteString(line.text) }));
  const oldLines = lines.filter((line) => line.kind !== "add");
  return {
    lines,
    old: oldLines.map((line) => line.text),
    oldIsContext: oldLines.map((line) => line.kind === "context"),
    anchors: hunk.anchors.map(toByteString),
    endOfFile: hunk.endOfFile,
  };
}

/** A located hunk's replacement of the file's lines `start`..`start + old.length`. */
function render(lines: FileLines, hunk: HunkBytes, place: HunkPlace, eol: string): string {
  let out = "";
  let line = place.start;
  for (const patchLine of hunk.lines) {
    if (patchLine.kind === "add") {
      out += (reindentLine(patchLine.text, place.transform) ?? patchLine.text) + eol;
      continue;
    }
    if (patchLine.kind === "context") {
      const raw = rawLine(lines, line);
      // The file's last line without a line feed gets one here; the end is trimmed again below when the file had none.
      out += raw.endsWith("\n") ? raw : raw + eol;
    }
    line += 1;
  }
  // Lines appended after a last line without a line feed.
  const count = lines.starts.length;
  if (place.start === count && hunk.old.length === 0 && count > 0 && !lines.finalNewline && out !== "") out = eol + out;
  return out;
}

const strategyLabel = (anchors: boolean) =>
  `also tried ignoring line endings, trailing whitespace, indentation and Unicode punctuation, and skipping one stale context line${anchors ? ", and without its @@ anchor" : ""}`;

/** The refusal of a hunk that was not located. */
function failure(
  views: LineViews,
  hunk: HunkBytes,
  number: number,
  patchHunk: PatchHunk,
  options: ApplyPatchHunksOptions,
  from: number,
  previousEnd: number | undefined,
): PatchHunkError {
  const path = options.displayPath;
  const where = `hunk ${number} of ${path} (patch line ${patchHunk.patchLine})`;
  const base = { path, hunk: number, patchLine: patchHunk.patchLine };
  if (hunk.old.length === 0) {
    return new PatchHunkError(
      "edit_no_match",
      `ApplyPatch failed: ${where} only adds lines, after the @@ anchor ${JSON.stringify(patchHunk.anchors.at(-1) ?? "")}, which is not a line of the file${from > 0 ? ` after line ${from}` : ""}. Read ${path} and send the hunk with an @@ anchor copied from an existing line, or with context lines around the insertion.`,
      base,
    );
  }
  // Found before the previous hunk's end: out of order or overlapping.
  const earlier = from > 0 ? locateBody(views, hunk, 0) : null;
  if (earlier?.kind === "found" && earlier.place.start < from) {
    const at = earlier.place.start + 1;
    return new PatchHunkError(
      "edit_no_match",
      `ApplyPatch failed: ${where} matches line ${at}, before the end of hunk ${number - 1} (line ${previousEnd ?? from}). Hunks of a file must follow the file's order and must not overlap: send them in the order of their lines, and merge overlapping hunks into one.`,
      { ...base, candidates: [candidateAt(views, earlier.place.start, hunk.old.length)] },
    );
  }
  const candidates = closestPlaces(views, hunk.old);
  const nearest = candidates[0]?.line;
  const anchorNote = patchHunk.anchors.length
    ? ` (its @@ anchor ${JSON.stringify(patchHunk.anchors.at(-1))} was ${hunk.anchors.length && views.count ? "searched too" : "not found"})`
    : "";
  const closest = candidates.length ? ` Closest places:\n${describeCandidates(candidates)}\n` : " No line of the hunk is in the file. ";
  const next = nearest
    ? `Read ${path} around line ${nearest} and send the hunk again with its context and - lines copied verbatim from the current content.`
    : `Read ${path} and send the hunk again with its context and - lines copied verbatim from the current content.`;
  return new PatchHunkError(
    "edit_no_match",
    `ApplyPatch failed: ${where} does not match the file${anchorNote}; ${strategyLabel(patchHunk.anchors.length > 0)}.${closest}${next}`,
    { ...base, candidates },
  );
}

/**
 * Applies `hunks` (in order) to `content`, or throws {@link PatchHunkError}
 * for the first hunk that has no place or several.
 *
 * @example
 * const patched = applyPatchHunks(Buffer.from("a\nb\nc\n"), [
 *   { anchors: [], lines: [{ kind: "context", text: "a" }, { kind: "remove", text: "b" }, { kind: "add", text: "B" }], endOfFile: false, patchLine: 3 },
 * ], { displayPath: "x.txt" });
 * Buffer.concat(patched.pieces).toString(); // "a\nB\nc\n"
 */
export function applyPatchHunks(content: Buffer, hunks: readonly PatchHunk[], options: ApplyPatchHunksOptions): PatchedFile {
  const lines = splitFileLines(content.toString("latin1"));
  const views = createLineViews(lines);
  let eol: string | undefined;
  const eolOf = () =>
    (eol ??= content.indexOf(13) === -1 ? "\n" : dominantEolOf(options.lineEndingCounts ? options.lineEndingCounts() : countLineEndings(content)));
  const regions: Array<{ start: number; end: number; text: string }> = [];
  const applied: PatchedHunk[] = [];
  let from = 0;
  let previousEnd: number | undefined;
  hunks.forEach((patchHunk, index) => {
    const number = index + 1;
    const hunk = hunkBytesOf(patchHunk);
    const location = locateHunk(views, hunk, from);
    if (location.kind === "none") throw failure(views, hunk, number, patchHunk, options, from, previousEnd);
    if (location.kind === "ambiguous") {
      const candidates = location.starts.slice(0, 5).map((start) => candidateAt(views, start, hunk.old.length));
      throw new PatchHunkError(
        "edit_ambiguous",
        `ApplyPatch failed: hunk ${number} of ${options.displayPath} (patch line ${patchHunk.patchLine}) matches ${location.starts.length} places (${location.strategy}), at lines ${location.starts
          .slice(0, 5)
          .map((start) => start + 1)
          .join(
            ", ",
          )}:\n${describeCandidates(candidates)}\nAdd context lines that differ between them, or an @@ line naming the enclosing function or class, so the hunk matches one place.`,
        { path: options.displayPath, hunk: number, patchLine: patchHunk.patchLine, matchStrategy: location.strategy, candidates },
      );
    }
    const { place } = location;
    const count = views.count;
    const endLine = place.start + hunk.old.length;
    regions.push({
      start: place.start < count ? lines.starts[place.start]! : lines.text.length,
      end: endLine < count ? lines.starts[endLine]! : lines.text.length,
      text: render(lines, hunk, place, eolOf()),
    });
    applied.push({ hunk: number, matchStrategy: place.strategy, startLine: place.start + 1 });
    from = endLine;
    previousEnd = endLine;
  });
  return { pieces: piecesOf(content, lines, regions), hunks: applied };
}

/** The new content as pieces; a file that had no final newline gets none. */
function piecesOf(content: Buffer, lines: FileLines, regions: ReadonlyArray<{ start: number; end: number; text: string }>): Buffer[] {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const region of regions) {
    pieces.push(content.subarray(from, region.start), Buffer.from(region.text, "latin1"));
    from = region.end;
  }
  pieces.push(content.subarray(from));
  const kept = pieces.filter((piece) => piece.length > 0);
  if (!lines.finalNewline) trimFinalNewline(kept);
  return kept;
}

/** Drops a final LF or CRLF from the pieces. */
function trimFinalNewline(pieces: Buffer[]): void {
  if (lastByte(pieces) !== 10) return;
  dropLastByte(pieces);
  if (lastByte(pieces) === 13) dropLastByte(pieces);
}

function lastByte(pieces: readonly Buffer[]): number | undefined {
  const last = pieces.at(-1);
  return last?.[last.length - 1];
}

function dropLastByte(pieces: Buffer[]): void {
  const last = pieces.pop();
  if (last && last.length > 1) pieces.push(last.subarray(0, last.length - 1));
}
