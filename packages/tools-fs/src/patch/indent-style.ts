/**
 * The file's indentation style, for added lines the hunk's old lines say
 * nothing about: a file that indents only with spaces gets an added line's
 * leading tabs as spaces (its own unit per tab), and a file that indents
 * only with tabs gets an added line's leading spaces as tabs. A file that
 * mixes both, or has no indented line, is left alone, and so is an added
 * line whose indentation already fits.
 */
import type { FileLines } from "./file-lines.js";

/** How a file indents, as far as its lines show. */
export interface IndentStyle {
  /** "spaces" or "tabs" when every indented line uses only that; "mixed" or "none" otherwise. */
  readonly kind: "spaces" | "tabs" | "mixed" | "none";
  /** Spaces per level for a spaces file: its smallest indentation of 2 to 8 spaces (default 4). */
  readonly unit: number;
}

/** The style of `lines` (one scan of the line starts). */
export function indentStyleOf(lines: FileLines): IndentStyle {
  const { text, starts } = lines;
  let tabs = false;
  let spaces = false;
  let unit = Number.POSITIVE_INFINITY;
  for (const start of starts) {
    const first = text.charCodeAt(start);
    if (first === 9) tabs = true;
    else if (first === 32 && text.charCodeAt(start + 1) === 32) {
      let width = 2;
      while (text.charCodeAt(start + width) === 32) width += 1;
      // A line of spaces only is blank, not indentation.
      const next = text.charCodeAt(start + width);
      if (next === 10 || next === 13 || Number.isNaN(next)) continue;
      spaces = true;
      unit = Math.min(unit, width);
    }
    if (tabs && spaces) return { kind: "mixed", unit: 4 };
  }
  if (tabs) return { kind: "tabs", unit: 4 };
  if (spaces) return { kind: "spaces", unit: Math.min(8, unit) };
  return { kind: "none", unit: 4 };
}

/**
 * `line` (an added line) indented in the file's style: leading tabs as
 * `unit` spaces in a spaces file; leading spaces as tabs in a tabs file (4
 * per tab, or `patchUnit` when the patch's lines step by fewer).
 */
export function inFileStyle(line: string, style: IndentStyle, patchUnit: number): string {
  if (style.kind !== "spaces" && style.kind !== "tabs") return line;
  let length = 0;
  while (length < line.length && (line.charCodeAt(length) === 32 || line.charCodeAt(length) === 9)) length += 1;
  if (length === line.length) return line;
  const indent = line.slice(0, length);
  if (style.kind === "spaces") return indent.includes("\t") ? indent.replace(/\t/g, " ".repeat(style.unit)) + line.slice(length) : line;
  if (!indent.startsWith("  ")) return line;
  const width = Math.min(4, Math.max(2, patchUnit));
  return indent.replace(new RegExp(` {${width}}`, "g"), "\t") + line.slice(length);
}

/** The smallest indentation of 2 or more leading spaces among `lines`, or 4. */
export function patchSpaceUnit(lines: readonly string[]): number {
  let unit = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    let width = 0;
    while (line.charCodeAt(width) === 32) width += 1;
    if (width >= 2 && width < line.length) unit = Math.min(unit, width);
  }
  return Number.isFinite(unit) ? unit : 4;
}
