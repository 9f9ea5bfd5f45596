import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ModelClientError, SdkError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { afterAll, describe, expect, it, vi } from "vitest";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import { conceptEmbedder, conceptVector } from "./__fixtures__/concept-embedder.js";
import { MEMORY_EMBEDDING_TEXT_MAX_CHARS, unitVector } from "./memory-embedding-text.js";
import { openMemoryService } from "./memory-service.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function directories() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-embedding-")));
  roots.push(root);
  fs.mkdirSync(path.join(root, "project"));
  fs.mkdirSync(path.join(root, "other-project"));
  return { dataDir: path.join(root, "data"), workdir: path.join(root, "project"), other: path.join(root, "other-project") };
}

const entry = (slug: string, description: string, body: string, scope = "global") => ({ slug, scope, type: "reference", description, body });
const slugs = (result: { hits: readonly { record: { slug: string } }[] }) => result.hits.map((hit) => hit.record.slug);
const queryVector = (text: string) => unitVector(Float32Array.from(conceptVector(text)))!;

describe("MemoryService with an embedder: embedding on write", () => {
  it("finds an entry by meaning once embedded, forgets it on delete and re-embeds it on update", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const embedder = conceptEmbedder();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder });
    try {
      expect((await memory.write(entry("family-pet", "Family pet", "Rex the hound sleeps on the sofa."))).ok).toBe(true);
      expect((await memory.write(entry("friday-food", "Friday food", "We order from the trattoria on Fridays."))).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(memory.embeddingStatus()).toMatchObject({ modelId: "test:concepts@4", state: "idle", queued: 0, embedded: 2, consecutiveFailures: 0 });
      expect(embedder.calls.flat()).toContain("Family pet\nRex the hound sleeps on the sofa.");

      // No word of the query is in the entry: only the vector index can find it.
      const byMeaning = await memory.search({ query: "which puppy", limit: 3 });
      expect(byMeaning.indexes).toContain("vector");
      expect(byMeaning.vectorError).toBeUndefined();
      expect(byMeaning.hits[0]).toMatchObject({ record: { slug: "family-pet" }, matchedBy: "vector" });
      const restaurant = await memory.search({ query: "restaurant", limit: 1 });
      expect(slugs(restaurant)).toEqual(["friday-food"]);

      // Delete: the entry and its vector go in one transaction.
      expect((await memory.delete({ slug: "family-pet", scope: "global" })).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(slugs(await memory.search({ query: "which puppy" }))).not.toContain("family-pet");
      const vectors = await store.searchVectors({
        scopes: [{ scope: "global", workdirHash: "" }],
        modelId: embedder.modelId,
        vector: queryVector("puppy"),
        limit: 10,
      });
      expect(vectors.map((hit) => hit.record.slug)).toEqual(["friday-food"]);

      // Update: the new text is embedded, the old meaning no longer finds it.
      const updated = await memory.update({ slug: "friday-food", scope: "global", body: "Our next holiday: a flight to Lisbon." });
      expect(updated.ok).toBe(true);
      await memory.embeddingsSettled();
      expect(embedder.calls.flat()).toContain("Friday food\nOur next holiday: a flight to Lisbon.");
      expect(slugs(await memory.search({ query: "airport", limit: 1 }))).toEqual(["friday-food"]);
      const [nearest] = await store.searchVectors({
        scopes: [{ scope: "global", workdirHash: "" }],
        modelId: embedder.modelId,
        vector: queryVector("pizza"),
        limit: 1,
      });
      expect(nearest?.similarity ?? 0).toBeLessThan(0.5);
      expect(await store.vectorBacklog({ modelId: embedder.modelId, limit: 10 })).toEqual([]);
    } finally {
      await memory.close();
    }
  });

  it("embeds the backlog of a new model id on open and leaves the old model's vectors until the host prunes them", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const first = conceptEmbedder({ modelId: "test:concepts@v1" });
    const before = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder: first });
    for (const [slug, body] of [
      ["pet", "The terrier is called Rex."],
      ["lunch", "Lunch is pasta on Mondays."],
      ["trip", "The airline lost the bag."],
    ] as const) {
      expect((await before.write(entry(slug, `About ${slug}`, body))).ok).toBe(true);
    }
    await before.embeddingsSettled();
    await before.close();
    const scopes = [{ scope: "global" as const, workdirHash: "" }];
    expect(await store.searchVectors({ scopes, modelId: first.modelId, vector: queryVector("dog"), limit: 10 })).toHaveLength(3);

    // A new model: every entry is in its backlog; the old model's vectors stay (pruning is the host's call).
    const second = conceptEmbedder({ modelId: "test:concepts@v2", maxBatchSize: 2 });
    const after = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder: second });
    try {
      await after.embeddingsSettled();
      expect(await store.vectorBacklog({ modelId: second.modelId, limit: 10 })).toEqual([]);
      expect(await store.searchVectors({ scopes, modelId: first.modelId, vector: queryVector("dog"), limit: 10 })).toHaveLength(3);
      // Switching models for good: the host reclaims the old model's space.
      expect(await store.pruneVectors({ keepModelId: second.modelId })).toBe(3);
      expect(await store.searchVectors({ scopes, modelId: first.modelId, vector: queryVector("dog"), limit: 10 })).toEqual([]);
      expect(await store.searchVectors({ scopes, modelId: second.modelId, vector: queryVector("dog"), limit: 10 })).toHaveLength(3);
      // Batches of at most maxBatchSize, every entry once.
      expect(second.calls.every((texts) => texts.length <= 2)).toBe(true);
      expect(second.calls.flat().sort()).toEqual([
        "About lunch\nLunch is pasta on Mondays.",
        "About pet\nThe terrier is called Rex.",
        "About trip\nThe airline lost the bag.",
      ]);
      expect(after.embeddingStatus()).toMatchObject({ modelId: "test:concepts@v2", embedded: 3, backlogPending: false });
      expect(slugs(await after.search({ query: "canine", limit: 1 }))).toEqual(["pet"]);
    } finally {
      await after.close();
    }
  });

  it("keeps writing and answers lexically while the embedder fails, then catches up", async () => {
    const dirs = directories();
    let failing = true;
    const embedder = conceptEmbedder({
      beforeEmbed: () => {
        if (failing) throw new ModelClientError("http_error", "HTTP 503: the embedding service is overloaded", { status: 503 });
      },
    });
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store: new InMemoryMemoryIndexStore(), embedder });
    try {
      const written = await memory.write(entry("family-pet", "Family pet", "Rex the hound sleeps on the sofa."));
      expect(written).toMatchObject({ ok: true, outcome: "created" });
      await memory.embeddingsSettled();
      const status = memory.embeddingStatus();
      expect(status).toMatchObject({ state: "retrying", embedded: 0, consecutiveFailures: 1, lastError: { code: "http_error" } });
      expect(status?.lastError?.message).toContain("503");

      const search = await memory.search({ query: "hound" });
      expect(slugs(search)).toEqual(["family-pet"]);
      expect(search.indexes).not.toContain("vector");
      expect(search.vectorError).toContain("503");

      // The next change retries at once: the failed entry is embedded with it.
      failing = false;
      expect((await memory.write(entry("trip", "Trip", "The airline lost the bag."))).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(memory.embeddingStatus()).toMatchObject({ state: "idle", embedded: 2, consecutiveFailures: 0 });
      expect(memory.embeddingStatus()?.lastError).toBeUndefined();
      const byMeaning = await memory.search({ query: "puppy" });
      expect(byMeaning.hits[0]).toMatchObject({ record: { slug: "family-pet" }, matchedBy: "vector" });
    } finally {
      await memory.close();
    }
  });

  it("aborts the batch in flight on close and stores nothing after", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    let seenSignal: AbortSignal | undefined;
    const embedder = conceptEmbedder({
      // Held until the service closes: the call only ends by its abort.
      beforeEmbed: (_texts, signal) => {
        seenSignal = signal;
        return new Promise<void>(() => {});
      },
    });
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder });
    expect((await memory.write(entry("family-pet", "Family pet", "Rex the hound."))).ok).toBe(true);
    await vi.waitFor(() => expect(embedder.calls).toHaveLength(1));
    expect(memory.embeddingStatus()?.state).toBe("embedding");
    await memory.close();
    expect(seenSignal?.aborted).toBe(true);
    expect(memory.embeddingStatus()).toMatchObject({ state: "closed", embedded: 0 });
    expect(memory.embeddingStatus()?.lastError).toBeUndefined();
    expect((await store.vectorBacklog({ modelId: embedder.modelId, limit: 10 })).map((record) => record.slug)).toEqual(["family-pet"]);
    await memory.embeddingsSettled();
  });

  it("coalesces changes made while a batch is in flight, and stores no vector of a text that moved on", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    let release: () => void = () => {};
    let held = true;
    const embedder = conceptEmbedder({
      beforeEmbed: () => {
        if (!held) return;
        held = false;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder });
    try {
      expect((await memory.write(entry("note", "Note", "A terrier."))).ok).toBe(true);
      await vi.waitFor(() => expect(embedder.calls).toHaveLength(1));
      // While the first batch (of "A terrier.") is held, the entry changes three times and another entry is written.
      for (const body of ["A pizza.", "A pasta lunch.", "A flight to Rome."])
        expect((await memory.update({ slug: "note", scope: "global", body })).ok).toBe(true);
      expect((await memory.write(entry("other", "Other", "The compiler."))).ok).toBe(true);
      expect(memory.embeddingStatus()).toMatchObject({ state: "embedding", queued: 2 });
      release();
      await memory.embeddingsSettled();
      // The held batch's vector was refused (its body hash moved on); the next batch embedded each entry once, as it is now.
      expect(embedder.calls.slice(1).flat().sort()).toEqual(["Note\nA flight to Rome.", "Other\nThe compiler."]);
      expect(await store.vectorBacklog({ modelId: embedder.modelId, limit: 10 })).toEqual([]);
      expect(memory.embeddingStatus()).toMatchObject({ state: "idle", queued: 0, embedded: 2 });
      expect(slugs(await memory.search({ query: "airport", limit: 1 }))).toEqual(["note"]);
      expect(slugs(await memory.search({ query: "canine", limit: 8 }))).toEqual([]);
    } finally {
      await memory.close();
    }
  });

  it("does not wait on an embedder that ignores its signal: an aborted search answers lexically, close() returns", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const calls: string[][] = [];
    // Never answers and never looks at the signal.
    const deaf: EmbeddingClient = {
      modelId: "test:deaf@2",
      dimension: 2,
      maxBatchSize: 8,
      embed: (texts) => {
        calls.push([...texts]);
        return new Promise(() => {});
      },
    };
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder: deaf });
    expect((await memory.write(entry("family-pet", "Family pet", "Rex the hound."))).ok).toBe(true);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const controller = new AbortController();
    const searching = memory.search({ query: "hound", signal: controller.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    controller.abort();
    const search = await searching;
    expect(slugs(search)).toEqual(["family-pet"]);
    expect(search.vectorError).toBe("the search was aborted while its query was embedded");
    await memory.close();
    expect(memory.embeddingStatus()).toMatchObject({ state: "closed", embedded: 0 });
    expect(memory.embeddingStatus()?.lastError).toBeUndefined();
  });

  it("embeds at most the first 8,192 characters of a query, as of an entry", async () => {
    const dirs = directories();
    const embedder = conceptEmbedder();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store: new InMemoryMemoryIndexStore(), embedder });
    try {
      expect((await memory.write(entry("long", "Long", `puppy ${"x".repeat(8_000)}`))).ok).toBe(true);
      await memory.embeddingsSettled();
      const found = await memory.search({ query: `puppy ${"y".repeat(1_000_000)}` });
      expect(found.vectorError).toBeUndefined();
      expect(embedder.calls.flat().map((text) => text.length)).toEqual(["Long\npuppy ".length + 8_000, MEMORY_EMBEDDING_TEXT_MAX_CHARS]);
      expect(found.indexes).toContain("vector");
      expect(found.hits[0]?.record.slug).toBe("long");
    } finally {
      await memory.close();
    }
  });

  it("never answers one project's search with another project's vectors", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const embedder = conceptEmbedder();
    const projectA = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder });
    const projectB = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.other, store, embedder });
    try {
      expect((await projectA.write(entry("pet", "Our pet", "Rex the hound.", "project"))).ok).toBe(true);
      expect((await projectB.write(entry("food", "Our food", "Pasta on Mondays.", "project"))).ok).toBe(true);
      await Promise.all([projectA.embeddingsSettled(), projectB.embeddingsSettled()]);
      const inB = await projectB.search({ query: "puppy", limit: 32 });
      expect(inB.indexes).toContain("vector");
      expect(inB.hits.every((hit) => hit.record.workdirHash === projectB.workdirHash)).toBe(true);
      expect(slugs(inB)).not.toContain("pet");
      expect(slugs(await projectA.search({ query: "puppy", limit: 32 }))).toEqual(["pet"]);
    } finally {
      await Promise.all([projectA.close(), projectB.close()]);
    }
  });

  it("applies the lexical rules to vector-only hits: project shadows global, daily only when asked, supersession", async () => {
    const dirs = directories();
    const embedder = conceptEmbedder();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store: new InMemoryMemoryIndexStore(), embedder, timeZone: "UTC" });
    try {
      expect((await memory.write(entry("pet", "Pet", "Rex the hound."))).ok).toBe(true);
      expect((await memory.write(entry("pet", "Pet here", "In this project the terrier is Bo.", "project"))).ok).toBe(true);
      // By meaning the old entry is nearer the query (food only) than its replacement (food and code).
      expect((await memory.write(entry("old-lunch", "Lunch", "Pizza at noon."))).ok).toBe(true);
      expect((await memory.write({ ...entry("new-lunch", "Lunch now", "Pasta at one, then the build."), supersedes: "old-lunch" })).ok).toBe(true);
      expect((await memory.appendDaily("Walked the canine.")).ok).toBe(true);
      await memory.embeddingsSettled();

      const pets = await memory.search({ query: "puppy", limit: 8 });
      expect(pets.hits.filter((hit) => hit.record.slug === "pet").map((hit) => hit.record.scope)).toEqual(["project"]);
      expect(pets.hits.some((hit) => hit.record.type === "daily")).toBe(false);
      const withDaily = await memory.search({ query: "puppy", limit: 8, includeDaily: true });
      expect(withDaily.hits.some((hit) => hit.record.type === "daily" && hit.matchedBy === "vector")).toBe(true);

      // "trattoria" is in neither lunch entry; the older one (superseded) ranks just below its replacement.
      const lunch = slugs(await memory.search({ query: "trattoria", limit: 8 }));
      expect(lunch.indexOf("old-lunch")).toBe(lunch.indexOf("new-lunch") + 1);
    } finally {
      await memory.close();
    }
  });
});

