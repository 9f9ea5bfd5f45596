import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileGrepPattern } from "./grep-engine.js";
import { createFileReader, createLiteralFinder, decodeText, matchingLines, searchFileBytes, searchFinder } from "./grep-line-scan.js";
import { requiredLiteral } from "./grep-required-literal.js";

/** What the prefilter must agree with: the pattern searched in the decoded text, as the engine's regex does. */
function reference(pattern: string, ignoreCase: boolean, bytes: Buffer): boolean {
  return new RegExp(pattern, ignoreCase ? "iu" : "u").test(bytes.toString("utf8"));
}

/** Whether a file can hold the plain literal: what the engine asks the finder before decoding anything. */
function literalPrefilter(pattern: string, ignoreCase: boolean): ((bytes: Buffer) => boolean) | undefined {
  const finder = createLiteralFinder(pattern, ignoreCase);
  if (!finder) return undefined;
  return (bytes) => finder.find(bytes, true).length > 0 || finder.foldsBeyondAscii(bytes);
}

describe("createLiteralFinder as a file prefilter", () => {
  it("is undefined for patterns that are not plain literals", () => {
    expect(literalPrefilter("a.b", true)).toBeUndefined();
    expect(literalPrefilter("foo(", false)).toBeUndefined();
    expect(literalPrefilter("é", true)).toBeUndefined();
  });

  it.each([
    ["Levenshtein", true, "x levenSHTEIN y", true],
    ["Levenshtein", true, "levenshtei", false],
    ["Levenshtein", false, "levenshtein", false],
    ["Levenshtein", false, "Levenshtein", true],
    ["a-b", true, "A\rB", false], // "-" must not fold with "\r" (0x2d | 0x20 = 0x2d)
    ["a-b", true, "A-B", true],
    ["key", true, "\u212Aey", true], // Kelvin sign folds with k
    ["mass", true, "ma\u017Fs", true], // long s folds with s
    ["return", true, "RETURN", true],
    ["x", true, "X", true],
    ["ab", false, "", false],
    ["needle_at_end", true, "...NEEDLE_AT_END", true],
    ["start", true, "Start...", true],
  ])("%s (ignoreCase %s) in %j -> %s", (pattern, ignoreCase, text, expected) => {
    const bytes = Buffer.from(text, "utf8");
    expect(literalPrefilter(pattern, ignoreCase)!(bytes)).toBe(expected);
    expect(reference(pattern, ignoreCase, bytes)).toBe(expected);
  });

  it("agrees with the decoded-text regex on random inputs", () => {
    let seed = 11;
    const random = (limit: number) => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let value = Math.imul(seed ^ (seed >>> 15), seed | 1);
      value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
      return ((value ^ (value >>> 14)) >>> 0) % limit;
    };
    const alphabet = "aAbBkKsS_- \r\n0\u212A\u017Fé";
    for (let round = 0; round < 3000; round += 1) {
      const patternAlphabet = "aAbBkKsS_- 0";
      const pattern = Array.from({ length: 1 + random(8) }, () => patternAlphabet[random(patternAlphabet.length)]).join("");
      const text = Array.from({ length: random(60) }, () => alphabet[random(alphabet.length)]).join("");
      const withPattern = random(2) ? text : text.slice(0, 10) + (random(2) ? pattern.toUpperCase() : pattern) + text.slice(10);
      const bytes = Buffer.from(withPattern, "utf8");
      for (const ignoreCase of [true, false]) {
        const prefilter = literalPrefilter(pattern, ignoreCase)!;
        if (reference(pattern, ignoreCase, bytes))
          expect(prefilter(bytes), `${JSON.stringify(pattern)} ${ignoreCase} ${JSON.stringify(withPattern)}`).toBe(true);
        // Without the non-ASCII fold characters the verdict is exact.
        if (!/[\u212A\u017F]/.test(withPattern))
          expect(prefilter(bytes), `${JSON.stringify(pattern)} ${ignoreCase} ${JSON.stringify(withPattern)}`).toBe(reference(pattern, ignoreCase, bytes));
      }
    }
  });
});

