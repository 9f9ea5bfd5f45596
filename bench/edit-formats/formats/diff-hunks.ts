/**
 * git's unified diff of one file as hunks placed on the old file's lines:
 * the input both formats (V4A patches and Edit pairs) are written from.
 */

/** One line of a diff hunk, its text without the line terminator (and without a CR before it). */
export interface DiffLine {
  readonly kind: "context" | "remove" | "add";
  readonly text: string;
}

/** One `@@ -a,b +c,d @@` hunk. */
export interface DiffHunk {
  /** 0-based index of the hunk's first old line in the old file's lines. */
  readonly oldStart: number;
  readonly oldCount: number;
  readonly lines: readonly DiffLine[];
}

/** The lines of a text without their terminators (a final newline ends the last line, it does not start another). */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** The hunks of a one-file unified diff. */
export function parseDiffHunks(diff: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let current: { oldStart: number; oldCount: number; lines: DiffLine[] } | undefined;
  for (const raw of diff.split("\n")) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(raw);
    if (header) {
      const oldCount = header[2] === undefined ? 1 : Number(header[2]);
      // An empty old range names the line after which the new lines go.
      const oldStart = oldCount === 0 ? Number(header[1]) : Number(header[1]) - 1;
      current = { oldStart, oldCount, lines: [] };
      hunks.push(current);
      continue;
    }
    if (!current) continue;
    const text = raw.endsWith("\r") ? raw.slice(1, -1) : raw.slice(1);
    if (raw.startsWith(" ")) current.lines.push({ kind: "context", text });
    else if (raw.startsWith("-")) current.lines.push({ kind: "remove", text });
    else if (raw.startsWith("+")) current.lines.push({ kind: "add", text });
    // "\ No newline at end of file" and the trailing empty string are not lines.
  }
  return hunks;
}
