import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom as random } from "../__fixtures__/seeded-random.js";
import { FAST_INDEX_MIN_HAYSTACK } from "../shared/fast-index-of.js";
import { findEditMatches } from "./edit-match.js";
import { EditPrescan } from "./edit-prescan.js";

/** `content` copied into shared memory with slack, as the read pool holds it. */
function pooled(content: Buffer): Buffer {
  const memory = Buffer.from(new SharedArrayBuffer(content.length + 4096));
  content.copy(memory);
  return memory.subarray(0, content.length);
}

/** Runs a prescan over `bytes` as a read in chunks ending at `ends` (ascending, the last = bytes.length) would. */
function prescanned(bytes: Buffer, oldString: string, ends: readonly number[]) {
  const prescan = new EditPrescan(oldString);
  for (const end of ends) prescan.onChunk(Buffer.from(bytes.buffer, bytes.byteOffset, end));
  return prescan.result(bytes);
}

/** Chunk ends: a first part of at least the sampling size, then random cuts (some a byte apart). */
function randomEnds(length: number, next: () => number): number[] {
  const ends: number[] = [];
  let end = FAST_INDEX_MIN_HAYSTACK + Math.floor(next() * 200_000);
  while (end < length) {
    ends.push(end);
    end += next() < 0.2 ? 1 + Math.floor(next() * 8) : Math.floor(next() * 300_000);
  }
  ends.push(length);
  return ends;
}

/** The matcher's answer with and without the prescan, as comparable data. */
function bothWays(bytes: Buffer, oldString: string, newString: string, ends: readonly number[]) {
  const prescan = prescanned(bytes, oldString, ends);
  const simplify = (result: ReturnType<typeof findEditMatches>) => result && { strategy: result.strategy, matches: result.matches };
  return {
    used: prescan !== undefined,
    withPrescan: simplify(findEditMatches(bytes, oldString, newString, { prescanned: prescan })),
    without: simplify(findEditMatches(bytes, oldString, newString)),
  };
}

/** Generated source-like lines, with the needles' lines planted at random places (some right at chunk ends). */
function generated(next: () => number, eol: string): string {
  const lines: string[] = [];
  for (let index = 0; index < 40_000; index += 1) {
    const indent = ["", "  ", "    ", "\t"][Math.floor(next() * 4)]!;
    lines.push(`${indent}const value${index % 5000} = compute(${index % 311}, "text");${next() < 0.05 ? "  " : ""}`);
    if (next() < 0.001) lines.push("        alphaMarker();", "        betaMarker();");
    if (next() < 0.001) lines.push("alphaMarker();   ", "betaMarker();\t");
  }
  return lines.join(eol) + eol;
}

const NEEDLES: Array<[string, string]> = [
  ["alphaMarker();\nbetaMarker();", "gammaMarker();"],
  ["alphaMarker();\nbetaMarker();\n", "gammaMarker();\n"],
  ["        alphaMarker();", "x"],
  ["const value17 = compute(", "const renamed = compute("],
  ['compute(7, "text");', "c();"],
  ["const value", "let value"], // more probe hits than the hit list keeps
  ["value4999 = compute(", "v"],
  ["nowhere in the file();", "x"],
  ["\n\n", "\n"],
];

