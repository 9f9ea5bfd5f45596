import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileGrepPattern, grepWithTypeScript } from "./grep-engine.js";
import { FileBytesHits, FileBytesLoader } from "./grep-file-hits.js";
import { createFileReader, decodeText, matchingLines, searchFileBytes, searchFinder } from "./grep-line-scan.js";
import type { GrepByteRange } from "./grep-result.js";
import { requiredAlternatives } from "./grep-required-literal.js";
import { GrepScanKernel, countLineFeeds, skipLineFeeds } from "./grep-scan-kernel.js";
import { locateRipgrep } from "./ripgrep.js";

/** A deterministic random source. */
function randomSource(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) % limit;
  };
}

/** `bytes` copied into the kernel's memory (as the reader puts a file there). */
function held(kernel: GrepScanKernel, bytes: Buffer): Buffer {
  const view = kernel.data(bytes.length);
  view.set(bytes);
  return view.subarray(0, bytes.length);
}

const kernel = GrepScanKernel.create();

describe("GrepScanKernel (WebAssembly SIMD)", () => {
  it("is available here (Node has WebAssembly SIMD)", () => {
    expect(kernel).toBeDefined();
  });

  it("counts and skips line feeds as the JavaScript loop does, at every offset", () => {
    const random = randomSource(3);
    for (let round = 0; round < 300; round += 1) {
      const text = Array.from({ length: random(200) }, () => "ab\n\r é"[random(6)]).join("");
      const bytes = Buffer.from(text, "utf8");
      const inKernel = held(kernel!, bytes);
      const from = random(bytes.length + 1);
      const to = from + random(bytes.length - from + 1);
      expect(countLineFeeds(inKernel, from, to, kernel)).toBe(countLineFeeds(bytes, from, to, undefined));
      const count = 1 + random(12);
      expect(skipLineFeeds(inKernel, from, count, kernel)).toBe(skipLineFeeds(bytes, from, count, undefined));
    }
  });

  it("finds literals in its memory as Buffer.indexOf's finder does, in both cases and past 16-byte blocks", () => {
    const random = randomSource(7);
    const alphabet = "aAbBkKsS_- \r\n0\u212A\u017Fé";
    for (let round = 0; round < 2000; round += 1) {
      const patternAlphabet = "aAbBkKsS_- 0";
      const pattern = Array.from({ length: 1 + random(8) }, () => patternAlphabet[random(patternAlphabet.length)]).join("");
      const text = Array.from({ length: random(120) }, () => alphabet[random(alphabet.length)]).join("");
      const at = random(text.length + 1);
      const withPattern = text.slice(0, at) + (random(2) ? pattern.toUpperCase() : pattern) + text.slice(at);
      const bytes = Buffer.from(withPattern, "utf8");
      for (const ignoreCase of [true, false]) {
        const label = `${JSON.stringify(pattern)} ${ignoreCase} ${JSON.stringify(withPattern)}`;
        const plain = searchFinder(pattern, ignoreCase)!;
        const scanned = searchFinder(pattern, ignoreCase, kernel)!;
        expect(scanned.find(held(kernel!, bytes), false), label).toEqual(plain.find(bytes, false));
        expect(scanned.find(held(kernel!, bytes), true), label).toEqual(plain.find(bytes, true));
      }
    }
  });

  it("gives the matching lines of the whole-text search for literals, required literals and alternatives", () => {
    const random = randomSource(5);
    const patterns = ["abc", "ab", "K", "a-b", "abc\\s+\\w", "(abc|bca)\\s", "abc|cab", "(?i)abc.b", "kss", "a b"];
    const letters = ["a", "b", "c", "A", "B", "C", "k", "s", " ", "-", "\n", "\n", "\r\n", "é", "\u212A", "\u017F"];
    let withMatches = 0;
    for (let round = 0; round < 1500; round += 1) {
      const pattern = patterns[random(patterns.length)]!;
      const ignoreCase = random(2) === 1;
      const regex = compileGrepPattern(pattern, ignoreCase, false);
      const text = (random(8) === 0 ? "\uFEFF" : "") + Array.from({ length: random(300) }, () => letters[random(letters.length)]).join("");
      const bytes = Buffer.from(text, "utf8");
      const expected = matchingLines(decodeText(bytes), regex, false);
      if (expected.length) withMatches += 1;
      const finder = searchFinder(pattern, ignoreCase, kernel);
      expect(finder, pattern).toBeDefined();
      const label = `${pattern} ${ignoreCase} ${JSON.stringify(text)}`;
      expect(searchFileBytes(held(kernel!, bytes), regex, false, finder), label).toEqual(expected);
      expect(searchFileBytes(bytes, regex, false, searchFinder(pattern, ignoreCase)), label).toEqual(expected);
    }
    expect(withMatches).toBeGreaterThan(200);
  });
});

describe("requiredAlternatives", () => {
  it.each([
    ["(return|const)\\s", ["return", "const"]],
    ["foo|barbaz", ["foo", "barbaz"]],
    ["abc|def|ghi", ["abc", "def", "ghi"]],
    ["(?i)(abcd|efgh)x", ["abcd", "efgh"]],
    ["a\\(abc|def\\)", ["abc", "def"]],
    ["fooo|ba", undefined],
    ["[(abc|def)]", undefined],
    ["x(abc|def)?", undefined],
    ["((abc|def))", undefined],
    ["(abc|def)[|]", undefined],
    ["abc", undefined],
  ])("%s -> %j", (pattern, expected) => {
    expect(requiredAlternatives(pattern)).toEqual(expected);
  });
});

