/**
 * A unified diff of two versions of a file, for `details.diff` of ApplyPatch:
 * a Myers line diff after the common prefix and suffix are cut, 3 lines of
 * context, `\ No newline at end of file` where a side ends without one.
 * Bytes are decoded as UTF-8 for display (invalid sequences become U+FFFD);
 * a line's CR is compared but not shown.
 */

type Op = { kind: " " | "-" | "+"; text: string; oldLine: number; newLine: number };

/** Past this many differing lines in the middle, the middle is shown as removed then added (no Myers search). */
const MAX_EDIT_DISTANCE = 4000;
const CONTEXT = 3;

/** The lines of `text`; a last line without a line feed ends with "\n" (no line holds one otherwise), so it differs from the same line with one. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  else lines[lines.length - 1] += "\n";
  return lines;
}

/** The shortest edit script of `a` into `b` (Myers), as kept/removed/added marks; null past `limit` edits. */
function myers(a: readonly string[], b: readonly string[], limit: number): Array<" " | "-" | "+"> | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, { n, m, distance: d });
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], offset: number, size: { n: number; m: number; distance: number }): Array<" " | "-" | "+"> {
  const { n, m, distance } = size;
  const script: Array<" " | "-" | "+"> = [];
  let x = n;
  let y = m;
  for (let d = distance; d > 0; d -= 1) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[offset + previousK]!;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      script.push(" ");
      x -= 1;
      y -= 1;
    }
    script.push(down ? "+" : "-");
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    script.push(" ");
    x -= 1;
    y -= 1;
  }
  return script.reverse();
}

function operations(a: readonly string[], b: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  const script = myers(middleA, middleB, MAX_EDIT_DISTANCE) ?? [...middleA.map(() => "-" as const), ...middleB.map(() => "+" as const)];
  const ops: Op[] = [];
  let oldLine = 0;
  let newLine = 0;
  const push = (kind: Op["kind"]) => {
    ops.push({ kind, text: kind === "+" ? b[newLine]! : a[oldLine]!, oldLine, newLine });
    if (kind !== "+") oldLine += 1;
    if (kind !== "-") newLine += 1;
  };
  for (let index = 0; index < prefix; index += 1) push(" ");
  for (const kind of script) push(kind);
  for (let index = 0; index < suffix; index += 1) push(" ");
  return ops;
}

/**
 * The unified diff of `before` and `after` (`--- a/path`, `+++ b/path`, then
 * hunks); "" when they are equal.
 *
 * @example
 * formatUnifiedDiff("a.txt", Buffer.from("a\nb\n"), Buffer.from("a\nc\n"));
 * // "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 */
export function formatUnifiedDiff(path: string, before: Buffer, after: Buffer): string {
  if (before.equals(after)) return "";
  const ops = operations(splitLines(before.toString("utf8")), splitLines(after.toString("utf8")));
  const out: string[] = [`--- a/${path}`, `+++ b/${path}`];
  const changed = ops.map((op, index) => (op.kind !== " " ? index : -1)).filter((index) => index !== -1);
  let group = 0;
  while (group < changed.length) {
    let end = group;
    while (end + 1 < changed.length && changed[end + 1]! - changed[end]! <= 2 * CONTEXT + 1) end += 1;
    const first = Math.max(0, changed[group]! - CONTEXT);
    const last = Math.min(ops.length - 1, changed[end]! + CONTEXT);
    const slice = ops.slice(first, last + 1);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    const oldStart = oldCount ? slice.find((op) => op.kind !== "+")!.oldLine + 1 : slice[0]!.oldLine;
    const newStart = newCount ? slice.find((op) => op.kind !== "-")!.newLine + 1 : slice[0]!.newLine;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) {
      const unterminated = op.text.endsWith("\n");
      const text = unterminated ? op.text.slice(0, -1) : op.text;
      out.push(`${op.kind}${text.endsWith("\r") ? text.slice(0, -1) : text}`);
      if (unterminated) out.push("\\ No newline at end of file");
    }
    group = end + 1;
  }
  return `${out.join("\n")}\n`;
}