describe("EditPrescan: the matcher gives the same answer from the hits collected during the read", () => {
  it("on generated LF and CRLF files, every pass, with random chunk ends", () => {
    const next = random(7);
    for (const eol of ["\n", "\r\n"]) {
      const bytes = pooled(Buffer.from(generated(next, eol)));
      for (let round = 0; round < 2; round += 1) {
        const ends = randomEnds(bytes.length, next);
        for (const [oldString, newString] of NEEDLES) {
          const { used, withPrescan, without } = bothWays(bytes, oldString, newString, ends);
          expect(withPrescan, JSON.stringify({ eol, oldString, ends })).toEqual(without);
          if (oldString.trim() !== "") expect(used).toBe(true);
        }
      }
    }
  });

  it("finds a needle cut by every chunk end around it", () => {
    const filler = Buffer.from("let x = 1;\n".repeat(40_000));
    const needle = "zqMarkerLine();";
    const at = FAST_INDEX_MIN_HAYSTACK + 1000;
    const bytes = pooled(Buffer.concat([filler.subarray(0, at), Buffer.from(`${needle}\n`), filler.subarray(at)]));
    for (let cut = at - 2; cut <= at + needle.length + 2; cut += 1) {
      const result = findEditMatches(bytes, needle, "x", { prescanned: prescanned(bytes, needle, [cut, bytes.length]) });
      expect(result?.matches.map((match) => match.start)).toEqual([at]);
    }
  });

  it("on real source text of this repository, every pass", () => {
    const root = path.resolve(__dirname, "..");
    const parts: string[] = [];
    let size = 0;
    const walk = (directory: string) => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith(".ts") && size < 3_000_000) {
          const text = readFileSync(full, "utf8");
          parts.push(text);
          size += text.length;
        }
      }
    };
    walk(root);
    const text = parts.join("\n");
    const next = random(11);
    const lines = text.split("\n");
    const variants = [(body: string) => body, (body: string) => body.replace(/\n/g, "\r\n")];
    for (const variant of variants) {
      const bytes = pooled(Buffer.from(variant(text)));
      const ends = randomEnds(bytes.length, next);
      for (let round = 0; round < 12; round += 1) {
        const from = Math.floor(next() * (lines.length - 3));
        const picked = lines.slice(from, from + 1 + Math.floor(next() * 3));
        const oldString = [
          (l: string[]) => l.join("\n"),
          (l: string[]) => l.map((line) => line.trim()).join("\n"),
          (l: string[]) => l.map((line) => `  ${line}`).join("\n"),
        ][round % 3]!(picked);
        const { withPrescan, without } = bothWays(bytes, oldString, "replaced();\n", ends);
        expect(withPrescan, JSON.stringify({ oldString })).toEqual(without);
      }
    }
  });

  it("learns whether the content holds a CR, wherever it is", () => {
    const body = Buffer.from("plain line();\n".repeat(60_000));
    const crAtEnd = pooled(Buffer.concat([body, Buffer.from("last line\r\n")]));
    const noCr = pooled(body);
    expect(prescanned(crAtEnd, "plain line();", [FAST_INDEX_MIN_HAYSTACK, crAtEnd.length])?.hasCr).toBe(true);
    expect(prescanned(noCr, "plain line();", [FAST_INDEX_MIN_HAYSTACK, noCr.length])?.hasCr).toBe(false);
  });

  it("gives nothing for bytes it did not scan to their end, in other memory, or too small to sample", () => {
    const bytes = pooled(Buffer.from("some line of text();\n".repeat(30_000)));
    const prescan = new EditPrescan("some line of text();");
    prescan.onChunk(Buffer.from(bytes.buffer, bytes.byteOffset, FAST_INDEX_MIN_HAYSTACK));
    expect(prescan.result(bytes)).toBeUndefined(); // not scanned to the end
    prescan.onChunk(bytes);
    expect(prescan.result(bytes)).toBeDefined();
    expect(prescan.result(Buffer.from(bytes))).toBeUndefined(); // a copy: other memory
    const small = pooled(Buffer.from("tiny file();\n".repeat(100)));
    expect(prescanned(small, "tiny file();", [small.length])).toBeUndefined();
    // A prefix of other memory stops the scan for good.
    const other = new EditPrescan("some line of text();");
    other.onChunk(Buffer.from(bytes.buffer, bytes.byteOffset, FAST_INDEX_MIN_HAYSTACK));
    other.onChunk(Buffer.from(bytes));
    other.onChunk(bytes);
    expect(other.result(bytes)).toBeUndefined();
  });
});
