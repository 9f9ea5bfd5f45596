/**
 * One corpus case made ready to run: the old and new bytes, git's hunks, the
 * V4A patch and the Edit pairs written from them (with the file expected
 * after each pair). A case whose pairs, applied as written, do not give the
 * new file is dropped as a generator fault (counted, never expected).
 */
import type { CorpusCase } from "./corpus/corpus-types.js";
import { type DiffHunk, parseDiffHunks, splitLines } from "./formats/diff-hunks.js";
import { type EditPair, type TextShape, shapeOf, toEditPairs } from "./formats/to-edit-pairs.js";
import { type V4APatch, toV4APatch } from "./formats/to-v4a.js";

/** A case ready for the engines. */
export interface PreparedCase {
  readonly id: string;
  readonly repo: string;
  readonly path: string;
  readonly oldBytes: Buffer;
  readonly newBytes: Buffer;
  /** The old file's lines, BOM stripped. */
  readonly oldLines: readonly string[];
  readonly hunks: readonly DiffHunk[];
  readonly patch: V4APatch;
  readonly pairs: readonly EditPair[];
  readonly expected: readonly Buffer[];
  readonly shape: TextShape;
}

/** The case prepared, or a reason it cannot be. */
export function prepareCase(item: CorpusCase): PreparedCase | { skipped: string } {
  const shape = shapeOf(item.oldText);
  const oldLines = splitLines(shape.bom ? item.oldText.slice(1) : item.oldText);
  const hunks = parseDiffHunks(item.diff);
  if (hunks.length === 0) return { skipped: "no hunk" };
  const patch = toV4APatch(item.path, oldLines, hunks);
  const { pairs, expected } = toEditPairs(oldLines, hunks, shape);
  if (expected[expected.length - 1] !== item.newText) return { skipped: "generator fault (pairs do not give the new file)" };
  return {
    id: item.id,
    repo: item.repo,
    path: item.path,
    oldBytes: Buffer.from(item.oldText, "utf8"),
    newBytes: Buffer.from(item.newText, "utf8"),
    oldLines,
    hunks,
    patch,
    pairs,
    expected: expected.map((text) => Buffer.from(text, "utf8")),
    shape,
  };
}