describe("requiredLiteral", () => {
  it.each([
    ["function\\s+\\w+\\(", "function"],
    ["(?i)Levenshtein.*x", "Levenshtein"],
    ["ab+cdef", "cdef"],
    ["abcd?ef", "abc"],
    ["x{2}yz", undefined],
    ["abc{2,3}", undefined],
    ["abcd{2,3}", "abc"],
    ["[abc]defg", "defg"],
    ["(optional)?tail", "tail"],
    ["foo|barbaz", undefined],
    ["abc(?i)def", undefined],
    ["(?x)abc def", undefined],
    ["\\p{L}+word", "word"],
    ["^import .* from", "import "],
    ["a.b", undefined],
  ])("%s -> %s", (pattern, expected) => {
    expect(requiredLiteral(pattern)).toBe(expected);
  });

  it("searching only the lines holding the literal gives the whole-text result (random patterns and texts)", () => {
    let seed = 5;
    const random = (limit: number) => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let value = Math.imul(seed ^ (seed >>> 15), seed | 1);
      value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
      return ((value ^ (value >>> 14)) >>> 0) % limit;
    };
    const pieces = [
      "a",
      "b",
      "c",
      "ab",
      "abc",
      "K",
      "s",
      "-",
      " ",
      ".",
      "\\w",
      "\\s+",
      "[ab]",
      "(bc)?",
      "a+",
      "b*",
      "c?",
      "x{2}",
      "(a|b)",
      "[^a]",
      "\\d",
      "^",
      "$",
    ];
    const letters = ["a", "b", "c", "a", "b", "c", "A", "B", "C", "k", "s", " ", "-", "\n", "\n", "\r\n", "é", "\u212A"];
    let withMatches = 0;
    for (let round = 0; round < 3000; round += 1) {
      const pattern = Array.from({ length: 2 + random(6) }, () => pieces[random(pieces.length)]).join("");
      const ignoreCase = random(2) === 1;
      const finder = searchFinder(pattern, ignoreCase);
      if (!finder) continue;
      const regex = compileGrepPattern(pattern, ignoreCase, false);
      for (let sample = 0; sample < 12; sample += 1) {
        const text = (random(8) === 0 ? "\uFEFF" : "") + Array.from({ length: random(160) }, () => letters[random(letters.length)]).join("");
        const bytes = Buffer.from(text, "utf8");
        const expected = matchingLines(decodeText(bytes), regex, false);
        if (expected.length) withMatches += 1;
        expect(searchFileBytes(bytes, regex, false, finder), `${pattern} ${ignoreCase} ${JSON.stringify(text)}`).toEqual(expected);
      }
    }
    expect(withMatches).toBeGreaterThan(200);
  });
});

describe("createFileReader", () => {
  it("reads files of every size into a reused buffer", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "agent-tools-reader-"));
    try {
      const read = createFileReader({ openSync, readSync, closeSync });
      for (const size of [0, 1, 4096, 256 * 1024, 256 * 1024 + 1, 3 * 1024 * 1024 + 7]) {
        const content = Buffer.alloc(size, 0);
        for (let index = 0; index < size; index += 1) content[index] = 1 + ((index * 31 + size) % 255); // no NUL: text
        const file = path.join(directory, `f${size}`);
        writeFileSync(file, content);
        expect(read(file)?.equals(content)).toBe(true);
      }
      expect(() => read(path.join(directory, "missing"))).toThrow();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("ends a file at a short read (no read of 0 bytes), but reads on after one split at a multiple of 4 KiB", () => {
    /** A file system whose reads return at most `split` bytes, counting them. */
    const splitting = (content: Buffer, split: number) => {
      const calls = { reads: 0 };
      let position = 0;
      const fs = {
        openSync: () => {
          position = 0;
          return 3;
        },
        closeSync: () => undefined,
        readSync: (_descriptor: number, buffer: NodeJS.ArrayBufferView, offset: number, length: number) => {
          calls.reads += 1;
          const count = Math.min(length, split, content.length - position);
          content.copy(buffer as Buffer, offset, position, position + count);
          position += count;
          return count;
        },
      } as unknown as Parameters<typeof createFileReader>[0];
      return { read: createFileReader(fs), calls };
    };
    const text = (size: number) => Buffer.alloc(size, 0x61);
    // Read whole by the first read: one read, not two.
    for (const size of [1, 5000, 100_000]) {
      const { read, calls } = splitting(text(size), Number.POSITIVE_INFINITY);
      expect(read("f")?.length).toBe(size);
      expect(calls.reads).toBe(1);
    }
    // A size that is a multiple of 4 KiB, or an empty file: confirmed by a read of 0 bytes.
    for (const size of [0, 8192]) {
      const { read, calls } = splitting(text(size), Number.POSITIVE_INFINITY);
      expect(read("f")?.length).toBe(size);
      expect(calls.reads).toBe(size === 0 ? 1 : 2);
    }
    // Reads split at 4 KiB or 128 KiB (a network or FUSE file system) still give the whole file.
    for (const split of [4096, 128 * 1024]) {
      const content = Buffer.from(Array.from({ length: 600_001 }, (_, index) => 97 + (index % 26)));
      const { read } = splitting(content, split);
      expect(read("f")?.equals(content)).toBe(true);
    }
  });
});
