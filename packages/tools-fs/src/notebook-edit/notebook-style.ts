/**
 * How a notebook file is formatted, read off the file itself, and a JSON
 * writer that writes new values the same way. Jupyter writes
 * `json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False)`: one
 * space per level, `": "` between a key and its value, non-ASCII raw;
 * other tools write two spaces, tabs, CRLF or one compact line, and the
 * writer follows whichever the file has.
 */
import type { JsonNode } from "./json-positions.js";

/** The formatting of one notebook file. */
export interface NotebookStyle {
  /** One level of indentation ("\u0020", "\u0020\u0020", "\t"); null: the file is one compact line. */
  readonly indent: string | null;
  /** The line break the file uses. */
  readonly newline: "\n" | "\r\n";
  /** Between a key and its value (": " or ":"). */
  readonly colon: string;
  /** Between members and elements of a compact file ("," or ", "); unused when indented. */
  readonly comma: string;
  /** Non-ASCII characters are written as \u escapes (the file has no raw non-ASCII byte and escapes some). */
  readonly asciiOnly: boolean;
}

/** Reads the style of the notebook `bytes` whose top object was scanned as `top` (members recorded). */
export function detectNotebookStyle(bytes: Uint8Array, top: JsonNode): NotebookStyle {
  const text = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString("latin1");
  const members = top.members ?? [];
  const first = members[0];
  const lead = first ? text(top.start + 1, first.keyStart) : "";
  const lineBreak = lead.lastIndexOf("\n");
  const indent = lineBreak === -1 ? null : lead.slice(lineBreak + 1);
  const newline = lead.includes("\r\n") ? "\r\n" : "\n";
  const colon = first ? text(first.keyEnd, first.value.start) : ": ";
  const second = members[1];
  const comma = first && second ? text(first.value.end, second.keyStart) : ", ";
  let rawNonAscii = false;
  for (const byte of bytes) {
    if (byte >= 0x80) {
      rawNonAscii = true;
      break;
    }
  }
  // Only an escape of a non-ASCII code point shows ASCII-only output (\u001b escapes a control character either way).
  const asciiOnly = !rawNonAscii && /\\u(?:00[89a-f]|0[1-9a-f]|[1-9a-f])/i.test(text(0, bytes.length));
  return { indent: indent === null || /^[ \t]*$/.test(indent) ? indent : null, newline, colon, comma: comma.includes("\n") ? "," : comma, asciiOnly };
}

/** `value` as a JSON string literal in the file's style. */
export function quoteJson(value: string, style: NotebookStyle): string {
  const quoted = JSON.stringify(value);
  if (!style.asciiOnly) return quoted;
  return quoted.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The line break and indentation that put the next token at `level`. */
export function lineAt(level: number, style: NotebookStyle): string {
  return style.indent === null ? "" : `${style.newline}${style.indent.repeat(level)}`;
}

/** Between two members or elements whose level is `level`. */
export function separatorAt(level: number, style: NotebookStyle): string {
  return style.indent === null ? style.comma : `,${lineAt(level, style)}`;
}

/**
 * `value` as JSON in the file's style, its first token where the caller
 * puts it and its contents at `level + 1` (as Python's `json.dumps` with
 * `indent` writes it: empty containers as `[]` and `{}`). Objects keep
 * their key order.
 */
export function writeJson(value: unknown, level: number, style: NotebookStyle): string {
  if (value === null || typeof value === "boolean" || typeof value === "number") return JSON.stringify(value);
  if (typeof value === "string") return quoteJson(value, style);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => writeJson(item, level + 1, style));
    return `[${lineAt(level + 1, style)}${items.join(separatorAt(level + 1, style))}${lineAt(level, style)}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  const items = entries.map(([key, item]) => `${quoteJson(key, style)}${style.colon}${writeJson(item, level + 1, style)}`);
  return `{${lineAt(level + 1, style)}${items.join(separatorAt(level + 1, style))}${lineAt(level, style)}}`;
}

/**
 * A cell's `source` as Jupyter stores it: the list of its lines, each
 * ending with "\n" but the last (an empty source is `[]`), or the string
 * itself when the cell (or, for a new cell, the notebook) uses that form.
 */
export function sourceValue(source: string, asString: boolean): string | string[] {
  if (asString) return source;
  const lines: string[] = [];
  let start = 0;
  for (let index = source.indexOf("\n"); index !== -1; index = source.indexOf("\n", start)) {
    lines.push(source.slice(start, index + 1));
    start = index + 1;
  }
  if (start < source.length) lines.push(source.slice(start));
  return lines;
}
