import type { Node } from "web-tree-sitter";
import type { ShellWord } from "./command-parts.js";

interface WordBuilder {
  text: string;
  dynamic: boolean;
  /** An expansion (not only a glob or brace) was seen. */
  expanded: boolean;
  /** Offsets in `text` of unquoted `*`. */
  stars: number[];
  /** Unquoted text seen so far (for brace expansion, which spans several nodes: `{`, `a,b`, `}`). */
  unquoted: string;
}

/**
 * Reads one tree-sitter-bash word node (a `word`, string, concatenation, expansion, ...) into its text after quote removal.
 * Node types this reader does not know are kept as dynamic source text: unknown syntax never becomes a literal that an allow rule could match.
 */
export function readShellWord(node: Node): ShellWord {
  const builder: WordBuilder = { text: "", dynamic: false, expanded: false, stars: [], unquoted: "" };
  appendNode(builder, node);
  if (!builder.dynamic && hasBraceExpansion(builder.unquoted)) builder.dynamic = true;
  if (builder.dynamic && !builder.expanded) return { text: builder.text, dynamic: true, wildcards: builder.stars };
  return { text: builder.text, dynamic: builder.dynamic };
}

function appendNode(builder: WordBuilder, node: Node): void {
  switch (node.type) {
    case "word":
    case "command_name": {
      if (node.type === "command_name" && node.firstChild && node.firstChild.type !== "word") {
        appendNode(builder, node.firstChild);
        return;
      }
      const raw = node.text;
      if (hasUnquotedGlob(raw)) builder.dynamic = true;
      builder.unquoted += raw;
      appendUnquoted(builder, raw);
      return;
    }
    case "number":
      builder.unquoted += node.text;
      builder.text += node.text;
      return;
    case "raw_string":
      builder.text += node.text.slice(1, -1);
      return;
    case "ansi_c_string":
      builder.text += decodeAnsiC(node.text.slice(2, -1));
      return;
    case "string":
    case "translated_string":
      appendDoubleQuoted(builder, node);
      return;
    case "concatenation":
      for (const child of node.children) if (child) appendNode(builder, child);
      return;
    default:
      builder.dynamic = true;
      builder.expanded = true;
      builder.text += node.text;
  }
}

function appendDoubleQuoted(builder: WordBuilder, node: Node): void {
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === "string_content") builder.text += unescapeDoubleQuoted(child.text);
    else if (child.type === '"' || child.type === "$") continue;
    else if (child.type === "string") appendDoubleQuoted(builder, child);
    else {
      // Expansions, and anything else, are decided at run time.
      builder.dynamic = true;
      builder.expanded = true;
      builder.text += child.text;
    }
  }
}

/** Unquoted text: a backslash quotes the next character; a backslash-newline is a line continuation and disappears. Records unquoted `*`. */
function appendUnquoted(builder: WordBuilder, raw: string): void {
  let text = builder.text;
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index];
    if (character === "\\") {
      index++;
      if (raw[index] === "\r" && raw[index + 1] === "\n") index++;
      else if (index < raw.length && raw[index] !== "\n") text += raw[index];
      continue;
    }
    if (character === "*") builder.stars.push(text.length);
    text += character;
  }
  builder.text = text;
}

/** Inside double quotes a backslash quotes only `$`, backtick, `"`, `\` and newline; elsewhere it stays. */
function unescapeDoubleQuoted(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_match, next: string) => (next === "\n" ? "" : next));
}

/** An unescaped `*`, `?` or `[` in unquoted text is a glob the shell expands to file names. */
function hasUnquotedGlob(raw: string): boolean {
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index];
    if (character === "\\") index++;
    else if (character === "*" || character === "?" || character === "[") return true;
  }
  return false;
}

/** `{a,b}` or `{1..3}` in unquoted text: brace expansion makes several words. */
function hasBraceExpansion(unquoted: string): boolean {
  return /(^|[^\\])\{[^}]*(,|\.\.)[^}]*\}/.test(unquoted);
}

const ANSI_C_SIMPLE: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Decodes the body of a `$'...'` string (bash's ANSI-C quoting). Bash's strings end at a NUL (`$'rm\0x'` is `rm`), so the text does too. */
export function decodeAnsiC(body: string): string {
  const decoded = body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|[\s\S])/g, (match, sequence: string) => {
    const head = sequence[0];
    if (head === "x" || head === "u" || head === "U") return safeCodePoint(Number.parseInt(sequence.slice(1), 16), match);
    if (/^[0-7]/.test(sequence)) return String.fromCharCode(Number.parseInt(sequence, 8) & 0xff);
    if (head === "c" && sequence.length === 2) return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
    return ANSI_C_SIMPLE[sequence] ?? match;
  });
  const end = decoded.indexOf("\0");
  return end === -1 ? decoded : decoded.slice(0, end);
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
