/**
 * Applies the hunks of one `*** Update File:` operation to a file's bytes:
 * pure, no I/O. Every hunk is located first (in order, each searched from
 * after the previous one, see hunk-locate.ts); if any fails, a
 * `PatchHunkError` is thrown and nothing is returned.
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
 * hunk matched under an indentation shift (or tabs for spaces), and, when
 * the hunk matched by a looser pass than exact, their leading tabs or spaces
 * turned to the file's when the file indents only with the other (see
 * indent-style.ts); an exact match writes them as sent. A hunk of
 * additions only is inserted after its last `@@` anchor's line; without an
 * anchor (or with `*** End of File`) it is appended at the end of the file,
 * as Codex does.
 */
import type { PatchHunk } from "@agent-tools/core/patch";
import { dominantEolOf, toByteString } from "../edit/edit-match.js";
import { trimBoth } from "../edit/line-match.js";
import { countLineEndings } from "../shared/line-ending-count.js";
import type { ApplyPatchHunksOptions, PatchedFile, PatchedHunk } from "./patch-match-types.js";
import { type FileLines, createLineViews, rawLine, splitFileLines } from "./file-lines.js";
import { type HunkBytes, type HunkPlace, locateHunk } from "./hunk-locate.js";
import { ambiguousHunkError, unplacedHunkError } from "./hunk-refusal.js";
import { type IndentStyle, inFileStyle, indentStyleOf, patchSpaceUnit } from "./indent-style.js";
import { reindentLine } from "./indent-transform.js";

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

/** A hunk without the blank context lines at its edges, and how many it dropped at each. */
interface EdgeTrimmedHunk {
  hunk: HunkBytes;
  droppedBefore: number;
  droppedAfter: number;
}

/**
 * `hunk` without the blank context lines that start or end it; null when it
 * has none, or when no non-blank old line would remain.
 */
function withoutEdgeBlankContext(hunk: HunkBytes): EdgeTrimmedHunk | null {
  const blankContext = (line: HunkBytes["lines"][number]) => line.kind === "context" && trimBoth(line.text) === "";
  let first = 0;
  let last = hunk.lines.length;
  while (first < last && blankContext(hunk.lines[first]!)) first += 1;
  while (last > first && blankContext(hunk.lines[last - 1]!)) last -= 1;
  if (first === 0 && last === hunk.lines.length) return null;
  const lines = hunk.lines.slice(first, last);
  const oldLines = lines.filter((line) => line.kind !== "add");
  if (!oldLines.some((line) => trimBoth(line.text) !== "")) return null;
  return {
    hunk: { ...hunk, lines, old: oldLines.map((line) => line.text), oldIsContext: oldLines.map((line) => line.kind === "context") },
    droppedBefore: first,
    droppedAfter: hunk.lines.length - last,
  };
}

/**
 * True when the place found without the edge blank lines is one the whole
 * hunk describes: at each edge where blank lines were dropped, either the
 * line kept next to them is context (it still pins the changes to the file),
 * or the place touches that end of the file (the blank line stood for the
 * file's edge, as a final newline written as a line). Otherwise an added
 * line left at the edge would be placed by a guess: the hunk said it follows
 * (or precedes) a blank line the file does not have there.
 */
function edgeDropKeepsPlace(trimmed: EdgeTrimmedHunk, start: number, fileLines: number): boolean {
  const { hunk, droppedBefore, droppedAfter } = trimmed;
  const firstKept = hunk.lines[0];
  const lastKept = hunk.lines[hunk.lines.length - 1];
  const end = start + hunk.old.length;
  if (droppedBefore > 0 && firstKept?.kind !== "context" && start !== 0) return false;
  if (droppedAfter > 0 && lastKept?.kind !== "context" && end < fileLines) return false;
  return true;
}

/** A located hunk's replacement of the file's lines `start`..`start + old.length`. */
function render(lines: FileLines, hunk: HunkBytes, place: HunkPlace, output: { eol: string; styleOf: () => IndentStyle }): string {
  const { eol, styleOf } = output;
  let out = "";
  let line = place.start;
  const patchUnit = patchSpaceUnit(hunk.lines.map((patchLine) => patchLine.text));
  let oldIndex = 0;
  for (const patchLine of hunk.lines) {
    if (patchLine.kind !== "add" && oldIndex++ === place.gap) {
      // The file's line the hunk's context left out, kept.
      const raw = rawLine(lines, line);
      out += raw.endsWith("\n") ? raw : raw + eol;
      line += 1;
    }
    if (patchLine.kind === "add") {
      const reindented = reindentLine(patchLine.text, place.transform) ?? patchLine.text;
      // On an exact match the model's indentation is taken as meant; a looser match is evidence the hunk's whitespace drifted.
      const restyle = place.strategy !== "exact" && (reindented.charCodeAt(0) === 9 || reindented.startsWith("  "));
      out += (restyle ? inFileStyle(reindented, styleOf(), patchUnit) : reindented) + eol;
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

/**
 * Applies `hunks` (in order) to `content`, or throws `PatchHunkError`
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
  let style: IndentStyle | undefined;
  const styleOf = () => (style ??= indentStyleOf(lines));
  const regions: Array<{ start: number; end: number; text: string }> = [];
  const applied: PatchedHunk[] = [];
  let from = 0;
  hunks.forEach((patchHunk, index) => {
    const number = index + 1;
    let hunk = hunkBytesOf(patchHunk);
    let location = locateHunk(views, hunk, from);
    if (location.kind === "none") {
      // As Codex: blank context lines at the edges of a hunk (often the file's final newline written as a line) are dropped on a second try.
      const trimmed = withoutEdgeBlankContext(hunk);
      const retry = trimmed && locateHunk(views, trimmed.hunk, from);
      if (trimmed && retry && retry.kind !== "none" && (retry.kind !== "found" || edgeDropKeepsPlace(trimmed, retry.place.start, views.count))) {
        hunk = trimmed.hunk;
        location = retry;
      }
    }
    if (location.kind === "none")
      throw unplacedHunkError(views, hunk, { number, patchHunk, path: options.displayPath }, { from, anchorLine: location.anchorLine });
    if (location.kind === "ambiguous") throw ambiguousHunkError(views, hunk, { number, patchHunk, path: options.displayPath }, location);
    const { place } = location;
    const count = views.count;
    const endLine = place.start + hunk.old.length + (place.gap === undefined ? 0 : 1);
    regions.push({
      start: place.start < count ? lines.starts[place.start]! : lines.text.length,
      end: endLine < count ? lines.starts[endLine]! : lines.text.length,
      text: render(lines, hunk, place, { eol: eolOf(), styleOf }),
    });
    applied.push({ hunk: number, matchStrategy: place.strategy, startLine: place.start + 1 });
    from = endLine;
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
