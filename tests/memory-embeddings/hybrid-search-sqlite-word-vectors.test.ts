// Hybrid memory search end to end on a real SQLite index with the real offline embedder (averaged word vectors):
// entries embedded on write, found by meaning, kept across a reopen, re-embedded under another model id.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EmbedOptions, EmbeddingClient } from "@agent-tools/core/embedding";
import { KyselyMemoryIndexStore, type MemoryService, openMemoryService } from "@agent-tools/memory";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWordVectorEmbedder } from "../../packages/word-vectors/src/index.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-hybrid-sqlite-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** The offline embedder under another model id, counting the texts it embeds. */
function counted(inner: EmbeddingClient, modelId = inner.modelId): EmbeddingClient & { texts: string[] } {
  const texts: string[] = [];
  return {
    modelId,
    dimension: inner.dimension,
    maxBatchSize: inner.maxBatchSize,
    texts,
    embed(batch: readonly string[], options?: EmbedOptions) {
      texts.push(...batch);
      return inner.embed(batch, options);
    },
  };
}

let wordVectors: EmbeddingClient;
beforeAll(async () => {
  wordVectors = await createWordVectorEmbedder();
}, 300_000);

const entries = [
  { slug: "family-pet", description: "Family pet", body: "Our dog Rex sleeps on the sofa all afternoon." },
  { slug: "friday-food", description: "Friday food", body: "We order pizza with extra cheese on Fridays." },
  { slug: "summer-travel", description: "Summer travel", body: "A flight to Lisbon in May, hotel by the beach." },
  { slug: "build-setup", description: "Build setup", body: "The compiler runs in watch mode; tests run before each commit." },
];

async function open(filename: string, embedder: EmbeddingClient): Promise<MemoryService> {
  const storage = await openSqliteStorage({ filename });
  const store = await KyselyMemoryIndexStore.open(storage);
  const memory = await openMemoryService({ dataDir: path.join(temporary, "data"), workdir: temporary, store, embedder });
  const close = memory.close.bind(memory);
  // The test opened the storage for the service: close it after the service (and its store).
  Object.assign(memory, {
    close: async () => {
      await close();
      await store.close?.();
      await storage.close();
    },
  });
  return memory;
}

describe("hybrid memory search on SQLite with the offline word-vector embedder", () => {
  it("finds entries by meaning, keeps the vectors across a reopen and re-embeds under a new model id", async () => {
    const filename = path.join(temporary, "index.sqlite");
    const first = counted(wordVectors);
    const memory = await open(filename, first);
    try {
      expect(await memory.store.vectorIndexKind()).toBe("scan");
      for (const entry of entries) expect((await memory.write({ ...entry, scope: "global", type: "reference" })).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(memory.embeddingStatus()).toMatchObject({ state: "idle", embedded: 4, consecutiveFailures: 0 });
      expect(await memory.store.vectorBacklog({ modelId: first.modelId, limit: 10 })).toEqual([]);
      // None of these words is in the entry it should find.
      for (const [query, slug] of [
        ["puppy", "family-pet"],
        ["lasagna restaurant", "friday-food"],
        ["airport vacation", "summer-travel"],
      ] as const) {
        const found = await memory.search({ query, limit: 4 });
        expect(found.indexes, query).toContain("vector");
        expect(found.hits[0], query).toMatchObject({ record: { slug }, matchedBy: "vector" });
      }
      // A word match still leads.
      expect((await memory.search({ query: "compiler", limit: 4 })).hits[0]).toMatchObject({ record: { slug: "build-setup" }, matchedBy: "words" });
    } finally {
      await memory.close();
    }

    // Reopened with the same model: nothing to embed again.
    const same = counted(wordVectors);
    const reopened = await open(filename, same);
    try {
      await reopened.embeddingsSettled();
      expect(same.texts).toEqual([]);
      expect((await reopened.search({ query: "puppy", limit: 1 })).hits[0]?.record.slug).toBe("family-pet");
    } finally {
      await reopened.close();
    }

    // Another model id: every entry is re-embedded; the old vectors stay until the host prunes them.
    const next = counted(wordVectors, `${wordVectors.modelId}+renamed`);
    const renamed = await open(filename, next);
    try {
      await renamed.embeddingsSettled();
      expect(next.texts).toHaveLength(4);
      const scopes = [{ scope: "global" as const, workdirHash: "" }];
      const [vector] = await next.embed(["puppy"]);
      const norm = Math.hypot(...vector!);
      const unit = vector!.map((value) => value / norm);
      expect(await renamed.store.searchVectors({ scopes, modelId: wordVectors.modelId, vector: unit, limit: 4 })).toHaveLength(4);
      expect((await renamed.store.searchVectors({ scopes, modelId: next.modelId, vector: unit, limit: 1 }))[0]?.record.slug).toBe("family-pet");
      // Switching for good: the host reclaims the old model's space.
      expect(await renamed.store.pruneVectors({ keepModelId: next.modelId })).toBe(4);
      expect(await renamed.store.searchVectors({ scopes, modelId: wordVectors.modelId, vector: unit, limit: 4 })).toEqual([]);
    } finally {
      await renamed.close();
    }
  }, 120_000);
});
