import { describe, expect, it } from "vitest";
import { findEditMatches, matchLineEndingsInText, toByteString } from "./edit-match.js";
import { dominantEol } from "./line-endings.js";
import { buildLineIndex, findLineMatchesInText } from "./line-match.js";

/** A small deterministic random generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The reference: the whole-string implementations of each pass. */
function reference(content: string, oldString: string, newString: string) {
  if (oldString === "") return null;
  const text = toByteString(content);
  const oldBytes = toByteString(oldString);
  const newBytes = toByteString(newString);
  const exact: Array<{ start: number; end: number }> = [];
  for (let index = text.indexOf(oldBytes); index !== -1 && oldBytes !== ""; index = text.indexOf(oldBytes, index + oldBytes.length)) exact.push({ start: index, end: index + oldBytes.length });
  if (exact.length) return { strategy: "exact", ranges: exact };
  const eolOf = () => dominantEol(text);
  const strip = (matches: Array<{ start: number; end: number }>) => matches.map(({ start, end }) => ({ start, end }));
  const endings = matchLineEndingsInText(text, oldBytes, newBytes, eolOf);
  if (endings.length) return { strategy: "line-endings", ranges: strip(endings) };
  const index = buildLineIndex(text);
  for (const pass of ["trailing-whitespace", "indentation"] as const) {
    const found = findLineMatchesInText(text, index, oldBytes, newBytes, pass, eolOf);
    if (found.length) return { strategy: pass, ranges: strip(found) };
  }
  return null;
}

describe("byte matcher agrees with the whole-string reference", () => {
  it("on 3000 random files and needles", () => {
    const next = random(42);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
    const words = ["a", "b", "foo", "bar()", "x = 1", "", "}", "{", "é"];
    for (let round = 0; round < 3000; round += 1) {
      const lineCount = 1 + Math.floor(next() * 8);
      const lines: string[] = [];
      for (let line = 0; line < lineCount; line += 1) {
        const indent = pick(["", "", "  ", "    ", "\t"]);
        const trailing = pick(["", "", " ", "\t", "  "]);
        lines.push(indent + pick(words) + trailing);
      }
      const eols = lines.map(() => pick(["\n", "\r\n", "\n"]));
      let content = lines.map((line, index) => line + eols[index]).join("");
      if (next() < 0.3) content = content.slice(0, -eols[eols.length - 1]!.length);
      if (next() < 0.1) content = "\uFEFF" + content;
      const from = Math.floor(next() * lineCount);
      const to = Math.min(lineCount, from + 1 + Math.floor(next() * 3));
      let needle = lines.slice(from, to).map((line) => pick([line, line.trim(), line.trimEnd(), "  " + line.trim(), line])).join(pick(["\n", "\r\n"]));
      if (next() < 0.4) needle += "\n";
      if (next() < 0.1) needle = "\n" + needle;
      const replacement = pick(["", "X\n", "  Y\n  Z", "\tq"]);
      const actual = findEditMatches(Buffer.from(content), needle, replacement);
      const expected = reference(content, needle, replacement);
      const simplified = actual ? { strategy: actual.strategy, ranges: actual.matches.map(({ start, end }) => ({ start, end })) } : null;
      expect(simplified, JSON.stringify({ content, needle })).toEqual(expected);
    }
  });
});

describe("byte matcher on large files (probe search and shared hit lists)", () => {
  it("agrees with the reference on 40 random files above 256 KB", () => {
    const next = random(7);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
    const words = ["alphaMarker();", "betaMarker();", "const value = 1;", "return result;", "}", "", "if (ready) {", "gamma", "Marker"];
    const strategies = new Set<string>();
    for (let round = 0; round < 40; round += 1) {
      const lines: string[] = [];
      const crlfShare = pick([0, 0.5, 1]);
      let size = 0;
      while (size < 300_000) {
        const line = pick(["", "  ", "    ", "\t"]) + pick(words) + pick(["", "", " ", "\t"]);
        lines.push(line);
        size += line.length + 2;
      }
      const eols = lines.map(() => (next() < crlfShare ? "\r\n" : "\n"));
      const content = lines.map((line, index) => line + eols[index]).join("");
      const from = Math.floor(next() * (lines.length - 3));
      const count = 1 + Math.floor(next() * 3);
      let needle = lines
        .slice(from, from + count)
        .map((line) => pick([line, line.trim(), line.trimEnd(), "  " + line.trim()]))
        .join(pick(["\n", "\r\n"]));
      if (next() < 0.5) needle += "\n";
      if (needle.trim() === "") needle = "alphaMarker();\nbetaMarker();";
      const replacement = pick(["", "X\n", "  Y\n  Z"]);
      const actual = findEditMatches(Buffer.from(content), needle, replacement);
      const expected = reference(content, needle, replacement);
      const simplified = actual ? { strategy: actual.strategy, ranges: actual.matches.map(({ start, end }) => ({ start, end })) } : null;
      expect(simplified, JSON.stringify({ round, needle })).toEqual(expected);
      strategies.add(actual?.strategy ?? "none");
    }
    expect(strategies.size).toBeGreaterThanOrEqual(3);
  });
});
