/**
 * One path segment of an ignore-file glob, compiled as ripgrep's globset
 * compiles it (backslash escapes, literal separator, matching UTF-8 bytes):
 * `*` any run of bytes, `?` one byte, `[a-z]` / `[!a-z]` / `[^a-z]` classes
 * (no escapes inside; `]` first is literal; `-` first or last is literal;
 * an unclosed `[` is literal). A `**` that is not a whole segment is a
 * plain `*`.
 */

/** How a segment matches a name. */
export enum SegmentKind {
  /** The exact string {@link SegmentMatcher.text}. */
  Literal = 0,
  /** Names ending with {@link SegmentMatcher.text} (`*.ts`). */
  Suffix = 1,
  /** Names starting with {@link SegmentMatcher.text} (`build*`). */
  Prefix = 2,
  /** Every name (`*`). */
  Any = 3,
  /** Anything else: {@link SegmentMatcher.regex}. */
  Pattern = 4,
  /** `**` as a whole segment: zero or more directories. */
  Globstar = 5,
}

/** A compiled segment. */
export interface SegmentMatcher {
  readonly kind: SegmentKind;
  readonly text: string;
  readonly regex: RegExp | undefined;
  /**
   * Regex source of a {@link SegmentKind.Pattern} segment inside a
   * whole-path regex (`*` and `?` stop at `/`), over UTF-8 bytes.
   */
  readonly source?: string;
  /**
   * A class of the segment can match `/` (negated, or listing `/`): in
   * globset it then matches across path segments, so the rule needs a
   * whole-path test.
   */
  readonly crossesSlash?: boolean;
}

