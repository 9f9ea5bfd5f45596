import { describe, expect, it } from "vitest";
import { findEditMatches, matchLineEndingsInText, toByteString } from "./edit-match.js";
import { dominantEol } from "./line-endings.js";
import { buildLineIndex, findLineMatchesInText } from "./line-match.js";
import { seededRandom as random } from "../__fixtures__/seeded-random.js";

/** The reference: the whole-string implementations of each pass. */
function reference(content: string, oldString: string, newString: string) {
  if (oldString === "") return null;
  const text = toByteString(content);
  const oldBytes = toByteString(oldString);
  const newBytes = toByteString(newString);
  const exact: Array<{ start: number; end: number }> = [];
  for (let index = text.indexOf(oldBytes); index !== -1 && oldBytes !== ""; index = text.indexOf(oldBytes, index + oldBytes.length))
    exact.push({ start: index, end: index + oldBytes.length });
  if (exact.length) return { strategy: "exact", ranges: exact };
  const eolOf = () => dominantEol(text);
  const strip = (matches: Array<{ start: number; end: number }>) => matches.map(({ start, end }) => ({ start, end }));
  const endings = matchLineEndingsInText(text, oldBytes, newBytes, eolOf);
  if (endings.length) return { strategy: "line-endings", ranges: strip(endings) };
  const index = buildLineIndex(text);
  for (const pass of ["trailing-whitespace", "indentation"] as const) {
    const found = findLineMatchesInText(text, index, { oldBytes, newBytes, pass, eolOf });
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
      if (next() < 0.1) content = `\uFEFF${content}`;
      const from = Math.floor(next() * lineCount);
      const to = Math.min(lineCount, from + 1 + Math.floor(next() * 3));
      let needle = lines
        .slice(from, to)
        .map((line) => pick([line, line.trim(), line.trimEnd(), `  ${line.trim()}`, line]))
        .join(pick(["\n", "\r\n"]));
      if (next() < 0.4) needle += "\n";
      if (next() < 0.1) needle = `\n${needle}`;
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
        .map((line) => pick([line, line.trim(), line.trimEnd(), `  ${line.trim()}`]))
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

/** Unicode White_Space as Rust's `trim_end` strips it (JavaScript's `trimEnd` also strips U+FEFF). */
const UNICODE_SPACES = ["\u3000", "\u00A0", "\u2003", "\u2000", "\u200A", "\u202F", "\u205F", "\u1680", "\u0085"];

/** Both implementations on one case: the byte matcher and the whole-string reference. */
function both(content: string, needle: string, replacement: string) {
  const actual = findEditMatches(Buffer.from(content), needle, replacement);
  const simplified = actual ? { strategy: actual.strategy, ranges: actual.matches.map(({ start, end }) => ({ start, end })) } : null;
  return { actual: simplified, expected: reference(content, needle, replacement) };
}

describe("Unicode whitespace in the trailing-whitespace and indentation passes", () => {
  it("matches a CJK line ending in an ideographic space, in the file or in old_string", () => {
    const file = "第一行\n你好世界\u3000\n第三行\n";
    const inFile = both(file, "你好世界\n第三行", "再见");
    expect(inFile.actual).toEqual({
      strategy: "trailing-whitespace",
      ranges: [{ start: Buffer.byteLength("第一行\n"), end: Buffer.byteLength("第一行\n你好世界\u3000\n第三行") }],
    });
    expect(inFile.expected).toEqual(inFile.actual);
    const inNeedle = both("第一行\n你好世界\n第三行\n", "你好世界\u3000\u3000\n第三行\u00A0", "再见");
    expect(inNeedle.actual?.strategy).toBe("trailing-whitespace");
    expect(inNeedle.expected).toEqual(inNeedle.actual);
  });

  it("treats each White_Space character as trailing whitespace, and U+FEFF (not White_Space) as content", () => {
    for (const space of UNICODE_SPACES) {
      const result = both(`a\nvalue = 1${space}\nb\n`, "value = 1\nb", "x");
      expect(result.actual?.strategy, JSON.stringify(space)).toBe("trailing-whitespace");
      expect(result.expected).toEqual(result.actual);
    }
    const feff = both("a\nvalue = 1\uFEFF\nb\n", "value = 1\nb", "x");
    expect(feff.actual).toBeNull();
    expect(feff.expected).toBeNull();
  });

  it("shifts indentation made of ideographic spaces", () => {
    const result = both("始\n\u3000\u3000中间\n\u3000\u3000结束\n", "中间\n结束\n", "新\n");
    expect(result.actual?.strategy).toBe("indentation");
    expect(result.expected).toEqual(result.actual);
    const edited = findEditMatches(Buffer.from("始\n\u3000\u3000中间\n\u3000\u3000结束\n"), "中间\n结束\n", "新\n");
    expect(Buffer.from(edited!.matches[0]!.replacement, "latin1").toString("utf8")).toBe("\u3000\u3000新\n");
  });

  it("does not take a lone UTF-8 continuation byte pattern for a space", () => {
    // U+4E00 is E4 B8 80 and U+3000 is E3 80 80: ending in 80 alone is no space.
    const result = both("x\n一\ny\n", "一\u3000\ny", "z");
    expect(result.actual?.strategy).toBe("trailing-whitespace");
    expect(result.expected).toEqual(result.actual);
    expect(both("x\n一二\ny\n", "一\ny", "z").actual).toBeNull();
  });

  it("agrees with the reference on 2000 random small files with Unicode whitespace", () => {
    const next = random(2026);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
    const words = ["你好", "世界", "foo", "x = 1", "", "}", "é", "一"];
    for (let round = 0; round < 2000; round += 1) {
      const lineCount = 1 + Math.floor(next() * 6);
      const lines: string[] = [];
      for (let line = 0; line < lineCount; line += 1) lines.push(pick(["", "  ", "\u3000", "\t"]) + pick(words) + pick(["", " ", ...UNICODE_SPACES, "\uFEFF"]));
      const content = lines.map((line) => line + pick(["\n", "\r\n"])).join("");
      const from = Math.floor(next() * lineCount);
      const to = Math.min(lineCount, from + 1 + Math.floor(next() * 2));
      const needle = lines
        .slice(from, to)
        .map((line) => pick([line, line.trimEnd(), line.trim() + pick(UNICODE_SPACES), `\u3000${line.trim()}`]))
        .join("\n");
      const { actual, expected } = both(content, needle, pick(["", "X\n", "\u3000Y"]));
      expect(actual, JSON.stringify({ content, needle })).toEqual(expected);
    }
  });

  it("agrees with the reference on files above 256 KB (the byte path's probe search)", () => {
    const next = random(99);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
    const words = ["你好世界();", "const 值 = 1;", "return 结果;", "}", "", "gamma"];
    const strategies = new Set<string>();
    for (let round = 0; round < 20; round += 1) {
      const lines: string[] = [];
      let size = 0;
      while (size < 300_000) {
        const line = pick(["", "  ", "\u3000", "\t"]) + pick(words) + pick(["", "", ...UNICODE_SPACES]);
        lines.push(line);
        size += Buffer.byteLength(line) + 1;
      }
      const content = lines.map((line) => `${line}\n`).join("");
      expect(Buffer.byteLength(content)).toBeGreaterThan(256 * 1024);
      const from = Math.floor(next() * (lines.length - 3));
      let needle = lines
        .slice(from, from + 1 + Math.floor(next() * 3))
        .map((line) => pick([line, line.trimEnd(), `${line.trim()}\u3000`, `  ${line.trim()}`]))
        .join("\n");
      if (needle.trim() === "") needle = "你好世界();";
      const { actual, expected } = both(content, needle, pick(["", "X\n"]));
      expect(actual, JSON.stringify({ round, needle })).toEqual(expected);
      strategies.add(actual?.strategy ?? "none");
    }
    expect(strategies.has("trailing-whitespace") || strategies.has("indentation")).toBe(true);
  });
});

describe("the shared anchor line of the line passes", () => {
  it("finds trailing-whitespace windows whose longest line is not the longest without indentation", () => {
    // Line 0 is the longest with its indentation, line 1 without: the passes anchor on line 1.
    const lines = ["                x();", "doSomethingLonger();", "}"];
    const file = `head\n${lines[0]}  \n${lines[1]}\t\n${lines[2]}\n`;
    const needle = `${lines.join("\n")}\n`;
    for (const content of [file, `${"filler line\n".repeat(30_000)}${file}${"tail line\n".repeat(30_000)}`]) {
      const { actual, expected } = both(content, needle, "y\n");
      expect(actual?.strategy).toBe("trailing-whitespace");
      expect(actual).toEqual(expected);
    }
  });

  it("finds indentation windows and every pass on large files through one probe", () => {
    const block = "    if (ready) {\n        alphaMarker();\n    }\n";
    const content = `${"filler line\n".repeat(30_000)}${block}${"tail line\n".repeat(30_000)}${block.replace(/\n/g, "\r\n")}`;
    for (const needle of ["if (ready) {\n    alphaMarker();\n}", "    if (ready) {\n        alphaMarker();\n    }\n", "alphaMarker();\n    }"]) {
      const { actual, expected } = both(content, needle, "z();");
      expect(actual, needle).toEqual(expected);
      expect(actual, needle).not.toBeNull();
    }
  });
});
