import diff3Merge from "diff3";
import type { TextHunk } from "./patch-parser.js";

/** Splits text into lines that keep their `\n` (the last one may have none). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function matchesAt(lines: readonly string[], expected: readonly string[], position: number): boolean {
  if (position < 0 || position + expected.length > lines.length) return false;
  for (let index = 0; index < expected.length; index++) if (lines[position + index] !== expected[index]) return false;
  return true;
}

/**
 * Applies text hunks as `git apply` does without fuzz: each hunk's old lines
 * must appear exactly, at the stated line or the nearest offset after the
 * previous hunk. Returns the new text, or undefined when a hunk does not fit.
 * With `exact`, no offset is allowed.
 */
export function applyTextHunks(text: string, hunks: readonly TextHunk[], options: { exact?: boolean } = {}): string | undefined {
  const lines = splitLines(text);
  const out: string[] = [];
  let consumed = 0;
  let shift = 0;
  for (const hunk of hunks) {
    const stated = (hunk.oldLines.length === 0 ? hunk.oldStart : hunk.oldStart - 1) + shift;
    let found: number | undefined;
    const limit = options.exact ? 0 : lines.length;
    for (let distance = 0; distance <= limit && found === undefined; distance++) {
      for (const candidate of distance === 0 ? [stated] : [stated + distance, stated - distance]) {
        if (candidate >= consumed && matchesAt(lines, hunk.oldLines, candidate)) {
          found = candidate;
          break;
        }
      }
    }
    if (found === undefined) return undefined;
    out.push(...lines.slice(consumed, found), ...hunk.newLines);
    consumed = found + hunk.oldLines.length;
    shift = found - (hunk.oldLines.length === 0 ? hunk.oldStart : hunk.oldStart - 1);
  }
  out.push(...lines.slice(consumed));
  return out.join("");
}

/** The result of a 3-way text merge. */
export interface TextMergeResult {
  text: string;
  conflicted: boolean;
}

const withLineEnd = (lines: readonly string[]) => {
  const text = lines.join("");
  return text !== "" && !text.endsWith("\n") ? `${text}\n` : text;
};

/** Merges `theirs` into `ours` over `base`, line by line, with git-style conflict markers (`ours` / `theirs`). */
export function mergeText(ours: string, base: string, theirs: string): TextMergeResult {
  let text = "";
  let conflicted = false;
  for (const block of diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs))) {
    if (block.ok) {
      text += block.ok.join("");
    } else {
      conflicted = true;
      text += `<<<<<<< ours\n${withLineEnd(block.conflict.a)}=======\n${withLineEnd(block.conflict.b)}>>>>>>> theirs\n`;
    }
  }
  return { text, conflicted };
}
