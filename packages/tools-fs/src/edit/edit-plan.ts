import { ToolError, type ToolContext } from "@agent-tools/core";
import type { Stats } from "node:fs";
import type { FileContent, LockedFile } from "../file-engine/locked-file.js";
import type { FileVersion, FullTextSnapshot } from "../shared/file-state.js";
import type { LineEndingCounts } from "../shared/line-ending-count.js";
import { looksBinary } from "../shared/text-window.js";
import { editedLineCount, lineFeedsFromLines } from "./edit-line-count.js";
import { type MatchStrategy, type PrescannedContent, editPieces, findEditMatches } from "./edit-match.js";

/** The arguments of an Edit call that decide the replacement. */
export interface EditInput {
  old_string: string;
  new_string: string;
  replace_all: boolean;
  expected_replacements?: number | undefined;
}

/**
 * The file {@link planEdit} edits: a {@link LockedFile} of the local disk, or
 * a workspace file held under its lock (`S` is what its stat gives).
 */
export interface EditTarget<S> {
  /** The path as the model wrote it. */
  readonly displayPath: string;
  /** The versions this registry recorded of the file. */
  recorded(): { fullText: FullTextSnapshot | undefined; latest: FileVersion | undefined };
  /** Refuses with `stale_file` when `current` is not the version the model saw. */
  assertUnchanged(expected: FileVersion, current: S, readCurrent: () => Promise<Uint8Array> | Uint8Array): Promise<void>;
  /** Counts the line endings of `bytes`. */
  countLineEndings(bytes: Uint8Array): LineEndingCounts;
}

/** What {@link planEdit} works on. */
export interface EditPlanRequest<S extends { mtimeMs: number; size: number } = Stats> {
  input: EditInput;
  /** The locked file. */
  file: EditTarget<S>;
  /** Its whole content, just read (`stats`: the file's when it was read). */
  content: Pick<FileContent, "bytes"> & { readonly stats: S };
  context: ToolContext;
  /** What a scan during the read learnt of `content` (see edit-prescan.ts); only speed changes with it. */
  prescanned?: PrescannedContent | undefined;
}

/** An edit ready to commit. */
export interface PlannedEdit {
  /** The new content, in order. */
  pieces: Buffer[];
  /** The new content's line count (computed only when the hash is deferred). */
  countLines: () => number;
  replacements: number;
  strategy: MatchStrategy;
  /** The file had not been read in this registry: Edit read it itself. */
  autoRead: boolean;
}

/**
 * Checks the file is text and is the version the model saw, then matches
 * `old_string` (exact, then the tolerant passes) and builds the new content.
 * Refuses with `binary_file`, `stale_file`, `cancelled`, `edit_no_match`,
 * `edit_ambiguous` or `edit_count_mismatch`.
 */
export async function planEdit<S extends { mtimeMs: number; size: number }>(request: EditPlanRequest<S>): Promise<PlannedEdit> {
  const { input, file, content } = request;
  const { bytes } = content;
  const display = file.displayPath;
  const { autoRead, lineEndingCounts, oldLineFeeds } = await checkEditable(request);
  const result = findEditMatches(bytes, input.old_string, input.new_string, { lineEndingCounts, prescanned: request.prescanned });
  if (!result) {
    throw new ToolError(
      "edit_no_match",
      `Edit failed: old_string was not found in ${display} (also tried ignoring line endings, trailing whitespace and indentation). Read the file again and copy old_string verbatim from the current content (without line-number prefixes), or locate it with Grep.`,
      { details: { path: display } },
    );
  }
  const found = result.matches.length;
  if (found > 1 && !input.replace_all) {
    throw new ToolError(
      "edit_ambiguous",
      `Edit failed: old_string matched ${found} locations in ${display}. Extend old_string with surrounding lines so it matches exactly one location, or set replace_all=true to replace all ${found}.`,
      { details: { path: display, matches: found, matchStrategy: result.strategy } },
    );
  }
  const replacements = input.replace_all ? found : 1;
  if (input.expected_replacements !== undefined && input.expected_replacements !== replacements) {
    throw new ToolError(
      "edit_count_mismatch",
      `Edit failed: expected ${input.expected_replacements} replacements but found ${replacements} in ${display}. Fix expected_replacements, or adjust old_string${input.replace_all ? "" : " (or set replace_all=true)"}.`,
      { details: { path: display, expected: input.expected_replacements, found: replacements } },
    );
  }
  const applied = input.replace_all ? result.matches : result.matches.slice(0, 1);
  const pieces = editPieces(bytes, applied, true);
  return { pieces, countLines: () => editedLineCount(bytes, applied, oldLineFeeds(), pieces), replacements, strategy: result.strategy, autoRead };
}

/** What {@link checkEditable} learnt of the file. */
export interface EditableFile {
  /** The file had not been read in this registry. */
  autoRead: boolean;
  /** The file's LF and CRLF counts, counted at most once and only when asked. */
  lineEndingCounts: () => LineEndingCounts;
  /** The file's LF count (from the recorded line count when that is this very version). */
  oldLineFeeds: () => number;
}

/**
 * The checks before any matching: the file is text, is the version the model
 * saw, and the call was not aborted. Refuses with `binary_file`, `stale_file`
 * or `cancelled`.
 */
export async function checkEditable<S extends { mtimeMs: number; size: number }>(
  request: Omit<EditPlanRequest<S>, "input" | "prescanned">,
): Promise<EditableFile> {
  const { file, content, context } = request;
  const { bytes, stats: current } = content;
  const display = file.displayPath;
  if (looksBinary(bytes))
    throw new ToolError("binary_file", `Edit refused: ${display} is a binary file (it contains NUL bytes). Edit works on text files only.`);
  const { fullText, latest } = file.recorded();
  const expected = fullText ?? latest;
  if (expected) await file.assertUnchanged(expected, current, () => bytes);
  if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it finished.");
  // The file's line endings are counted at most once, and only when needed:
  // for the dominant EOL of a fuzzy pass, or for the new line count.
  let counts: LineEndingCounts | undefined;
  const lineEndingCounts = () => (counts ??= file.countLineEndings(bytes));
  // The old line count is known when the recorded full snapshot is this very version.
  const knownLines = fullText && fullText.mtimeMs === current.mtimeMs && fullText.size === current.size ? fullText.totalLines : undefined;
  const oldLineFeeds = () =>
    knownLines !== undefined && bytes.length > 0 ? lineFeedsFromLines(knownLines, bytes.length, bytes[bytes.length - 1]!) : lineEndingCounts().lf;
  return { autoRead: expected === undefined, lineEndingCounts, oldLineFeeds };
}
