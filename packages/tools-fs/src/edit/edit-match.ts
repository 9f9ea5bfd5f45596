/**
 * Edit's tolerant matcher: four passes, strictest first (exact ->
 * line-endings -> trailing-whitespace -> indentation). The first pass with at
 * least one match wins and returns all of its matches, ascending and
 * non-overlapping.
 *
 * Everything works on bytes: the file is held as a Buffer (pass 1 uses
 * `Buffer.indexOf`) or as a latin1 "byte string" (one character per byte,
 * passes 2-4), so the file is never UTF-8 decoded and re-encoded, invalid
 * byte sequences survive an edit untouched, and offsets are byte offsets.
 * Candidates are found with `indexOf`, never by splitting the file into
 * lines, so a match costs about as much as one scan of the file.
 */
import { type SearchContext, createIndexFinder, createSearchContext, preferProbe } from "../shared/fast-index-of.js";
import { type LineEndingCounts, countLineEndings } from "../shared/line-ending-count.js";
import { dominantEol, renderEol, renderEolLazy } from "./line-endings.js";
import { anchorLine, findLineMatches } from "./line-match-bytes.js";
import type { EditBytes, EditMatch, EditMatchResult, MatchStrategy } from "./match-types.js";

export { dominantEol, renderEol };

export type { EditMatch, EditMatchResult, MatchStrategy };

const BOM = "\xEF\xBB\xBF";

