import { describe, expect, it } from "vitest";
import { RipgrepCountParser, RipgrepLineNumberParser } from "./ripgrep-count-parsers.js";

/** Feeds `output` in chunks of `size` bytes (records then straddle chunks). */
function feed(parser: { push(chunk: Buffer): void }, output: Buffer, size: number): void {
  for (let start = 0; start < output.length; start += size) parser.push(output.subarray(start, start + size));
}

const COUNTS = Buffer.from("./a.ts\u00003\n./dir/line\nbreak.md\u000012\n./é.txt\u00001\n./z\u00007", "utf8");
const LINE_NUMBERS = Buffer.from("./a.ts\u00002:\n2:\n9:\n\n./dir/é\nx.md\u000040:\n\n./z\u00001:", "utf8");

describe("ripgrep counting parsers fed as ripgrep prints", () => {
  it.each([1, 2, 3, 7, 1000])("parse --count output the same in chunks of %i bytes, telling each file as it completes", (size) => {
    const heard: Array<[string, number]> = [];
    const parser = new RipgrepCountParser((path, count) => heard.push([path, count]));
    feed(parser, COUNTS, size);
    const files = parser.end();
    expect(files).toEqual([
      { path: "a.ts", count: 3 },
      { path: "dir/line\nbreak.md", count: 12 },
      { path: "é.txt", count: 1 },
      { path: "z", count: 7 },
    ]);
    expect(heard).toEqual(files.map((file) => [file.path, file.count]));
  });

  it.each([1, 2, 5, 1000])("parse line numbers in chunks of %i bytes: matching lines once each, the first line", (size) => {
    const heard: Array<[string, number]> = [];
    const parser = new RipgrepLineNumberParser((path, lines) => heard.push([path, lines]));
    feed(parser, LINE_NUMBERS, size);
    const files = parser.end().map((file) => ({ path: file.path, lines: file.matchCount, first: file.firstMatchLine }));
    expect(files).toEqual([
      { path: "a.ts", lines: 2, first: 2 },
      { path: "dir/é\nx.md", lines: 1, first: 40 },
      { path: "z", lines: 1, first: 1 },
    ]);
    expect(heard).toEqual(files.map((file) => [file.path, file.lines]));
  });

  it("parse empty output as no files", () => {
    expect(new RipgrepCountParser().end()).toEqual([]);
    expect(new RipgrepLineNumberParser().end()).toEqual([]);
  });
});
