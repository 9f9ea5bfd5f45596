/**
 * The refusal of one hunk: which hunk of which file, the closest places of
 * the file, and what the model should send next.
 */
import { ToolError } from "@agent-tools/core";
import type { PatchMatchStrategy } from "./patch-match-types.js";
import { type LineViews, lineContent, normaliserOf } from "./file-lines.js";

/** A place of the file shown to the model: its 1-based first line and a few of its lines. */
export interface PatchCandidate {
  line: number;
  text: string[];
}

/** The `details` of a {@link PatchHunkError}. */
export interface PatchHunkErrorDetails {
  [key: string]: unknown;
  /** The file's path as the model wrote it. */
  path: string;
  /** 1-based number of the hunk within its file's operation. */
  hunk: number;
  /** 1-based line of the patch text where the hunk starts. */
  patchLine: number;
  /** The pass under which an ambiguous hunk matched several places. */
  matchStrategy?: PatchMatchStrategy;
  /** The places it matched (ambiguous) or the closest ones (no match). */
  candidates?: PatchCandidate[];
}

/**
 * A hunk that does not apply: `edit_no_match` (no place, or out of order) or
 * `edit_ambiguous` (several equally good places). The message names the hunk,
 * the file, the patch line, the candidate places and what to send next.
 *
 * @example
 * try {
 *   applyPatchHunks(content, hunks, { displayPath: "src/a.ts" });
 * } catch (error) {
 *   if (error instanceof PatchHunkError) console.log(error.details.hunk, error.details.candidates);
 * }
 */
export class PatchHunkError extends ToolError {
  declare readonly details: PatchHunkErrorDetails;

  constructor(code: "edit_no_match" | "edit_ambiguous", message: string, details: PatchHunkErrorDetails) {
    super(code, message, { details });
  }
}

/** Lines shown per candidate place. */
const CANDIDATE_LINES = 6;
/** Characters shown per candidate line. */
const LINE_WIDTH = 160;

/** Lines `start`.. of the file decoded for the model (at most {@link CANDIDATE_LINES}, each cut to a width). */
export function candidateAt(views: LineViews, start: number, size: number): PatchCandidate {
  const text: string[] = [];
  const stop = Math.min(views.count, start + Math.max(1, Math.min(size, CANDIDATE_LINES)));
  for (let line = start; line < stop; line += 1) {
    const decoded = Buffer.from(lineContent(views.lines, line), "latin1").toString("utf8");
    text.push(decoded.length > LINE_WIDTH ? `${decoded.slice(0, LINE_WIDTH)}…` : decoded);
  }
  return { line: start + 1, text };
}

/**
 * The places most like the hunk's old side: windows ranked by how many of
 * its non-blank lines sit at their offset under the loosest comparison
 * (ties: the earliest); at most `limit`.
 */
export function closestPlaces(views: LineViews, old: readonly string[], limit = 3): PatchCandidate[] {
  const wanted = old.map(normaliserOf("unicode-punctuation"));
  const scores = new Map<number, number>();
  const last = Math.max(0, views.count - old.length);
  for (let offset = 0; offset < wanted.length; offset += 1) {
    if (wanted[offset] === "") continue;
    for (const line of views.occurrences("unicode-punctuation", wanted[offset]!)) {
      const start = Math.min(Math.max(0, line - offset), last);
      scores.set(start, (scores.get(start) ?? 0) + 1);
    }
  }
  return [...scores]
    .sort(([leftStart, leftScore], [rightStart, rightScore]) => rightScore - leftScore || leftStart - rightStart)
    .slice(0, limit)
    .map(([start]) => candidateAt(views, start, old.length));
}

/** Candidate places rendered for a message: `line N:` then the lines, indented. */
export function describeCandidates(candidates: readonly PatchCandidate[]): string {
  return candidates.map((candidate) => `line ${candidate.line}:\n${candidate.text.map((line) => `    ${line}`).join("\n")}`).join("\n");
}