/** A UTF-8 string as a latin1 byte string (one character per byte). */
export function toByteString(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

/** Options of {@link findEditMatches}. */
export interface FindEditMatchesOptions {
  /**
   * The LF and CRLF counts of `content`, asked for only when a fuzzy pass
   * needs the dominant line ending (so a caller that needs them anyway counts
   * the file once); default: counted here.
   */
  lineEndingCounts?: () => LineEndingCounts;
  /**
   * What an {@link EditPrescan} learnt of `content` while it was read: the
   * probe's hits and whether it holds a CR. Only speed changes with it.
   */
  prescanned?: PrescannedContent;
}

/** What a scan during the read learnt of the content (see edit-prescan.ts). */
export interface PrescannedContent {
  /** A search context of `content` seeded with the hits of old_string's probe. */
  readonly search: SearchContext;
  /** Whether the content holds a CR byte. */
  readonly hasCr: boolean;
}

/**
 * Finds the matches of `oldString` in `content` and their replacements from
 * `newString`; null when no pass matches (or `oldString` is empty).
 *
 * @example
 * const result = findEditMatches(Buffer.from("a\r\nb\r\n"), "a\nb\n", "x\ny\n");
 * result?.strategy; // "line-endings"
 */
export function findEditMatches(content: Buffer, oldString: string, newString: string, options: FindEditMatchesOptions = {}): EditMatchResult | null {
  if (oldString === "") return null;
  const needle = Buffer.from(oldString, "utf8");
  const newBytes = toByteString(newString);
  const oldBytes = needle.toString("latin1");
  const exact: EditMatch[] = [];
  // Every pass's needle holds old_string's anchor line: its probe is collected in one scan that serves all passes
  // (done while the file was read, when it was prescanned).
  const prescanned = options.prescanned?.search.haystack === content ? options.prescanned : undefined;
  const search = prescanned?.search ?? createSearchContext(content);
  preferProbe(search, editProbeText(oldBytes));
  let eol: "\r\n" | "\n" | undefined;
  // Without any CR the file has no CRLF, so LF dominates: no need to count.
  let hasCr: boolean | undefined = prescanned?.hasCr;
  const hasCrOf = () => (hasCr ??= content.indexOf(13) !== -1);
  const eolOf = () => (eol ??= !hasCrOf() ? "\n" : dominantEolOf(options.lineEndingCounts ? options.lineEndingCounts() : countLineEndings(content)));

  const finder = createIndexFinder(content, needle, search);
  let exactReplacement: string | undefined;
  for (let index = finder.find(0); index !== -1; index = finder.find(index + needle.length)) {
    exactReplacement ??= exactMatchReplacement(oldBytes, newBytes, eolOf);
    exact.push({ start: index, end: index + needle.length, replacement: exactReplacement });
  }
  if (exact.length) return { strategy: "exact", matches: exact };

  const lineEndings = matchLineEndings(content, { oldBytes, newBytes, eolOf }, search, hasCrOf);
  if (lineEndings.length) return { strategy: "line-endings", matches: lineEndings };
  const trailing = findLineMatches(content, { oldBytes, newBytes, pass: "trailing-whitespace", eolOf }, search);
  if (trailing.length) return { strategy: "trailing-whitespace", matches: trailing };
  const indented = findLineMatches(content, { oldBytes, newBytes, pass: "indentation", eolOf }, search);
  if (indented.length) return { strategy: "indentation", matches: indented };
  return null;
}

/**
 * The replacement of an exact match: `new_string` as sent, except that when
 * `old_string` holds no line break (so says nothing of the file's line
 * endings) and `new_string` breaks lines with bare LFs, they are written in
 * the file's dominant line ending: a model cannot type CRLF, and a CRLF file
 * must not get LF lines in the middle.
 */
function exactMatchReplacement(oldBytes: string, newBytes: string, eolOf: () => "\r\n" | "\n"): string {
  if (oldBytes.includes("\n") || !/(^|[^\r])\n/.test(newBytes)) return newBytes;
  return renderEol(newBytes, eolOf());
}

/**
 * The text every pass's needle contains (old_string's anchor line, latin1
 * bytes): the probe of the one scan that serves all passes is cut from it.
 */
export function editProbeText(oldBytes: string): Buffer {
  return Buffer.from(anchorLine(oldBytes).text, "latin1");
}

/** Dominant EOL from line-ending counts: CRLF when CRLF pairs are at least as common as lone LFs (and present). */
export function dominantEolOf({ lf, crlf }: LineEndingCounts): "\r\n" | "\n" {
  return crlf > 0 && crlf >= lf - crlf ? "\r\n" : "\n";
}

/**
 * Pass 2 without normalising the file: the pattern (BOM dropped, CRLF -> LF)
 * is split on LF; its first non-empty segment is found with `Buffer.indexOf`
 * and each candidate is verified segment by segment, a pattern LF matching
 * LF or CRLF in the file. A match that starts at the LF of a CRLF pair takes
 * the CR too.
 */
function matchLineEndings(content: Buffer, edit: EditBytes, search?: SearchContext, hasCrOf: () => boolean = () => content.indexOf(13) !== -1): EditMatch[] {
  const { oldBytes, newBytes, eolOf } = edit;
  const bomLength = content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
  let pattern = oldBytes.startsWith(BOM) ? oldBytes.slice(BOM.length) : oldBytes;
  pattern = pattern.replace(/\r\n/g, "\n");
  if (pattern === "") return [];
  // (A file without any CR, the common case, is scanned once for both questions.)
  const hasCrlf = hasCrOf() && content.indexOf("\r\n", 0, "latin1") !== -1;
  if (!hasCrlf && bomLength === 0 && pattern === oldBytes) return [];
  const segments = pattern.split("\n").map((segment) => Buffer.from(segment, "latin1"));
  const anchor = segments.findIndex((segment) => segment.length > 0);
  if (anchor === -1) return matchLineEndingsInText(content.toString("latin1"), oldBytes, newBytes, eolOf);
  const length = content.length;
  const breakAt = (position: number) => (content[position] === 10 ? 1 : content[position] === 13 && content[position + 1] === 10 ? 2 : 0);
  const segmentAt = (segment: Buffer, position: number) =>
    position + segment.length <= length && content.compare(segment, 0, segment.length, position, position + segment.length) === 0;
  const matches: EditMatch[] = [];
  let replacement: string | undefined;
  let nextFree = bomLength;
  let from = bomLength;
  const finder = createIndexFinder(content, segments[anchor]!, search);
  for (;;) {
    const hit = finder.find(from);
    if (hit === -1) break;
    from = hit + 1;
    // Walk back over the line breaks of the leading empty segments.
    let start = hit;
    let valid = true;
    for (let step = 0; step < anchor; step += 1) {
      if (start > nextFree && content[start - 1] === 10) {
        start -= start - 1 > nextFree && content[start - 2] === 13 ? 2 : 1;
      } else {
        valid = false;
        break;
      }
    }
    if (!valid || start < nextFree) continue;
    let cursor = hit + segments[anchor]!.length;
    for (let index = anchor + 1; index < segments.length && valid; index += 1) {
      const width = breakAt(cursor);
      if (width === 0) valid = false;
      else {
        cursor += width;
        if (!segmentAt(segments[index]!, cursor)) valid = false;
        else cursor += segments[index]!.length;
      }
    }
    if (!valid) continue;
    replacement ??= renderEolLazy(newBytes, eolOf);
    matches.push({ start, end: cursor, replacement });
    nextFree = cursor;
    from = Math.max(from, cursor);
  }
  return matches;
}

/** Pass 2 over a normalised string: the slow path for patterns made only of line breaks. */
export function matchLineEndingsInText(text: string, oldBytes: string, newBytes: string, eolOf: () => "\r\n" | "\n"): EditMatch[] {
  const bomLength = text.startsWith(BOM) ? BOM.length : 0;
  // Normalised indices of the LFs that were CRLF pairs.
  const crlfAt: number[] = [];
  const parts: string[] = [];
  let from = bomLength;
  let removed = 0;
  for (let index = text.indexOf("\r\n", bomLength); index !== -1; index = text.indexOf("\r\n", index + 2)) {
    parts.push(text.slice(from, index));
    from = index + 1; // keep the LF
    crlfAt.push(index + 1 - bomLength - (removed + 1));
    removed += 1;
  }
  const normalised = removed === 0 ? (bomLength ? text.slice(bomLength) : text) : parts.join("") + text.slice(from);
  let pattern = oldBytes.startsWith(BOM) ? oldBytes.slice(BOM.length) : oldBytes;
  pattern = pattern.replace(/\r\n/g, "\n");
  if (pattern === "" || (removed === 0 && bomLength === 0 && pattern === oldBytes)) return [];
  // original offset of normalised index i: bom + i + (number of removed CRs at normalised indices <= i)
  const crsUpTo = (position: number): number => {
    let low = 0;
    let high = crlfAt.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (crlfAt[middle]! <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const original = (position: number) => bomLength + position + crsUpTo(position);
  const matches: EditMatch[] = [];
  let replacement: string | undefined;
  for (let index = normalised.indexOf(pattern); index !== -1; index = normalised.indexOf(pattern, index + pattern.length)) {
    let start = original(index);
    if (removed && normalised.charCodeAt(index) === 10 && text.charCodeAt(start - 1) === 13 && crlfAt[crsUpTo(index) - 1] === index) start -= 1;
    const end = original(index + pattern.length - 1) + 1;
    replacement ??= renderEol(newBytes, eolOf());
    matches.push({ start, end, replacement });
  }
  return matches;
}

/**
 * The new content as pieces (views of `content` and the replacements), so a
 * large file is written with `writev` instead of being copied whole.
 */
export function editPieces(content: Buffer, matches: readonly EditMatch[], replaceAll: boolean): Buffer[] {
  const chosen = replaceAll ? matches : matches.slice(0, 1);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const match of chosen) {
    pieces.push(content.subarray(from, match.start), Buffer.from(match.replacement, "latin1"));
    from = match.end;
  }
  pieces.push(content.subarray(from));
  return pieces.filter((piece) => piece.length > 0);
}

/** Applies matches (ascending, non-overlapping) to `content`; only the first unless `replaceAll`. */
export function applyEditMatches(content: Buffer, matches: readonly EditMatch[], replaceAll: boolean): Buffer {
  return Buffer.concat(editPieces(content, matches, replaceAll));
}

/**
 * Convenience over text: runs the matcher on `text` and applies the result.
 * Returns null when nothing matches.
 */
export function replaceInText(
  text: string,
  oldString: string,
  newString: string,
  replaceAll = false,
): { text: string; strategy: MatchStrategy; matches: number } | null {
  const content = Buffer.from(text, "utf8");
  const result = findEditMatches(content, oldString, newString);
  if (!result) return null;
  return { text: applyEditMatches(content, result.matches, replaceAll).toString("utf8"), strategy: result.strategy, matches: result.matches.length };
}
