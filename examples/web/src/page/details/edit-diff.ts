/**
 * The diff an Edit card shows: red removed lines, green added lines, dim
 * context. Taken from a unified diff in the result's details when the host
 * supplies one (`details.diff`), otherwise computed from the call's
 * `old_string` and `new_string` with the `diff` package.
 */
import { diffLines } from "diff";

/** One line of a rendered diff. */
export interface DiffLine {
  kind: "add" | "remove" | "context" | "hunk";
  text: string;
}

/** At most this many lines are shown; the rest is summarised in one context line. */
export const MAX_DIFF_LINES = 400;

/**
 * The diff lines of an Edit call; empty when neither the details nor the
 * arguments carry the texts.
 *
 * @example
 * editDiffLines({ old_string: "a\nb", new_string: "a\nc" }, undefined);
 * // [{ kind: "context", text: "a" }, { kind: "remove", text: "b" }, { kind: "add", text: "c" }]
 */
export function editDiffLines(args: unknown, details: unknown): DiffLine[] {
  const unified = field(details, "diff");
  if (unified !== undefined && unified !== "") return cap(parseUnifiedDiff(unified));
  const oldText = field(args, "old_string");
  const newText = field(args, "new_string");
  if (oldText === undefined || newText === undefined) return [];
  return cap(lineDiff(oldText, newText));
}

/** The match strategy an Edit reported (`exact`, `line-endings`, `trailing-whitespace`, `indentation`). */
export function editMatchStrategy(details: unknown): string | undefined {
  return field(details, "matchStrategy");
}

/** A line diff of two texts; CRLF and a missing final newline do not count as changes. */
export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(normalise(oldText), normalise(newText))) {
    const kind = part.added ? "add" : part.removed ? "remove" : "context";
    for (const text of part.value.replace(/\n$/, "").split("\n")) lines.push({ kind, text });
  }
  return lines;
}

/** Reads the body of a unified diff; `---`/`+++` file headers are dropped, `@@` lines kept as hunk marks. */
export function parseUnifiedDiff(text: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const line of text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("Index:") || line.startsWith("====")) continue;
    if (line.startsWith("@@")) lines.push({ kind: "hunk", text: line });
    else if (line.startsWith("+")) lines.push({ kind: "add", text: line.slice(1) });
    else if (line.startsWith("-")) lines.push({ kind: "remove", text: line.slice(1) });
    else if (line.startsWith("\\")) continue;
    else lines.push({ kind: "context", text: line.startsWith(" ") ? line.slice(1) : line });
  }
  return lines;
}

function normalise(text: string): string {
  // An empty text has no lines: adding the final newline would show one empty added line.
  if (text === "") return "";
  const lf = text.replace(/\r\n?/g, "\n");
  return lf.endsWith("\n") ? lf : `${lf}\n`;
}

function cap(lines: DiffLine[]): DiffLine[] {
  if (lines.length <= MAX_DIFF_LINES) return lines;
  return [...lines.slice(0, MAX_DIFF_LINES), { kind: "context", text: `… ${lines.length - MAX_DIFF_LINES} more diff lines` }];
}

function field(value: unknown, key: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const item = (value as Record<string, unknown>)[key];
  return typeof item === "string" ? item : undefined;
}