/** Whether `matcher` matches the name `name` (never for {@link SegmentKind.Globstar}: the caller handles it). */
export function segmentMatches(matcher: SegmentMatcher, name: string): boolean {
  switch (matcher.kind) {
    case SegmentKind.Literal:
      return name === matcher.text;
    case SegmentKind.Suffix:
      return name.endsWith(matcher.text);
    case SegmentKind.Prefix:
      return name.startsWith(matcher.text);
    case SegmentKind.Any:
      return true;
    case SegmentKind.Pattern:
      return matcher.regex!.test(asBytes(name));
    default:
      return false;
  }
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/;
const encoder = new TextEncoder();

/**
 * `text` as regex source over UTF-8 bytes (globset matches bytes, not
 * characters): ASCII escaped as needed, other characters as `\xNN` bytes.
 */
function byteSource(text: string): string {
  let out = "";
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code < 0x80) out += REGEX_SPECIAL.test(character) ? `\\${character}` : character;
    else for (const byte of encoder.encode(character)) out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** Regex source of a segment without a class that crosses `/` (for a whole-path regex). */
export function segmentSource(segment: SegmentMatcher): string {
  switch (segment.kind) {
    case SegmentKind.Literal:
      return byteSource(segment.text);
    case SegmentKind.Suffix:
      return `[^/]*${byteSource(segment.text)}`;
    case SegmentKind.Prefix:
      return `${byteSource(segment.text)}[^/]*`;
    case SegmentKind.Any:
      return "[^/]*";
    default:
      return segment.source!;
  }
}

/** A name or path as a string of its UTF-8 bytes (one char per byte), for the byte regexes. */
export function asBytes(name: string): string {
  return /^[\x00-\x7f]*$/.test(name) ? name : Buffer.from(name, "utf8").toString("latin1");
}

type Token = { literal: string } | { star: true } | { one: true } | { klass: string; crosses: boolean };

/**
 * Tokenises a segment; undefined when globset would reject it (dangling
 * escape, reversed range). An unclosed `[` is a literal `[`, as git and
 * ripgrep read it.
 */
function tokenize(segment: string): Token[] | undefined {
  const tokens: Token[] = [];
  const chars = Array.from(segment);
  let index = 0;
  const pushLiteral = (character: string) => {
    const last = tokens[tokens.length - 1];
    if (last && "literal" in last) tokens[tokens.length - 1] = { literal: last.literal + character };
    else tokens.push({ literal: character });
  };
  while (index < chars.length) {
    const character = chars[index++]!;
    if (character === "\\") {
      if (index >= chars.length) return undefined;
      pushLiteral(chars[index++]!);
    } else if (character === "*") {
      const last = tokens[tokens.length - 1];
      if (!(last && "star" in last)) tokens.push({ star: true });
    } else if (character === "?") {
      tokens.push({ one: true });
    } else if (character === "[") {
      const open = index;
      let negated = false;
      if (chars[index] === "!" || chars[index] === "^") {
        negated = true;
        index += 1;
      }
      const ranges: Array<[string, string]> = [];
      let first = true;
      let inRange = false;
      let closed = false;
      while (index < chars.length) {
        const c = chars[index++]!;
        if (c === "]" && !first) {
          closed = true;
          break;
        }
        if (c === "-" && !first) {
          if (inRange) {
            const range = ranges[ranges.length - 1]!;
            if (range[0].codePointAt(0)! > 0x2d) return undefined;
            range[1] = "-";
            inRange = false;
          } else inRange = true;
        } else if (inRange) {
          const range = ranges[ranges.length - 1]!;
          if (range[0].codePointAt(0)! > c.codePointAt(0)!) return undefined;
          range[1] = c;
          inRange = false;
        } else ranges.push([c, c]);
        first = false;
      }
      if (!closed) {
        index = open;
        pushLiteral("[");
        continue;
      }
      if (inRange) ranges.push(["-", "-"]);
      // As globset writes it: each end as its UTF-8 bytes (a multi-byte end makes a byte range, as there).
      const body = ranges.map(([from, to]) => (from === to ? byteSource(from) : `${byteSource(from)}-${byteSource(to)}`)).join("");
      tokens.push({ klass: `[${negated ? "^" : ""}${body}]`, crosses: negated || ranges.some(([from, to]) => from <= "/" && "/" <= to) });
    } else pushLiteral(character);
  }
  return tokens;
}

/**
 * Compiles one segment (no `/` inside); undefined when the glob is invalid
 * (ripgrep then drops the whole line).
 */
export function compileSegment(segment: string): SegmentMatcher | undefined {
  if (segment === "**") return { kind: SegmentKind.Globstar, text: "", regex: undefined };
  const tokens = tokenize(segment);
  if (!tokens) return undefined;
  const isStar = (token: Token | undefined) => token !== undefined && "star" in token;
  const literalOf = (token: Token | undefined) => (token && "literal" in token ? token.literal : undefined);
  if (tokens.length === 0) return { kind: SegmentKind.Literal, text: "", regex: undefined };
  if (tokens.length === 1) {
    if (isStar(tokens[0])) return { kind: SegmentKind.Any, text: "", regex: undefined };
    const literal = literalOf(tokens[0]);
    if (literal !== undefined) return { kind: SegmentKind.Literal, text: literal, regex: undefined };
  }
  if (tokens.length === 2) {
    const suffix = isStar(tokens[0]) ? literalOf(tokens[1]) : undefined;
    if (suffix !== undefined) return { kind: SegmentKind.Suffix, text: suffix, regex: undefined };
    const prefix = isStar(tokens[1]) ? literalOf(tokens[0]) : undefined;
    if (prefix !== undefined) return { kind: SegmentKind.Prefix, text: prefix, regex: undefined };
  }
  const source = tokens.map((token) => ("literal" in token ? byteSource(token.literal) : "star" in token ? ".*" : "one" in token ? "." : token.klass)).join("");
  const crossesSlash = tokens.some((token) => "klass" in token && token.crosses);
  const pathSource = tokens
    .map((token) => ("literal" in token ? byteSource(token.literal) : "star" in token ? "[^/]*" : "one" in token ? "[^/]" : token.klass))
    .join("");
  try {
    return { kind: SegmentKind.Pattern, text: segment, regex: new RegExp(`^${source}$`, "s"), source: pathSource, crossesSlash };
  } catch {
    return undefined; // a byte range globset's regex compiler refuses too
  }
}
