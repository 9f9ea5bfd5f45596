/**
 * The per-file search steps of the TypeScript Grep engine. Every function
 * here is self-contained (no imports, no module state, only globals such as
 * `Buffer`), because the worker threads run the very same functions: their
 * source text is embedded into the worker by grep-worker-source.ts. Keep it so.
 */

/** The matching lines of one text (CRLF already normalised), 1-based and ascending. */
export function matchingLines(text: string, regex: RegExp, multiline: boolean): number[] {
  const lines: number[] = [];
  regex.lastIndex = 0;
  let scanned = 0; // offset up to which newlines have been counted
  let line = 1;
  const lineAt = (offset: number) => {
    for (let index = text.indexOf("\n", scanned); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
    scanned = offset;
    return line;
  };
  for (;;) {
    const match = regex.exec(text);
    if (!match) break;
    const start = match.index;
    if (start === text.length && start > 0 && text.charCodeAt(start - 1) === 10) break; // past the last line
    const value = match[0];
    const startLine = lineAt(start);
    if (!multiline && value.includes("\n")) return matchingLinesByLine(text, regex);
    const endLine = multiline && value.length > 0 ? startLine + countNewlines(value.slice(0, -1)) : startLine;
    for (let current = startLine; current <= endLine; current += 1) if (lines[lines.length - 1] !== current) lines.push(current);
    // Continue after the last matched line: only matching lines are reported.
    const nextLineStart = text.indexOf("\n", multiline && value.length > 0 ? start + value.length - 1 : start);
    if (nextLineStart === -1 || nextLineStart + 1 >= text.length) break;
    if (multiline && value.length > 0 && value.endsWith("\n")) {
      regex.lastIndex = start + value.length;
    } else {
      regex.lastIndex = nextLineStart + 1;
    }
    lineAt(regex.lastIndex);
  }
  return lines;
}

export function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

export function matchingLinesByLine(text: string, regex: RegExp): number[] {
  const single = new RegExp(regex.source, regex.flags.replace("g", ""));
  const lines: number[] = [];
  const all = text.split("\n");
  if (all.length && all[all.length - 1] === "") all.pop();
  for (let index = 0; index < all.length; index += 1) if (single.test(all[index]!)) lines.push(index + 1);
  return lines;
}

/** A text file's bytes as searched: UTF-8, without a BOM, CRLF as LF. */
export function decodeText(bytes: Buffer): string {
  let text = bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\r\n")) text = text.replace(/\r\n/g, "\n");
  return text;
}

/**
 * A cheap test that rules out files that cannot match, for plain ASCII
 * literals: `Buffer.indexOf` when case matters (or the literal has no
 * letters), else a case-insensitive regex over the latin1 view of the bytes
 * (ASCII letters never fold to or from bytes >= 0x80, so the verdict equals
 * the decoded text's). Undefined when the pattern is not such a literal.
 */
export function literalPrefilter(pattern: string, ignoreCase: boolean): ((bytes: Buffer) => boolean) | undefined {
  if (!/^[A-Za-z0-9_ \-]+$/.test(pattern)) return undefined;
  if (!ignoreCase || !/[A-Za-z]/.test(pattern)) {
    const needle = Buffer.from(pattern, "latin1");
    return (bytes) => bytes.indexOf(needle) !== -1;
  }
  const regex = new RegExp(pattern.replace(/-/g, "\\-"), "i");
  return (bytes) => regex.test(bytes.toString("latin1"));
}
