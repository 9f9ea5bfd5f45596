import { SdkError } from "@agent-tools/core";
import type { CommandPart, ShellWord } from "./command-parts.js";
import { commandBaseName } from "./command-wrappers.js";
import type { ShellParser } from "./shell-parser.js";

/** One element of a compiled pattern: any number of words, or one word with `*` wildcards inside it. */
type PatternElement = { readonly kind: "any" } | { readonly kind: "word"; readonly segments: readonly string[] };

/** A compiled Bash command pattern (the specifier of `Bash(...)` and `ManagedProcess(...)`). */
export interface CommandPattern {
  /** The specifier as written. */
  readonly source: string;
  /** The word matchers, command name first. */
  readonly elements: readonly PatternElement[];
  /** The specifier used the legacy `:*` suffix. */
  readonly legacyPrefix: boolean;
}

/**
 * Compiles a command pattern. The specifier is parsed by the same shell parser as command lines, so quoting means the same:
 * - words are compared after quote removal (`git "status"` is `git status`);
 * - a standalone unquoted `*` word matches any number of words, none included (`ls *` matches `ls` and `ls -la src`);
 * - an unquoted `*` inside a word matches any characters within that one word (`test:*` matches `test:unit`); a quoted `"*"` is a literal star;
 * - legacy `:*` at the very end (`npm run test:*`) means the words before it, then any words. We read it on a word boundary: it matches
 *   `npm run test` and `npm run test --watch` but not `npm run testing` nor `npm run test:unit` (Claude Code's docs call `:*` a prefix match;
 *   a plain string prefix would let `npm run test-and-deploy` through an allow rule). Write `npm run test*` for a string prefix of the word.
 * @throws SdkError("invalid_options") naming the pattern when it is empty, does not parse (a quote left open), is not one simple command
 *   (`;`, `&&`, `|`, a redirection, a comment), starts with `VAR=x` (stripped from commands before matching, so it can never match), or holds an
 *   expansion such as `$HOME` (quote it, `'$HOME'`, to match the text).
 * @example
 * const pattern = compileCommandPattern(shell, "git * main");
 * matchesCommandPart(pattern, shell.parse("git push --force origin main").parts[0], "deny"); // true
 */
export function compileCommandPattern(parser: ShellParser, specifier: string): CommandPattern {
  const fail = (why: string): never => {
    throw new SdkError("invalid_options", `The Bash command pattern "${specifier}" ${why}.`, { pattern: specifier });
  };
  const trimmed = specifier.trim();
  const legacyPrefix = trimmed.endsWith(":*");
  const body = legacyPrefix ? trimmed.slice(0, -2).trimEnd() : trimmed;
  if (body === "") fail(legacyPrefix ? 'has no command before ":*"' : "is empty");
  const parsed = parser.parse(body);
  if (!parsed.ok) fail(`does not parse as a shell command (${parsed.reason})`);
  const part = parsed.parts[0];
  if (!part || part.text !== body) fail("must be one simple command (no ;, &&, ||, |, redirection, subshell or comment)");
  if (part.assignments.length > 0) fail(`starts with ${part.assignments[0]}=...: assignments are removed from commands before matching, so it can never match`);
  if (part.notAllowableReason?.startsWith("it writes output")) fail("must not hold a redirection");
  const elements: PatternElement[] = part.words.map((word) => compileWord(word, fail));
  if (legacyPrefix) elements.push({ kind: "any" });
  return { source: specifier, elements, legacyPrefix };
}

function compileWord(word: ShellWord, fail: (why: string) => never): PatternElement {
  if (!word.dynamic) return { kind: "word", segments: [word.text] };
  if (!word.wildcards) return fail(`holds the expansion "${word.text}", which a rule cannot compare; quote it ('${word.text}') to match the text`);
  if (word.text === "*" && word.wildcards.length === 1) return { kind: "any" };
  const segments: string[] = [];
  let from = 0;
  for (const star of word.wildcards) {
    segments.push(word.text.slice(from, star));
    from = star + 1;
  }
  segments.push(word.text.slice(from));
  return { kind: "word", segments };
}

