/**
 * Issue 40, area 6: the offline word-vector embedder (@agent-tools/word-vectors)
 * and the texts the memory hands to an embedder. A 10 MB text, a 1 MB word,
 * a 1 MB hyphenated word and a million unknown ids give unit vectors; an
 * abort mid-batch rejects with AbortError; unknown and invalid options and
 * texts fail closed naming them. A text whose folding multiplies it (U+FDFA
 * is 18 characters after NFKD) and a search query of any length are where
 * it did not hold before (findings W1, W2, fixed).
 */
import { SdkError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { InMemoryMemoryIndexStore, openMemoryService } from "@agent-tools/memory";
import { MEMORY_EMBEDDING_TEXT_MAX_CHARS } from "@agent-tools/memory/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWordVectorEmbedder } from "../../packages/word-vectors/src/index.js";
import { attackFolders, conceptEmbedder } from "./memory-embeddings-harness.js";

const folders = attackFolders("attack-memory-embeddings-offline-");
let embedder: EmbeddingClient;
beforeAll(async () => {
  embedder = await createWordVectorEmbedder();
}, 120_000);
afterAll(() => folders.cleanup());

const length = (vector: Float32Array) => Math.hypot(...vector);

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => expect.unreachable("the call should have failed"),
    (error: unknown) => error as Error,
  );
}

describe("attack: the offline word-vector embedder", () => {
  const texts: [string, () => string][] = [
    ["a 10 MB text of words", () => "the quick brown fox jumps over the lazy dog ".repeat(230_000)],
    ["a text of one 1 MB word", () => "a".repeat(1_000_000)],
    ["a 1 MB word of 333,333 hyphenated parts", () => `${"ab-".repeat(333_333)}ab`],
    ["a million unknown ids", () => Array.from({ length: 1_000_000 }, (_, index) => `q${index}z`).join(" ")],
    ["NUL, lone surrogates and controls", () => "\u0000\ud800\udfff\u0007 dog \ud83d"],
  ];
  it.each(texts)(
    "gives %s one unit vector of its dimension",
    async (_what, make) => {
      const [vector] = await embedder.embed([make()]);
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector?.length).toBe(embedder.dimension);
      expect(vector?.every(Number.isFinite)).toBe(true);
      expect(length(vector as Float32Array)).toBeCloseTo(1, 4);
    },
    60_000,
  );

  it("rejects with AbortError when the signal aborts mid-batch, and before it starts", async () => {
    const controller = new AbortController();
    const batch = Array.from({ length: 20_000 }, (_, index) => `note ${index} about the dog and the restaurant`);
    const call = embedder.embed(batch, { signal: controller.signal });
    setImmediate(() => controller.abort());
    expect((await rejection(call)).name).toBe("AbortError");
    expect((await rejection(embedder.embed(["dog"], { signal: controller.signal }))).name).toBe("AbortError");
  });

  it("refuses unknown and invalid options, and texts that are not strings, naming them", async () => {
    const refused: [unknown, RegExp][] = [
      [{ vocabularysize: 50_000 }, /did you mean vocabularySize/],
      [{ vocabulary: 50_000 }, /vocabulary is not an option/],
      [{ weighting: "SIF" }, /weighting must be/],
      [{ vocabularySize: 999 }, /vocabularySize/],
      [{ vocabularySize: 1e9 }, /vocabularySize/],
      [{ vocabularySize: "50000" }, /vocabularySize/],
      [{ vocabularySize: Number.NaN }, /vocabularySize/],
      [{ signal: {} }, /signal/],
      [null, /options must be an object/],
      [[], /options must be an object/],
      [JSON.parse('{"__proto__": {"vocabularySize": 5}}'), /__proto__|vocabularySize/],
    ];
    for (const [options, message] of refused) {
      const error = await rejection(createWordVectorEmbedder(options as never));
      expect(error, JSON.stringify(options)).toBeInstanceOf(SdkError);
      expect(error.message).toMatch(message);
    }
    for (const texts of ["dog" as unknown, [1], [null], [["dog"]], [{ toString: () => "dog" }]]) {
      const error = await rejection(embedder.embed(texts as string[]));
      expect(error, JSON.stringify(texts)).toBeInstanceOf(SdkError);
    }
  });

  // Finding W1 (fixed): a text was folded (NFKD) and tokenised whole, in one synchronous step inside the embed() call,
  // and the signal was checked only between slices of 64 texts: a 10 MB text of U+FDFA (18 characters after NFKD) took
  // 120 s of CPU and 1.7 GB during which nothing else ran, and an abort meanwhile was not honoured (1 MB: 6.7 s).
  it("(was W1) honours an abort during one long text whose folding multiplies it", async () => {
    const controller = new AbortController();
    const call = embedder.embed(["\ufdfa".repeat(1_000_000)], { signal: controller.signal });
    controller.abort();
    expect((await rejection(call)).name).toBe("AbortError");
    // Unaborted, a text is embedded by its first 8,192 characters: the same vector as that part alone.
    const long = `the hound sleeps ${"\ufdfa".repeat(1_000_000)}`;
    const [whole, part] = await embedder.embed([long, long.slice(0, 8_192)]);
    expect(Array.from(whole as Float32Array)).toEqual(Array.from(part as Float32Array));
  }, 120_000);

  it("yields between long texts: an abort lands between two texts of a batch", async () => {
    const controller = new AbortController();
    let embedded = 0;
    const texts = Array.from({ length: 40 }, (_, index) => `${index} ${"\ufdfa".repeat(8_192)}`);
    const call = embedder.embed(texts, { signal: controller.signal });
    setImmediate(() => {
      embedded += 1;
      controller.abort();
    });
    expect((await rejection(call)).name).toBe("AbortError");
    expect(embedded).toBe(1);
  }, 120_000);
});

describe("attack: what the memory hands to its embedder", () => {
  it("caps an entry's text at MEMORY_EMBEDDING_TEXT_MAX_CHARS", async () => {
    const counting = conceptEmbedder();
    const dirs = folders.next();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: new InMemoryMemoryIndexStore(), embedder: counting });
    try {
      expect((await memory.appendDaily(`The hound. ${"x".repeat(30_000)}`)).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(Math.max(...counting.calls.flat().map((text) => text.length))).toBeLessThanOrEqual(MEMORY_EMBEDDING_TEXT_MAX_CHARS);
    } finally {
      await memory.close();
    }
  });

  // Finding W2 (fixed): the search query went to the embedder whole (the query has no length limit in the tool's schema):
  // a 1 MB query is posted to a paid provider as it is (or over its token window, so the vector side fails), and
  // with the offline embedder W1's cost lands on every search.
  it("(was W2) caps the search query before it is embedded", async () => {
    const counting = conceptEmbedder();
    const dirs = folders.next();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: new InMemoryMemoryIndexStore(), embedder: counting });
    try {
      await memory.search({ query: `hound ${"dog ".repeat(250_000)}` });
      expect(Math.max(...counting.calls.flat().map((text) => text.length))).toBeLessThanOrEqual(MEMORY_EMBEDDING_TEXT_MAX_CHARS);
    } finally {
      await memory.close();
    }
  });
});
