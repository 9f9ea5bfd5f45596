/**
 * How the indentation of a hunk's lines maps onto the file's: a uniform shift
 * (Edit's `shiftOf`: a prefix added or removed on every line), optionally
 * after converting the patch's indentation between spaces and tabs (a model
 * that writes 4 spaces where the file has a tab). Added lines are re-indented
 * with the same mapping so they follow the file's style.
 */
import { type Shift, shiftOf, trimBoth } from "../edit/line-match.js";

/** A mapping of the patch's indentation onto the file's. */
export interface IndentTransform {
  /** Convert the patch's leading whitespace first: spaces to tabs, tabs to spaces, or not at all. */
  readonly convert: "none" | "tabs" | "spaces";
  /** Columns of one tab for `convert`. */
  readonly width: number;
  /** The shift applied after the conversion. */
  readonly shift: Shift;
}

/** The identity mapping. */
export const NO_INDENT_CHANGE: IndentTransform = { convert: "none", width: 0, shift: { kind: "add", prefix: "" } };

const CANDIDATES: readonly IndentTransform[] = [
  NO_INDENT_CHANGE,
  ...[4, 2, 8].map((width) => ({ convert: "tabs" as const, width, shift: NO_INDENT_CHANGE.shift })),
  ...[4, 2, 8].map((width) => ({ convert: "spaces" as const, width, shift: NO_INDENT_CHANGE.shift })),
];

function leadingLength(line: string): number {
  let index = 0;
  while (index < line.length && (line.charCodeAt(index) === 32 || line.charCodeAt(index) === 9)) index += 1;
  return index;
}

function converted(line: string, convert: IndentTransform["convert"], width: number): string {
  if (convert === "none") return line;
  const length = leadingLength(line);
  const indent = line.slice(0, length);
  const rest = line.slice(length);
  if (convert === "spaces") return indent.replace(/\t/g, " ".repeat(width)) + rest;
  return indent.replace(new RegExp(` {${width}}`, "g"), "\t") + rest;
}

/**
 * The first mapping (no conversion, then spaces as tabs of 4, 2, 8 columns,
 * then tabs as 4, 2, 8 spaces) under which every non-blank pair
 * `[fileLine, patchLine]` differs by one uniform shift; null when none does.
 */
export function indentTransformOf(pairs: ReadonlyArray<readonly [string, string]>): IndentTransform | null {
  for (const candidate of CANDIDATES) {
    let shift: Shift | null = null;
    let valid = true;
    for (const [fileLine, patchLine] of pairs) {
      if (trimBoth(fileLine) === "") continue;
      const lineShift = shiftOf(fileLine, converted(patchLine, candidate.convert, candidate.width));
      if (!lineShift) {
        valid = false;
        break;
      }
      if (shift && lineShift.prefix !== shift.prefix && !(lineShift.prefix === "" && shift.prefix === "")) {
        valid = false;
        break;
      }
      if (shift && lineShift.prefix !== "" && lineShift.kind !== shift.kind) {
        valid = false;
        break;
      }
      if (!shift || shift.prefix === "") shift = lineShift;
    }
    if (valid) return { ...candidate, shift: shift ?? NO_INDENT_CHANGE.shift };
  }
  return null;
}

/** `line` (an added line) re-indented by `transform`; null when a removed prefix is not there. Blank lines are kept. */
export function reindentLine(line: string, transform: IndentTransform): string | null {
  if (transform.convert === "none" && transform.shift.prefix === "") return line;
  if (trimBoth(line) === "") return line;
  const base = converted(line, transform.convert, transform.width);
  const { kind, prefix } = transform.shift;
  if (prefix === "") return base;
  if (kind === "add") return prefix + base;
  return base.startsWith(prefix) ? base.slice(prefix.length) : null;
}