/**
 * True when `pattern` matches the simple command `part` (its words after `VAR=x` prefixes).
 * - `"allow"`: a part that is not allowable never matches; a dynamic word (`$X`, `$(..)`, an unquoted glob) matches only a standalone `*`,
 *   since it may become several words or an option; a dynamic command name never matches.
 * - `"deny"` (also used for ask rules): fail closed. A dynamic word matches any run of pattern words, none included, and the command
 *   name also matches by its base name (`/bin/rm -rf x` matches `rm -rf *`).
 */
export function matchesCommandPart(pattern: CommandPattern, part: CommandPart, purpose: "allow" | "deny"): boolean {
  const words = part.words;
  if (words.length === 0) return false;
  if (purpose === "allow" && (!part.allowable || words[0].dynamic)) return false;
  const elements = pattern.elements;
  const width = words.length + 1;
  // matched[i * width + j]: elements from i match words from j. Filled from the end, so no recursion on long lines.
  let next = new Uint8Array(width);
  let current = new Uint8Array(width);
  // anyBelow[j]: some row k > i matched words from j (a dynamic word in deny may stand for elements i..k-1).
  const anyBelow = new Uint8Array(width);
  next[words.length] = 1;
  for (let j = words.length - 1; j >= 0; j--) next[j] = purpose === "deny" && words[j].dynamic && next[j + 1] ? 1 : 0;
  for (let j = 0; j < width; j++) anyBelow[j] = next[j];
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i];
    current[words.length] = element.kind === "any" ? next[words.length] : 0;
    for (let j = words.length - 1; j >= 0; j--) {
      const word = words[j];
      let matched: boolean;
      if (purpose === "deny" && word.dynamic) matched = current[j + 1] === 1 || anyBelow[j + 1] === 1;
      else if (element.kind === "any") matched = next[j] === 1 || current[j + 1] === 1;
      else matched = !word.dynamic && next[j + 1] === 1 && wordMatches(element.segments, word.text, j === 0 && purpose === "deny");
      current[j] = matched ? 1 : 0;
    }
    for (let j = 0; j < width; j++) anyBelow[j] |= current[j];
    [next, current] = [current, next];
  }
  return next[0] === 1;
}

function wordMatches(segments: readonly string[], text: string, byBaseName: boolean): boolean {
  if (globMatches(segments, text)) return true;
  return byBaseName && !segments.some((segment) => segment.includes("/")) && text.includes("/") && globMatches(segments, commandBaseName(text));
}

/** `segments` joined by `*` wildcards; greedy with backtracking to the last star only, so it runs in linear-ish time. */
function globMatches(segments: readonly string[], text: string): boolean {
  if (segments.length === 1) return segments[0] === text;
  const first = segments[0];
  const last = segments[segments.length - 1];
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (let index = 1; index < segments.length - 1; index++) {
    const found = text.indexOf(segments[index], position);
    if (found < 0 || found + segments[index].length > end) return false;
    position = found + segments[index].length;
  }
  return true;
}

/** Facts about a pattern for the linter: `*` alone, a `*` word followed by more words (`git * main` allows every git command ending in main), `:*`. */
export function commandPatternTraits(pattern: CommandPattern): {
  readonly matchesEverything: boolean;
  readonly wildcardInMiddle: boolean;
  readonly legacyPrefix: boolean;
} {
  const elements = pattern.elements;
  const firstAny = elements.findIndex((element) => element.kind === "any");
  return {
    matchesEverything: elements.length > 0 && elements.every((element) => element.kind === "any"),
    wildcardInMiddle: firstAny >= 0 && elements.slice(firstAny).some((element) => element.kind === "word"),
    legacyPrefix: pattern.legacyPrefix,
  };
}
