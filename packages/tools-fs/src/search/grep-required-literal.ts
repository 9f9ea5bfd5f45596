/**
 * Literals every match of a Grep pattern must contain: what the pure
 * TypeScript engine looks for in raw bytes before it decodes a line.
 * Conservative: any doubt answers undefined (then every line is matched).
 */

/**
 * A literal that every match of the regex `pattern` (Rust syntax) contains:
 * the longest run (>= 3) of plain characters (letters, digits, `_`, `-`,
 * space) at the top level, outside groups, classes, escapes and quantified
 * characters. Undefined when there is none or the pattern is not simple
 * enough to be sure (alternation, inline flags other than leading ones,
 * extended mode).
 *
 * @example
 * requiredLiteral("function\\s+\\w+\\("); // "function"
 */
export function requiredLiteral(pattern: string): string | undefined {
  let source = pattern;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (inline) {
    if (inline[1]!.includes("x")) return undefined;
    source = source.slice(inline[0].length);
  }
  if (source.includes("|") || source.includes("(?")) return undefined;
  let best = "";
  let run = "";
  const endRun = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  let depth = 0;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    if (character === "\\") {
      endRun();
      const next = source[index + 1];
      index += 1;
      if ((next === "p" || next === "P" || next === "x" || next === "u") && source[index + 1] === "{") index = source.indexOf("}", index);
      if (index === -1) return undefined;
      continue;
    }
    if (character === "[") {
      endRun();
      const cursor = classEnd(source, index);
      if (cursor >= source.length) return undefined;
      index = cursor;
      continue;
    }
    if (character === "{") {
      endRun();
      const close = source.indexOf("}", index);
      if (close === -1) return undefined;
      index = close;
      continue;
    }
    if (character === "(") depth += 1;
    if (character === ")") depth -= 1;
    if (depth === 0 && /[A-Za-z0-9_ -]/.test(character)) {
      const next = source[index + 1];
      if (next === "?" || next === "*" || next === "+" || next === "{")
        endRun(); // optional or repeated: not a fixed part
      else run += character;
      continue;
    }
    endRun();
  }
  endRun();
  return best.length >= 3 ? best : undefined;
}

/** Most alternatives {@link requiredAlternatives} gives (each is one more pass over a file). */
const MAX_ALTERNATIVES = 8;

/**
 * Alternatives one of which every match of `pattern` contains, for a
 * pattern whose only alternation is either at the top level (`foo|bar`:
 * the {@link requiredLiteral} of each side) or inside one plain group of
 * literals (`(return|const)\s`, the group neither quantified nor holding
 * anything but letters, digits, `_`, `-` and spaces). Each alternative has
 * at least 3 characters; at most 8 of them. Undefined otherwise.
 *
 * @example
 * requiredAlternatives("(return|const)\\s"); // ["return", "const"]
 */
export function requiredAlternatives(pattern: string): string[] | undefined {
  let source = pattern;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (inline) {
    if (inline[1]!.includes("x")) return undefined;
    source = source.slice(inline[0].length);
  }
  if (!source.includes("|") || source.includes("(?")) return undefined;
  const top = splitTopLevel(source);
  if (!top) return undefined;
  let alternatives: Array<string | undefined>;
  if (top.length > 1) alternatives = top.map((side) => (side.includes("|") ? undefined : requiredLiteral(side)));
  else {
    const group = /\(([A-Za-z0-9_ |-]+)\)(?![?*+{])/.exec(source);
    if (!group || source.indexOf("|", group.index + group[0].length) !== -1 || source.lastIndexOf("|", group.index) !== -1) return undefined;
    // The group is at the top level: not inside another group, a class or after an escape.
    if (depthAt(source, group.index) !== 0) return undefined;
    alternatives = group[1]!.split("|").map((side) => (side.length >= 3 ? side : undefined));
  }
  if (alternatives.length > MAX_ALTERNATIVES || alternatives.some((side) => side === undefined)) return undefined;
  return alternatives as string[];
}

/** Index of the `]` closing the character class that opens at `open` (a `[`); `source.length` when it is not closed. */
function classEnd(source: string, open: number): number {
  let cursor = open + 1;
  if (source[cursor] === "^") cursor += 1;
  if (source[cursor] === "]") cursor += 1;
  while (cursor < source.length && source[cursor] !== "]") cursor += source[cursor] === "\\" ? 2 : 1;
  return cursor;
}

/** `source` split at its top-level `|` (outside groups, classes and escapes); undefined when a group or class is not closed. */
function splitTopLevel(source: string): string[] | undefined {
  const sides: string[] = [];
  let depth = 0;
  let from = 0;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    if (character === "\\") index += 1;
    else if (character === "[") {
      const cursor = classEnd(source, index);
      if (cursor >= source.length) return undefined;
      index = cursor;
    } else if (character === "(") depth += 1;
    else if (character === ")") depth -= 1;
    else if (character === "|" && depth === 0) {
      sides.push(source.slice(from, index));
      from = index + 1;
    }
  }
  if (depth !== 0) return undefined;
  sides.push(source.slice(from));
  return sides;
}

/** Group depth at `offset` of `source` (escapes and classes skipped); -1 when `offset` is inside a class or an escape. */
function depthAt(source: string, offset: number): number {
  let depth = 0;
  for (let index = 0; index < offset; index += 1) {
    const character = source[index]!;
    if (character === "\\") index += 1;
    else if (character === "[") {
      index = classEnd(source, index);
    } else if (character === "(") depth += 1;
    else if (character === ")") depth -= 1;
    if (index >= offset) return -1;
  }
  return depth;
}
