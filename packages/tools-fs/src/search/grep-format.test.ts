import { describe, expect, it } from "vitest";
import { joinDisplay } from "./file-walker.js";
import { renderGrep } from "./grep-format.js";
import { type GrepByteRange, type GrepFileHits, type GrepFormatOptions, clipLine } from "./grep-result.js";
import { GrepTextBuilder } from "./grep-text-builder.js";
import { seededRandom as random } from "../__fixtures__/seeded-random.js";

/** The content mode as it was rendered with strings (join of one string per line): the reference. */
function renderContentWithStrings(files: GrepFileHits[], options: GrepFormatOptions): string {
  const sorted = files.filter((file) => file.matchCount > 0).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let matchCount = 0;
  for (const file of sorted) matchCount += file.matchCount;
  if (sorted.length === 0) return `No matches for pattern "${options.pattern}" in ${options.displayDirectory}.`;
  const out: string[] = [];
  let index = 0;
  let returned = 0;
  const end = options.offset + options.headLimit;
  for (const file of sorted) {
    const count = file.matchCount;
    if (index + count <= options.offset) {
      index += count;
      continue;
    }
    if (index >= end) break;
    const from = Math.max(0, options.offset - index);
    const to = Math.min(count, end - index);
    const name = joinDisplay(options.displayDirectory, file.path);
    const matchLines = file.matchLines();
    const matchSet = options.context > 0 ? new Set(matchLines) : undefined;
    let lastPrinted = -1;
    for (let position = from; position < to; position += 1) {
      const line = matchLines[position]!;
      if (!matchSet) {
        out.push(`${name}:${line}: ${clipLine(file.lineText(line) ?? "")}`);
        continue;
      }
      const first = Math.max(1, line - options.context, lastPrinted + 1);
      if (lastPrinted !== -1 && first > lastPrinted + 1) out.push("--");
      for (let current = first; current <= line + options.context; current += 1) {
        const text = file.lineText(current);
        if (text === undefined) break;
        out.push(matchSet.has(current) ? `${name}:${current}: ${clipLine(text)}` : `${name}-${current}- ${clipLine(text)}`);
        lastPrinted = current;
      }
    }
    if (matchSet && out.length && out[out.length - 1] !== "--") out.push("--");
    returned += to - from;
    index += count;
  }
  if (out[out.length - 1] === "--") out.pop();
  let text =
    `Found ${matchCount} matching lines in ${sorted.length} files` +
    (returned ? ` (matches ${options.offset + 1}-${options.offset + returned}):` : `; offset=${options.offset} is past the end.`);
  if (out.length) text += `\n${out.join("\n")}`;
  if (options.offset + options.headLimit < matchCount) text += `\n...more matches omitted; continue with offset=${options.offset + returned}...`;
  return text;
}

/**
 * Hits over UTF-8 bytes (as ripgrep's are: lineBytes given) or over strings
 * only; `holes` are lines whose text is unknown. `withRecords` adds
 * `matchRecords`: the matching lines as ripgrep prints them (`N:text\n`).
 */
function fakeHits(path: string, lines: Buffer[], matches: number[], withBytes: boolean, holes: number[] = [], withRecords = false): GrepFileHits {
  const all = Buffer.concat(lines);
  const starts: number[] = [];
  let position = 0;
  for (const line of lines) {
    starts.push(position);
    position += line.length;
  }
  const known = (line: number) => line >= 1 && line <= lines.length && !holes.includes(line);
  const hits: GrepFileHits = {
    path,
    matchCount: matches.length,
    firstMatchLine: matches[0] ?? 0,
    matchLines: () => matches,
    lineText: (line) => (known(line) ? lines[line - 1]!.toString("utf8") : undefined),
  };
  if (withBytes) {
    hits.lineBytes = (line: number, range: GrepByteRange) => {
      if (!known(line)) return false;
      range.buffer = all;
      range.start = starts[line - 1]!;
      range.end = range.start + lines[line - 1]!.length;
      return true;
    };
  }
  if (withRecords) {
    const records = Buffer.concat(matches.flatMap((line) => [Buffer.from(`${line}:`), lines[line - 1]!, Buffer.from("\n")]));
    hits.matchRecords = (range: GrepByteRange) => {
      range.buffer = records;
      range.start = 0;
      range.end = records.length;
      return true;
    };
  }
  return hits;
}