describe("MemoryService without an embedder, and the option check", () => {
  it("searches lexically only and reports no embedding status", async () => {
    const dirs = directories();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store: new InMemoryMemoryIndexStore() });
    try {
      expect((await memory.write(entry("family-pet", "Family pet", "Rex the hound."))).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(memory.embeddingStatus()).toBeUndefined();
      const search = await memory.search({ query: "puppy" });
      expect(search.hits).toEqual([]);
      expect(search.indexes).not.toContain("vector");
      expect(search.vectorError).toBeUndefined();
      const found = await memory.search({ query: "hound" });
      expect(slugs(found)).toEqual(["family-pet"]);
      expect(found.indexes).toContain("words");
      expect(found.indexes).not.toContain("vector");
    } finally {
      await memory.close();
    }
  });

  it("refuses an embedder option that is not an EmbeddingClient, naming it", async () => {
    const dirs = directories();
    for (const embedder of [
      "text-embedding-3-small",
      { modelId: "x", dimension: 0, maxBatchSize: 1, embed: () => [] },
      { modelId: "x", dimension: 4, maxBatchSize: 8 },
      { modelId: "x", dimension: 20_000, maxBatchSize: 8, embed: () => [] },
      { modelId: "model:\u0000nul@4", dimension: 4, maxBatchSize: 8, embed: () => [] },
      { modelId: "m".repeat(257), dimension: 4, maxBatchSize: 8, embed: () => [] },
    ]) {
      const opening = openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store: new InMemoryMemoryIndexStore(), embedder: embedder as never });
      await expect(opening).rejects.toBeInstanceOf(SdkError);
      await expect(opening).rejects.toMatchObject({
        code: "invalid_options",
        details: { option: "embedder" },
        message: expect.stringContaining("embedder must be an EmbeddingClient"),
      });
    }
  });
});
