import { SdkError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { beforeAll, describe, expect, it } from "vitest";
import { createWordVectorEmbedder } from "./index.js";

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let index = 0; index < a.length; index += 1) dot += a[index]! * b[index]!;
  return dot;
}

function norm(vector: Float32Array): number {
  return Math.sqrt(cosine(vector, vector));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("createWordVectorEmbedder (real wink vectors)", () => {
  let embedder: EmbeddingClient;
  beforeAll(async () => {
    embedder = await createWordVectorEmbedder({ vocabularySize: 50_000 });
  });

  it("names its model, vocabulary and weighting, and has 100 dimensions", () => {
    expect(embedder.modelId).toBe("wink-sg-100d@1.1.0:50000:sif");
    expect(embedder.dimension).toBe(100);
    expect(embedder.maxBatchSize).toBeGreaterThanOrEqual(1000);
  });

  it("scores sentences of like meaning above unrelated ones", async () => {
    const [dog, puppy, tax] = await embedder.embed(["I adore my dog", "my puppy is lovely", "the tax form is due"]);
    expect(cosine(dog!, puppy!)).toBeGreaterThan(cosine(dog!, tax!));
    expect(cosine(dog!, puppy!)).toBeGreaterThan(cosine(puppy!, tax!));
    const [bank, loan, beach] = await embedder.embed([
      "the bank approved my mortgage",
      "a loan from the lender for the house",
      "we swam in the sea at the beach",
    ]);
    expect(cosine(bank!, loan!)).toBeGreaterThan(cosine(bank!, beach!));
  });

  it("returns one finite unit vector of 100 components per text, in order", async () => {
    const texts = ["Hello there", "", "the", "zzqxv 9931-b", "A much longer text about cooking pasta with my grandmother on Sundays."];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(100);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    const [again] = await embedder.embed([texts[4]!]);
    expect(Array.from(again!)).toEqual(Array.from(vectors[4]!));
    expect(await embedder.embed([])).toEqual([]);
  });

  it("ignores case, diacritics, possessives and contractions", async () => {
    const [plain, shouting, accented] = await embedder.embed(["cafe creme in paris", "CAFE CREME IN PARIS", "Café crème in Paris"]);
    expect(Array.from(shouting!)).toEqual(Array.from(plain!));
    expect(Array.from(accented!)).toEqual(Array.from(plain!));
    const [possessive, bare] = await embedder.embed(["Kate's dog doesn't bark", "kate dog does not bark"]);
    expect(Array.from(possessive!)).toEqual(Array.from(bare!));
  });

  it("gives a text without words one fixed non-zero vector, unlike any real text", async () => {
    const [empty, punctuation, real] = await embedder.embed(["", "?!  ...", "my dog likes long walks"]);
    expect(Array.from(punctuation!)).toEqual(Array.from(empty!));
    expect(Math.abs(cosine(empty!, real!))).toBeLessThan(0.5);
  });

  it("matches texts made of the same unknown words, and no real text", async () => {
    const [code, sameCode, otherCode, real] = await embedder.embed(["xqzvbn-7731", "XQZVBN-7731", "plorkquux", "my dog likes long walks"]);
    expect(cosine(code!, sameCode!)).toBeCloseTo(1, 5);
    expect(cosine(code!, otherCode!)).toBeLessThan(0.5);
    expect(Math.abs(cosine(code!, real!))).toBeLessThan(0.5);
  });

  it("rejects with an AbortError when the signal is aborted before or during a call", async () => {
    const before = new AbortController();
    before.abort();
    expect(((await rejection(embedder.embed(["a dog"], { signal: before.signal }))) as Error).name).toBe("AbortError");
    const during = new AbortController();
    const pending = embedder.embed(
      Array.from({ length: 5000 }, (_, index) => `text number ${index} about dogs and cats`),
      { signal: during.signal },
    );
    during.abort(new Error("not an abort error"));
    expect(((await rejection(pending)) as Error).name).toBe("AbortError");
  });

  it("rejects texts that are not strings with an SdkError", async () => {
    const error = await rejection(embedder.embed(["fine", 42 as unknown as string]));
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).details).toEqual({ option: "texts[1]" });
  });
});

describe("createWordVectorEmbedder options", () => {
  it("rejects an unknown option, naming it and the closest known one", async () => {
    const error = await rejection(createWordVectorEmbedder({ vocabulary: 5000 } as never));
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("invalid_options");
    expect((error as SdkError).message).toContain("vocabulary is not an option");
    expect((error as SdkError).message).toContain("did you mean vocabularySize?");
  });

  it("rejects invalid values, naming the option", async () => {
    for (const [options, option] of [
      [{ vocabularySize: 10 }, "vocabularySize"],
      [{ vocabularySize: 2.5 }, "vocabularySize"],
      [{ vocabularySize: 400_000 }, "vocabularySize"],
      [{ weighting: "tfidf" }, "weighting"],
      [{ signal: "stop" }, "signal"],
    ] as const) {
      const error = await rejection(createWordVectorEmbedder(options as never));
      expect(error, option).toBeInstanceOf(SdkError);
      expect((error as SdkError).details).toEqual({ option });
    }
  });

  it("stops loading with an AbortError when its signal aborts", async () => {
    const before = new AbortController();
    before.abort();
    expect(((await rejection(createWordVectorEmbedder({ signal: before.signal }))) as Error).name).toBe("AbortError");
    const during = new AbortController();
    const pending = createWordVectorEmbedder({ vocabularySize: 341_479, signal: during.signal });
    setTimeout(() => during.abort(), 20);
    expect(((await rejection(pending)) as Error).name).toBe("AbortError");
  });
});
