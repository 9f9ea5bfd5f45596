import { compileSegment, SegmentKind, type SegmentMatcher, segmentSource } from "./gitignore-glob.js";

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
  /**
   * Set instead of segment matching when a class can match `/` (a globset
   * quirk ripgrep has): one regex per alternative over the whole path
   * relative to the file's directory, as UTF-8 bytes.
   */
  readonly wholePaths: readonly RegExp[] | undefined;
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
      const close = classEnd(glob, index);
      if (close !== -1) index = close;
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

/** Where the class opening at `open` ends (its `]`), or -1 when unclosed (then `[` is literal). */
function classEnd(glob: string, open: number): number {
  let cursor = open + 1;
  if (glob[cursor] === "!" || glob[cursor] === "^") cursor += 1;
  if (glob[cursor] === "]") cursor += 1;
  return glob.indexOf("]", cursor);
}

/** Splits a glob on `/` outside classes (an escaped `\/` is a separator too). */
function splitSegments(glob: string): string[] {
  const segments: string[] = [];
  let start = 0;
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index];
    if (character === "\\") {
      if (glob[index + 1] === "/") {
        segments.push(glob.slice(start, index));
        start = index + 2;
      }
      index += 1;
    } else if (character === "[") {
      const end = classEnd(glob, index);
      if (end !== -1) index = end;
    } else if (character === "/") {
      segments.push(glob.slice(start, index));
      start = index + 1;
    }
  }
  segments.push(glob.slice(start));
  return segments;
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
  if (line === "") {
    // `/` matches nothing; `!`, `\/` and the like become `**/`: every entry.
    if (absolute) return undefined;
    const any = { kind: SegmentKind.Any, text: "", regex: undefined };
    return { index, negated, directoryOnly, paths: [[{ kind: SegmentKind.Globstar, text: "", regex: undefined }, any]], name: any, wholePaths: undefined };
  }
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
  if (paths.some((segments) => segments.some((segment) => segment.crossesSlash))) {
    const wholePaths: RegExp[] = [];
    for (const segments of paths) {
      const regex = wholePathRegex(segments);
      if (!regex) return undefined;
      wholePaths.push(regex);
    }
    return { index, negated, directoryOnly, paths: [], name: undefined, wholePaths };
  }
  let name: SegmentMatcher | undefined;
  const only = paths.length === 1 ? paths[0]! : undefined;
  if (only && only.length === 2 && only[0]!.kind === SegmentKind.Globstar && only[1]!.kind !== SegmentKind.Globstar) name = only[1];
  else if (only && only.length === 1 && only[0]!.kind === SegmentKind.Globstar) name = { kind: SegmentKind.Any, text: "", regex: undefined };
  return { index, negated, directoryOnly, paths, name, wholePaths: undefined };
}

/** The whole-path regex of an alternative's segments, with globset's `**` forms. */
function wholePathRegex(segments: readonly SegmentMatcher[]): RegExp | undefined {
  let source = "";
  segments.forEach((segment, index) => {
    const previousGlobstar = index > 0 && segments[index - 1]!.kind === SegmentKind.Globstar;
    if (segment.kind === SegmentKind.Globstar) {
      if (segments.length === 1) source += ".*";
      else if (index === 0) source += "(?:/?|.*/)";
      else if (index === segments.length - 1) source += "/.*";
      else source += "(?:/|/.*/)";
      return;
    }
    if (index > 0 && !previousGlobstar) source += "/";
    source += segmentSource(segment);
  });
  try {
    return new RegExp(`^${source}$`, "s");
  } catch {
    return undefined;
  }
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
