/**
 * The line-level mistakes models make when they copy code into an edit:
 * indentation lost, added or spelt with tabs for spaces (or spaces for
 * tabs), trailing spaces, curly quotes, a line changed since it was read.
 * Each returns the changed line; callers decide which lines get it.
 */

/** Leading whitespace of a line. */
export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

/** The smallest indentation (in characters) of the non-blank lines; 0 when none is indented. */
export function commonIndent(lines: readonly string[]): number {
  let least = Number.POSITIVE_INFINITY;
  for (const line of lines) if (line.trim() !== "") least = Math.min(least, indentOf(line).length);
  return Number.isFinite(least) ? least : 0;
}

/** The line without its first `count` indentation characters (or all it has); a blank line unchanged. */
export function dedent(line: string, count: number): string {
  if (line.trim() === "") return line;
  return line.slice(Math.min(count, indentOf(line).length));
}

/** The level {@link indentMore} adds to a block: a tab when its first indented line is tab-indented, else 4 spaces. */
export function levelOf(lines: readonly string[]): string {
  const first = lines.find((line) => line.trim() !== "" && indentOf(line) !== "");
  return first !== undefined && indentOf(first).startsWith("\t") ? "\t" : "    ";
}

/** One more level of indentation on a non-blank line. */
export function indentMore(line: string, level: string): string {
  return line.trim() === "" ? line : level + line;
}

/**
 * Whether tabs for spaces is a change an applier can see and undo on these
 * lines: some old line is indented, and every indented line uses one
 * character (all spaces or all tabs), so the swap is one uniform mapping.
 */
export function swappableIndentation(oldLines: readonly string[], allLines: readonly string[]): boolean {
  const indents = allLines
    .filter((line) => line.trim() !== "")
    .map(indentOf)
    .filter((indent) => indent !== "");
  const oldIndented = oldLines.some((line) => line.trim() !== "" && indentOf(line) !== "");
  return oldIndented && (indents.every((indent) => /^ +$/.test(indent)) || indents.every((indent) => /^\t+$/.test(indent)));
}

/** Spaces-indented lines with tabs (`unit` spaces per tab), tab-indented ones with 4 spaces per tab. */
export function swapTabsAndSpaces(line: string, unit: number): string {
  const indent = indentOf(line);
  if (indent === "" || line.trim() === "") return line;
  const rest = line.slice(indent.length);
  if (indent.includes("\t")) return indent.replace(/\t/g, "    ") + rest;
  return "\t".repeat(Math.floor(indent.length / unit)) + " ".repeat(indent.length % unit) + rest;
}

/** The indentation unit of space-indented lines: the smallest indentation above 0 (2 to 8; default 4). */
export function spaceUnit(lines: readonly string[]): number {
  let least = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    const indent = indentOf(line);
    if (line.trim() !== "" && indent.length > 0 && !indent.includes("\t")) least = Math.min(least, indent.length);
  }
  return Number.isFinite(least) ? Math.min(8, Math.max(2, least)) : 4;
}

/** Straight quotes as curly ones (opening after a space or bracket, closing elsewhere). */
export function curlQuotes(line: string): string {
  return line
    .replace(/(^|[\s([{=,:])"/g, "$1\u201C")
    .replace(/"/g, "\u201D")
    .replace(/(^|[\s([{=,:])'/g, "$1\u2018")
    .replace(/'/g, "\u2019");
}

/** Whether a line holds a quote {@link curlQuotes} changes. */
export function hasQuote(line: string): boolean {
  return /["']/.test(line);
}

/**
 * The line as it may have read before (what a model remembers of an older
 * version): its last identifier renamed, else a comment added.
 */
export function staleVersion(line: string): string {
  const words = [...line.matchAll(/[A-Za-z_][A-Za-z0-9_]{2,}/g)];
  const last = words[words.length - 1];
  if (!last || last.index === undefined) return `${line} /* was */`;
  return `${line.slice(0, last.index)}${last[0]}Old${line.slice(last.index + last[0].length)}`;
}
