import { compileSegment, SegmentKind, type SegmentMatcher } from "./gitignore-glob.js";

/**
 * One line of an ignore file, parsed as ripgrep parses it (the `ignore`
 * crate): `#` comments, trailing whitespace dropped unless the line ends
 * with an escaped space, `\!` / `\#` escapes, `!` re-inclusion, a leading
 * `/` or an inner `/` anchors the glob to the file's directory, a trailing
 * `/` matches directories only, `x/**` matches below `x` only, `{a,b}`
 * alternatives. The glob is split into path segments.
 */
export interface IgnorePattern {
  /** Line order among the file's rules (the last matching rule wins). */
  readonly index: number;
  /** `!rule`: re-includes. */
  readonly negated: boolean;
  /** `rule/`: directories only. */
  readonly directoryOnly: boolean;
  /**
   * Alternatives (one per `{a,b}` expansion), each the glob's segments.
   * A single alternative of one segment after a leading `**` is a
   * base-name rule: see {@link IgnorePattern.name}.
   */
  readonly paths: ReadonlyArray<readonly SegmentMatcher[]>;
  /**
   * Set for base-name rules (no `/` but a leading `**\/`): the matcher of
   * the entry's name at any depth (`Any` for `**` alone).
   */
  readonly name: SegmentMatcher | undefined;
}

/**
 * Expands `{a,b}` alternatives (globset does not nest them); undefined
 * when the braces do not pair up (ripgrep drops such a line).
 */
function expandBraces(glob: string): string[] | undefined {
  let open = -1;
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index];
    if (character === "\\") index += 1;
    else if (character === "[") {
      // Skip a class: `]` right after `[`, `[!` or `[^` is literal.
      let cursor = index + 1;
      if (glob[cursor] === "!" || glob[cursor] === "^") cursor += 1;
      if (glob[cursor] === "]") cursor += 1;
      const close = glob.indexOf("]", cursor);
      if (close === -1) return [glob]; // the segment compiler rejects it
      index = close;
    } else if (character === "{") {
      if (open !== -1) return undefined; // nested
      open = index;
    } else if (character === "}") {
      if (open === -1) return undefined;
      const head = glob.slice(0, open);
      const tail = glob.slice(index + 1);
      const choices = splitTopLevelCommas(glob.slice(open + 1, index));
      const expandedTails = expandBraces(tail);
      if (!expandedTails) return undefined;
      const out: string[] = [];
      for (const choice of choices) for (const rest of expandedTails) out.push(head + choice + rest);
      return out;
    }
  }
  return open === -1 ? [glob] : undefined;
}

function splitTopLevelCommas(body: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let index = 0; index < body.length; index += 1) {
    const character = body[index]!;
    if (character === "\\" && index + 1 < body.length) {
      current += character + body[index + 1];
      index += 1;
    } else if (character === ",") {
      parts.push(current);
      current = "";
    } else current += character;
  }
  parts.push(current);
  return parts;
}

/** Splits a glob on `/` (an escaped `\/` is a separator too). */
function splitSegments(glob: string): string[] {
  const segments = glob.split("/");
  return segments.map((segment, index) => {
    if (index === segments.length - 1) return segment;
    let backslashes = 0;
    for (let cursor = segment.length - 1; cursor >= 0 && segment[cursor] === "\\"; cursor -= 1) backslashes += 1;
    return backslashes % 2 === 1 ? segment.slice(0, -1) : segment;
  });
}

/** Parses one line; undefined for comments, blank lines and globs ripgrep rejects. */
export function parseIgnoreLine(raw: string, index: number): IgnorePattern | undefined {
  let line = raw;
  if (line.startsWith("#")) return undefined;
  if (!line.endsWith("\\ ")) line = line.trimEnd();
  if (line === "") return undefined;
  let negated = false;
  let absolute = false;
  if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  } else {
    if (line.startsWith("!")) {
      negated = true;
      line = line.slice(1);
    }
    if (line.startsWith("/")) {
      line = line.slice(1);
      absolute = true;
    }
  }
  let directoryOnly = false;
  if (line.endsWith("/")) {
    directoryOnly = true;
    line = line.slice(0, -1);
    if (line.endsWith("\\")) line = line.slice(0, -1);
  }
  if (line === "") return undefined;
  let glob = line;
  if (!absolute && !line.includes("/") && !(line.startsWith("**/") || line === "**")) glob = `**/${line}`;
  if (glob.endsWith("/**")) glob += "/*";
  const alternatives = expandBraces(glob);
  if (!alternatives) return undefined;
  const paths: SegmentMatcher[][] = [];
  for (const alternative of alternatives) {
    const segments: SegmentMatcher[] = [];
    for (const segment of splitSegments(alternative)) {
      const matcher = compileSegment(segment);
      if (!matcher) return undefined;
      // `**/**` is one `**`.
      if (matcher.kind === SegmentKind.Globstar && segments[segments.length - 1]?.kind === SegmentKind.Globstar) continue;
      segments.push(matcher);
    }
    paths.push(segments);
  }
  let name: SegmentMatcher | undefined;
  const only = paths.length === 1 ? paths[0]! : undefined;
  if (only && only.length === 2 && only[0]!.kind === SegmentKind.Globstar && only[1]!.kind !== SegmentKind.Globstar) name = only[1];
  else if (only && only.length === 1 && only[0]!.kind === SegmentKind.Globstar) name = { kind: SegmentKind.Any, text: "", regex: undefined };
  return { index, negated, directoryOnly, paths, name };
}

/** Parses an ignore file's text into its rules, in order (a leading byte-order mark is dropped). */
export function parseIgnoreFile(text: string): IgnorePattern[] {
  const rules: IgnorePattern[] = [];
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  for (const line of lines) {
    const rule = parseIgnoreLine(line, rules.length);
    if (rule) rules.push(rule);
  }
  return rules;
}