describe("createFileReader", () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), "agent-tools-scan-reader-"));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("reads files of every size into the kernel's memory, growing it", () => {
    const read = createFileReader({ openSync, readSync, closeSync }, kernel);
    for (const size of [0, 1, 4096, 256 * 1024, 256 * 1024 + 1, 3 * 1024 * 1024 + 7, 10]) {
      const content = Buffer.alloc(size);
      for (let index = 0; index < size; index += 1) content[index] = 1 + ((index * 31 + size) % 255);
      const file = path.join(directory, `f${size}`);
      writeFileSync(file, content);
      const bytes = read(file);
      expect(bytes?.equals(content)).toBe(true);
      expect(kernel!.holds(bytes!)).toBe(true);
    }
  });

  it("answers null for a file with a NUL byte in its first chunk, and the bytes for one with a NUL further on (searchFileBytes then skips it)", () => {
    for (const scanner of [kernel, undefined]) {
      const read = createFileReader({ openSync, readSync, closeSync }, scanner);
      const early = path.join(directory, "early.bin");
      writeFileSync(early, Buffer.concat([Buffer.from("needle\n"), Buffer.from([0]), Buffer.alloc(1024 * 1024, 0x61)]));
      expect(read(early)).toBeNull();
      const late = path.join(directory, "late.bin");
      writeFileSync(late, Buffer.concat([Buffer.from("needle\n"), Buffer.alloc(600 * 1024, 0x61), Buffer.from([0])]));
      const bytes = read(late);
      expect(bytes?.length).toBe(7 + 600 * 1024 + 1);
      const regex = compileGrepPattern("needle", true, false);
      expect(searchFileBytes(bytes!, regex, false, searchFinder("needle", true, scanner))).toBeNull();
    }
  });
});

describe("FileBytesHits with a shared loader", () => {
  it("gives each file's lines when the loader's one buffer goes from file to file and back", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "agent-tools-scan-hits-"));
    try {
      const texts = ["\uFEFFone\r\ntwo\nthree\n", "alpha\nbeta\r\ngamma", "x\n\ny\n\n"];
      texts.forEach((text, index) => writeFileSync(path.join(directory, `${index}.txt`), text));
      for (const scanner of [kernel, undefined]) {
        const loader = new FileBytesLoader(scanner);
        const hits = texts.map((_, index) => new FileBytesHits(`${index}.txt`, [1], directory, loader));
        const range: GrepByteRange = { buffer: Buffer.alloc(0), start: 0, end: 0 };
        const line = (hit: FileBytesHits, number: number) => (hit.lineBytes(number, range) ? range.buffer.toString("utf8", range.start, range.end) : undefined);
        const expected = texts.map((text) => decodeText(Buffer.from(text)).replace(/\n$/, "").split("\n"));
        // Interleaved and descending: every answer as the decoded text's lines.
        for (const order of [
          [0, 1, 2, 0, 2, 1],
          [2, 2, 1, 0, 1, 0],
        ])
          for (const index of order)
            for (const number of [4, 3, 1, 2, 5]) expect(line(hits[index]!, number), `${index}:${number}`).toBe(expected[index]![number - 1]);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

const rgPath = locateRipgrep();

describe.skipIf(!rgPath)("case-insensitive matches beyond ASCII, against ripgrep", () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), "agent-tools-scan-fold-"));
    mkdirSync(path.join(directory, "sub"));
    const lines = [
      "STRASSE strasse",
      "Straße",
      "GROẞE",
      "İstanbul",
      "istanbul ISTANBUL",
      "ıi dotless",
      "ΣΊΣΥΦΟΣ",
      "σίσυφος",
      "τέλος ς",
      "Kelvin \u212A",
      "kelvin",
      "long \u017Fs",
      "mass MASS",
      "plain ascii",
    ];
    writeFileSync(path.join(directory, "fold.txt"), `${lines.join("\n")}\n`);
    writeFileSync(path.join(directory, "sub", "crlf.txt"), lines.slice().reverse().join("\r\n"));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it.each([
    "ß",
    "ẞ",
    "straße",
    "strasse",
    "İ",
    "i",
    "ı",
    "istanbul",
    "σ",
    "Σ",
    "ς",
    "σίσυφος",
    "k",
    "kelvin",
    "s",
    "mass",
    "\u212A",
    "\u017F",
    "(kelvin|mass)",
    "ss\\b",
  ])("%s: the same lines as rg -i", async (pattern) => {
    const output = spawnSync(rgPath!, ["--no-config", "-i", "-n", "--no-heading", "--with-filename", "-e", pattern, "."], { cwd: directory, encoding: "utf8" });
    const expected = output.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => /^(?:\.\/)?([^:]+):(\d+):/.exec(line)!)
      .map((match) => `${match[1]}:${match[2]}`)
      .sort();
    const hits = await grepWithTypeScript(directory, { pattern, ignoreCase: true, multiline: false, context: 0 }, () => true);
    const found = hits.flatMap((hit) => hit.matchLines().map((line) => `${hit.path}:${line}`)).sort();
    expect(found).toEqual(expected);
  });
});
