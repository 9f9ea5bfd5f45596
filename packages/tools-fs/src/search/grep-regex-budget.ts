/**
 * Bounded regex time for the pure TypeScript Grep engine.
 *
 * JavaScript regexes backtrack: a pattern such as `(a+)+$` or `(.*a){20}`
 * can run for minutes on one line, and a regex running on the main thread
 * cannot be interrupted. So only patterns that cannot backtrack
 * ({@link cannotBacktrack}) are matched on the main thread; every other
 * pattern is matched on worker threads, which are terminated on abort or
 * when the call's regex time budget runs out ({@link patternTooExpensiveError}).
 */
import { ToolError } from "@agent-tools/core";

/** Default regex time budget of one Grep call of the pure TypeScript engine, in milliseconds. */
export const DEFAULT_REGEX_TIME_BUDGET_MS = 10_000;

/**
 * Whether a Grep pattern (Rust regex syntax) is matched in time linear in
 * the pattern and line lengths, whatever the input: no quantifier
 * (`*`, `+`, `?`, `{n,m}`) and no alternation (`|`) outside character
 * classes and escapes, so a failed attempt never retries another way.
 * Conservative: any doubt answers false.
 *
 * @example
 * cannotBacktrack("fetchUser\\(id"); // true (a literal)
 * cannotBacktrack("function\\s+\\w+"); // false (quantifiers)
 */
export function cannotBacktrack(pattern: string): boolean {
  let source = pattern;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (inline) {
    if (inline[1]!.includes("x")) return false; // extended mode: whitespace and comments
    source = source.slice(inline[0].length);
  }
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    if (character === "\\") {
      const next = source[index + 1];
      if (next === undefined) return false;
      index += 1;
      if ((next === "p" || next === "P" || next === "x" || next === "u") && source[index + 1] === "{") {
        index = source.indexOf("}", index);
        if (index === -1) return false;
      }
      continue;
    }
    if (character === "[") {
      // A class matches one character: its content never backtracks (nested classes are doubts).
      let cursor = index + 1;
      if (source[cursor] === "^") cursor += 1;
      if (source[cursor] === "]") cursor += 1;
      while (cursor < source.length && source[cursor] !== "]") {
        if (source[cursor] === "[") return false;
        cursor += source[cursor] === "\\" ? 2 : 1;
      }
      if (cursor >= source.length) return false;
      index = cursor;
      continue;
    }
    if (character === "*" || character === "+" || character === "{" || character === "|") return false;
    if (character === "?" && source[index - 1] !== "(") return false; // `(?:`, `(?P<` are group syntax
  }
  return true;
}

/**
 * The error of a Grep call whose regex matching ran out of its time budget
 * (almost always catastrophic backtracking), saying what to do next.
 */
export function patternTooExpensiveError(pattern: string, budgetMs: number): ToolError {
  return new ToolError(
    "timeout",
    `Grep stopped: matching the pattern "${pattern}" took longer than the regex time budget (${budgetMs} ms), so the pattern is too expensive for this search (catastrophic backtracking). ` +
      "Simplify the pattern: avoid nested quantifiers such as (a+)+ or (.*x){20}, alternatives that overlap such as (a|aa)+, and several .* in a row; prefer a plain literal or a specific character class. " +
      "Or narrow the search with path or file_pattern.",
    { details: { reason: "pattern_too_expensive", pattern, budgetMs } },
  );
}