/** The same hits without `matchRecords`: rendered line by line. */
function withoutRecords(files: GrepFileHits[]): GrepFileHits[] {
  return files.map((file) => ({
    path: file.path,
    matchCount: file.matchCount,
    firstMatchLine: file.firstMatchLine,
    matchLines: () => file.matchLines(),
    lineText: (line: number) => file.lineText(line),
    lineBytes: file.lineBytes ? (line: number, range: GrepByteRange) => file.lineBytes!(line, range) : undefined,
  }));
}

const PIECES = ["a", "return x;", "é", "€", "😀", "\r", "\u00ff", "\ufeff", " ", "\t"];

function randomLine(next: () => number): Buffer {
  const kind = next();
  if (kind < 0.05) return Buffer.from([0xf0, 0x9f, 0x98]); // a truncated sequence
  if (kind < 0.1) return Buffer.from([0x41, 0xc3, 0x28, 0xff, 0x42]); // invalid bytes
  let text = "";
  const length = kind < 0.2 ? 380 + Math.floor(next() * 60) : kind < 0.25 ? 500 + Math.floor(next() * 1600) : Math.floor(next() * 30);
  while (text.length < length) text += PIECES[Math.floor(next() * PIECES.length)];
  return Buffer.from(text, "utf8");
}

describe("renderGrep content mode (bytes)", () => {
  it("renders exactly what joining one string per line renders", () => {
    const next = random(42);
    for (let round = 0; round < 600; round += 1) {
      const withBytes = next() < 0.7;
      const files: GrepFileHits[] = [];
      const fileCount = 1 + Math.floor(next() * 5);
      for (let index = 0; index < fileCount; index += 1) {
        const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, () => randomLine(next));
        const matches = lines.map((_, line) => line + 1).filter(() => next() < 0.4);
        const holes = next() < 0.1 ? [1 + Math.floor(next() * lines.length)] : [];
        files.push(fakeHits(`dir${index % 2}/f${index}${next() < 0.1 ? "é" : ""}.ts`, lines, matches, withBytes, holes));
      }
      const options: GrepFormatOptions = {
        outputMode: "content",
        offset: Math.floor(next() * 4),
        headLimit: 1 + Math.floor(next() * 20),
        context: next() < 0.4 ? Math.floor(next() * 3) : 0,
        displayDirectory: next() < 0.5 ? "." : "src/ünï",
        pattern: "x",
      };
      expect(renderGrep(files, options).text).toBe(renderContentWithStrings(files, options));
    }
  });

  it("renders a whole file from ripgrep's records exactly as line by line, with and without an output cap", () => {
    const next = random(7);
    for (let round = 0; round < 600; round += 1) {
      const files: GrepFileHits[] = [];
      const fileCount = 1 + Math.floor(next() * 6);
      for (let index = 0; index < fileCount; index += 1) {
        const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, () => randomLine(next));
        const matches = lines.map((_, line) => line + 1).filter(() => next() < 0.5);
        files.push(fakeHits(`dir${index % 2}/f${index}${next() < 0.1 ? "é" : ""}.ts`, lines, matches, true, [], next() < 0.8));
      }
      const options: GrepFormatOptions = {
        outputMode: "content",
        offset: next() < 0.5 ? 0 : Math.floor(next() * 4),
        headLimit: next() < 0.5 ? 1_000 : 1 + Math.floor(next() * 20),
        context: 0,
        displayDirectory: next() < 0.5 ? "." : "src/ünï",
        pattern: "x",
        maxChars: next() < 0.5 ? undefined : 600 + Math.floor(next() * 4_000),
      };
      const rendered = renderGrep(files, options);
      const lineByLine = renderGrep(withoutRecords(files), options);
      expect(rendered).toEqual(lineByLine);
      if (options.maxChars === undefined) expect(rendered.text).toBe(renderContentWithStrings(files, options));
    }
  });

  it("falls back to line by line when a record is not `N:text` or a clip splits a surrogate pair", () => {
    const clipped = Buffer.from(`${"a".repeat(399)}😀 tail`, "utf8");
    const plain = Buffer.from("return x");
    const options: GrepFormatOptions = { outputMode: "content", offset: 0, headLimit: 10, context: 0, displayDirectory: ".", pattern: "a" };
    const surrogate = [fakeHits("a.ts", [plain, clipped], [1, 2], true, [], true)];
    expect(renderGrep(surrogate, options).text).toBe(renderContentWithStrings(surrogate, options));
    const odd = fakeHits("b.ts", [plain], [1], true);
    odd.matchRecords = (range: GrepByteRange) => {
      range.buffer = Buffer.from('binary file matches (found "\\0" byte around offset 9)\n');
      range.start = 0;
      range.end = range.buffer.length;
      return true;
    };
    expect(renderGrep([odd], options).text).toBe("Found 1 matching lines in 1 files (matches 1-1):\nb.ts:1: return x");
  });

  it("keeps a line clipped inside a surrogate pair as the string clip gives it", () => {
    const line = Buffer.from(`${"a".repeat(399)}😀 tail`, "utf8");
    for (const withBytes of [true, false]) {
      const files = [fakeHits("a.ts", [line], [1], withBytes)];
      const options: GrepFormatOptions = { outputMode: "content", offset: 0, headLimit: 10, context: 0, displayDirectory: ".", pattern: "a" };
      const text = renderGrep(files, options).text;
      expect(text).toBe(renderContentWithStrings(files, options));
      expect(text.endsWith(`${"a".repeat(399)}\ud83d...`)).toBe(true);
    }
  });
});

