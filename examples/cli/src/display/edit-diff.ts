/**
 * Renders an Edit call as a coloured line diff (the `diff` package) of its
 * `old_string` and `new_string`.
 */
import { diffLines } from "diff";
import type { Colors } from "./colors.js";

/** Options of {@link renderEditDiff}. */
export interface EditDiffOptions {
  colors: Colors;
  /** Prefix of every line (indentation). */
  indent?: string;
  /** At most this many lines; the rest is summarised. Default 40. */
  maxLines?: number;
  /** Cut long lines to this width. Default 160. */
  width?: number;
}

/**
 * Returns the lines of a diff from `oldText` to `newText`: removed lines red
 * with `-`, added lines green with `+`, unchanged context dim. Line endings
 * are normalised, so a CRLF file and an LF `old_string` diff cleanly.
 *
 * @example
 * renderEditDiff("a\nb\n", "a\nc\n", { colors: pc }); // ["    a", "  - b", "  + c"] (coloured)
 */
export function renderEditDiff(oldText: string, newText: string, options: EditDiffOptions): string[] {
  const { colors } = options;
  const indent = options.indent ?? "    ";
  const maxLines = options.maxLines ?? 40;
  const width = options.width ?? 160;
  const normalise = (text: string) => {
    const lf = text.replace(/\r\n?/g, "\n");
    return lf.endsWith("\n") ? lf : `${lf}\n`;
  };
  const lines: string[] = [];
  for (const part of diffLines(normalise(oldText), normalise(newText))) {
    const partLines = part.value.replace(/\n$/, "").split("\n");
    for (const line of partLines) {
      const shown = line.length > width ? `${line.slice(0, width - 1)}…` : line;
      if (part.added) lines.push(`${indent}${colors.green(`+ ${shown}`)}`);
      else if (part.removed) lines.push(`${indent}${colors.red(`- ${shown}`)}`);
      else lines.push(`${indent}${colors.dim(`  ${shown}`)}`);
    }
  }
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), `${indent}${colors.dim(`… ${lines.length - maxLines} more diff lines`)}`];
}

/**
 * Returns the lines of a unified diff (ApplyPatch's `details.diff`)
 * coloured like {@link renderEditDiff}: `---`/`+++` file headers bold, `@@`
 * hunk headers dim, removed lines red, added lines green.
 *
 * @example
 * renderUnifiedDiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", { colors: pc }); // 5 coloured lines
 */
export function renderUnifiedDiff(diff: string, options: EditDiffOptions): string[] {
  const { colors } = options;
  const indent = options.indent ?? "    ";
  const maxLines = options.maxLines ?? 40;
  const width = options.width ?? 160;
  const lines: string[] = [];
  for (const line of diff.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n")) {
    if (line === "") continue;
    const shown = line.length > width ? `${line.slice(0, width - 1)}…` : line;
    if (line.startsWith("+++ ") || line.startsWith("--- ")) lines.push(`${indent}${colors.bold(shown)}`);
    else if (line.startsWith("@@")) lines.push(`${indent}${colors.dim(shown)}`);
    else if (line.startsWith("+")) lines.push(`${indent}${colors.green(`+ ${shown.slice(1)}`)}`);
    else if (line.startsWith("-")) lines.push(`${indent}${colors.red(`- ${shown.slice(1)}`)}`);
    else lines.push(`${indent}${colors.dim(` ${shown}`)}`);
  }
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), `${indent}${colors.dim(`… ${lines.length - maxLines} more diff lines`)}`];
}