describe("renderGrep of a page over a megabyte (its size reserved in one step)", () => {
  it("renders every line as the string renderer does, records or not, under a cap or not", () => {
    const next = random(34);
    const files: GrepFileHits[] = [];
    for (let file = 0; file < 60; file += 1) {
      const lines = Array.from({ length: 400 }, () => randomLine(next));
      const matches = lines.map((_, index) => index + 1).filter(() => next() < 0.7);
      files.push(fakeHits(`dir/f${file}é.ts`, lines, matches, true, [], file % 3 !== 0));
    }
    const all = { pattern: "x", displayDirectory: ".", offset: 0, headLimit: 1_000_000, context: 0, outputMode: "content" } as GrepFormatOptions;
    const rendered = renderGrep(files, all);
    expect(rendered.text.length).toBeGreaterThan(1024 * 1024);
    expect(rendered.text).toBe(renderContentWithStrings(files, all));
    expect(renderGrep(withoutRecords(files), all).text).toBe(rendered.text);
    const maxChars = rendered.text.length - 1000;
    const capped = renderGrep(files, { ...all, maxChars });
    expect(capped.hasMore).toBe(true);
    expect(capped.text.length).toBeLessThanOrEqual(maxChars);
    const cappedLines = capped.text.slice(capped.text.indexOf("\n") + 1, capped.text.lastIndexOf("\n"));
    expect(cappedLines.length).toBeGreaterThan(maxChars - 5000);
    expect(rendered.text.slice(rendered.text.indexOf("\n") + 1).startsWith(`${cappedLines}\n`)).toBe(true);
  });
});

describe("GrepTextBuilder", () => {
  it("joins strings, bytes and numbers, with a header put in front", () => {
    const builder = new GrepTextBuilder();
    builder.writeString("é:");
    builder.writeNumber(12);
    builder.writeBytes(Buffer.from("xx€yy"), 2, 5);
    builder.prepend("head\n");
    expect(builder.finish()).toBe("head\né:12€");
  });

  it("writes past what it was told to expect, and an expectation below what is written changes nothing", () => {
    const builder = new GrepTextBuilder();
    builder.writeAscii("ab");
    builder.expect(3);
    builder.writeBytes(Buffer.from("é".repeat(400_000)), 0, 800_000);
    builder.expect(0);
    builder.writeNumber(7);
    expect(builder.finish()).toBe(`ab${"é".repeat(400_000)}7`);
  });

  it("keeps lone surrogates and a header longer than the room in front", () => {
    const builder = new GrepTextBuilder();
    builder.writeAscii("a");
    builder.writeString("\ud83d");
    builder.writeString("b😀");
    builder.prepend("h".repeat(5000));
    expect(builder.finish()).toBe(`${"h".repeat(5000)}a\ud83db😀`);
  });
});
