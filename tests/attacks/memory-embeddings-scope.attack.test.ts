/**
 * Issue 40, area 1: the vector path keeps the memory's scope rules. On the
 * in-memory store, SQLite and PostgreSQL: one project's entry is never found
 * by another project's search by meaning (hybrid fusion, shadowing, a
 * crafted scope), archived / daily / type filters hold for vector-only
 * hits, a stale vector never answers for changed text, and a deleted entry's
 * vector never comes back, also when the embedding batch that read it
 * stores its vector after the delete.
 */
import { openMemoryService, type MemoryService } from "@agent-tools/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackBackends, attackFolders, conceptEmbedder, gate, unit } from "./memory-embeddings-harness.js";

const backends = attackBackends("attack-memory-embeddings-scope-");
const folders = attackFolders("attack-memory-embeddings-scope-dirs-");
beforeAll(() => backends.start(), 120_000);
afterAll(async () => {
  await backends.stop();
  folders.cleanup();
});

const ROUNDS = Number(process.env.ATTACK_ROUNDS ?? 12);
const entry = (slug: string, description: string, body: string, scope = "project") => ({ slug, scope, type: "reference", description, body });
const slugsOf = (result: { hits: readonly { record: { slug: string } }[] }) => result.hits.map((hit) => hit.record.slug);

describe.each(backends.list)("attack: memory vector scopes on $label", (backend) => {
  async function twoProjects<T>(
    body: (a: MemoryService, b: MemoryService, store: Awaited<ReturnType<typeof backend.open>>["store"]) => Promise<T>,
    embedder = conceptEmbedder(),
  ) {
    const dirs = folders.next();
    const opened = await backend.open();
    const a = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder, timeZone: "UTC" });
    const b = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectB, store: opened.store, embedder, timeZone: "UTC" });
    try {
      return await body(a, b, opened.store);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await opened.dispose();
    }
  }

  it("never answers project B's search by meaning with project A's entries (every scope choice, crafted scopes)", async () => {
    await twoProjects(async (a, b, store) => {
      // A's secret is about dogs; no word of the query "puppy" is in it, so only its vector could find it.
      expect((await a.write(entry("secret-plan", "Kennel plan", "Rex the hound and the terrier stay in the kennel."))).ok).toBe(true);
      expect((await b.write(entry("b-food", "Lunch", "Pasta at the trattoria."))).ok).toBe(true);
      expect((await b.write(entry("b-dog", "B pet", "A canine named Bo.", "global"))).ok).toBe(true);
      await Promise.all([a.embeddingsSettled(), b.embeddingsSettled()]);
      for (const scope of [undefined, "project", "global", "auto"] as const) {
        const found = await b.search({ query: "puppy", limit: 50, ...(scope === undefined ? {} : { scope }) });
        expect(found.vectorError).toBeUndefined();
        expect(found.indexes).toContain("vector");
        expect(slugsOf(found)).not.toContain("secret-plan");
        expect(found.hits.every((hit) => hit.record.scope === "global" || hit.record.workdirHash === b.workdirHash)).toBe(true);
      }
      // A finds its own entry by meaning: the vector side works, it is the scope that keeps B out.
      expect(slugsOf(await a.search({ query: "puppy", scope: "project" }))).toContain("secret-plan");
      // Scopes a hostile caller of the store could craft: SQL, a LIKE pattern, the global scope with A's hash, a prefix of A's hash.
      const crafted = [
        { scope: "project", workdirHash: "' or 1=1 --" },
        { scope: "project", workdirHash: "%" },
        { scope: "global", workdirHash: a.workdirHash },
        { scope: "project", workdirHash: a.workdirHash.slice(0, 8) },
        { scope: "project", workdirHash: `${a.workdirHash} ` },
        { scope: "project", workdirHash: a.workdirHash.toUpperCase() },
      ] as const;
      for (const ref of crafted) {
        const hits = await store.searchVectors({ scopes: [ref], modelId: "attack:concepts@4", vector: unit(1, 0, 0, 0), limit: 50 });
        expect(hits.map((hit) => hit.record.slug)).not.toContain("secret-plan");
      }
    });
  });

  it("shadows a global entry found only by meaning in the project that has its own entry of that slug, and only there", async () => {
    await twoProjects(async (a, b) => {
      expect((await a.write(entry("pet", "Shared pet", "Rex the hound.", "global"))).ok).toBe(true);
      expect((await a.write(entry("pet", "Project pet", "Here the terrier is Bo.", "project"))).ok).toBe(true);
      await Promise.all([a.embeddingsSettled(), b.embeddingsSettled()]);
      const inA = await a.search({ query: "puppy", limit: 20 });
      expect(inA.indexes).toContain("vector");
      expect(inA.hits.filter((hit) => hit.record.slug === "pet").map((hit) => [hit.record.scope, hit.matchedBy])).toEqual([["project", "vector"]]);
      const inB = await b.search({ query: "puppy", limit: 20 });
      expect(inB.hits.filter((hit) => hit.record.slug === "pet").map((hit) => hit.record.scope)).toEqual(["global"]);
    });
  });

  it("keeps archived, daily and other-type entries out of a search by meaning unless asked", async () => {
    await twoProjects(async (a, _b, store) => {
      expect((await a.write(entry("old-pet", "Old pet", "The hound we had."))).ok).toBe(true);
      expect((await a.write({ ...entry("user-pet", "User pet", "The user's terrier."), type: "user" })).ok).toBe(true);
      expect((await a.appendDaily("Walked the canine.")).ok).toBe(true);
      await a.embeddingsSettled();
      // Archive one entry as reconcile would (same text, so its vector stays current).
      const stored = await store.get({ scope: "project", workdirHash: a.workdirHash, slug: "old-pet" });
      expect(stored).toBeDefined();
      expect((await store.applyBatch([{ kind: "upsert", record: { ...stored!, archived: true } }], [])).ok).toBe(true);

      const plain = await a.search({ query: "puppy", limit: 20 });
      expect(plain.indexes).toContain("vector");
      expect(slugsOf(plain)).toEqual(["user-pet"]);
      expect(slugsOf(await a.search({ query: "puppy", limit: 20, includeArchived: true }))).toContain("old-pet");
      expect(slugsOf(await a.search({ query: "puppy", limit: 20, filterType: "reference" }))).toEqual([]);
      expect(slugsOf(await a.search({ query: "puppy", limit: 20, filterType: "reference", includeArchived: true }))).toEqual(["old-pet"]);
      const daily = await a.search({ query: "puppy", limit: 20, includeDaily: true });
      expect(daily.hits.some((hit) => hit.record.type === "daily" && hit.matchedBy === "vector")).toBe(true);
      expect(slugsOf(await a.search({ query: "puppy", limit: 20, filterType: "daily" })).every((slug) => slug.startsWith("daily-"))).toBe(true);
    });
  });

  // Finding V1 (fixed): the fusion's similarity floor is 0 and `>=`, so an entry whose vector has nothing in common
  // with the query (similarity 0) is a hit: a search by meaning for something no entry is about is never empty.
  it("(was V1) answers a query no entry is about with nothing, not with entries of similarity 0", async () => {
    await twoProjects(async (a) => {
      expect((await a.write(entry("lunch", "Lunch", "Pasta at the trattoria."))).ok).toBe(true);
      expect((await a.write(entry("trip", "Trip", "A flight to Lisbon."))).ok).toBe(true);
      await a.embeddingsSettled();
      const found = await a.search({ query: "puppy", limit: 10 });
      expect(found.indexes).toContain("vector");
      expect(slugsOf(found)).toEqual([]);
    });
  });

  it("never answers with a stale vector while the changed text waits to be embedded", async () => {
    const held = gate();
    const embedder = conceptEmbedder({ beforeEmbed: async (texts) => (texts.some((text) => text.includes("Lisbon")) ? held.promise : undefined) });
    await twoProjects(async (a, _b, store) => {
      expect((await a.write(entry("plan", "Plan", "Rex the hound comes along."))).ok).toBe(true);
      await a.embeddingsSettled();
      expect(slugsOf(await a.search({ query: "puppy" }))).toEqual(["plan"]);
      expect((await a.update({ slug: "plan", scope: "project", body: "A flight to Lisbon, nothing else." })).ok).toBe(true);
      // The new text's embedding is held; the old vector (dogs) must not answer for the new text.
      const during = await a.search({ query: "puppy", limit: 20 });
      expect(during.indexes).toContain("vector");
      expect(slugsOf(during)).toEqual([]);
      held.open();
      await a.embeddingsSettled();
      expect(slugsOf(await a.search({ query: "airport" }))).toEqual(["plan"]);
      // The dog vector is gone: what is left of "plan" has nothing in common with the query.
      const [left] = await store.searchVectors({
        scopes: [{ scope: "project", workdirHash: a.workdirHash }],
        modelId: embedder.modelId,
        vector: unit(1, 0, 0, 0),
        limit: 5,
      });
      expect(left?.similarity ?? 0).toBeLessThan(0.01);
    }, embedder);
  });

  it("never brings a deleted entry's vector back, when the batch that read it stores after the delete", async () => {
    let held = gate();
    let reading: () => void = () => {};
    const embedder = conceptEmbedder({
      beforeEmbed: async () => {
        reading();
        await held.promise;
      },
    });
    await twoProjects(async (a, _b, store) => {
      for (let round = 0; round < ROUNDS; round += 1) {
        held = gate();
        const inFlight = new Promise<void>((resolve) => {
          reading = resolve;
        });
        expect((await a.write(entry(`gone-${round}`, "Gone", "The hound leaves."))).ok).toBe(true);
        await inFlight; // the queue has read the entry and is embedding it
        expect((await a.delete({ slug: `gone-${round}`, scope: "project" })).ok).toBe(true);
        held.open();
        await a.embeddingsSettled();
      }
      // Round two: the delete and the store's putVectors race without a gate.
      reading = () => {};
      held.open();
      const record = async (slug: string) => store.get({ scope: "project", workdirHash: a.workdirHash, slug });
      for (let round = 0; round < ROUNDS; round += 1) {
        expect((await a.write(entry(`race-${round}`, "Race", "The terrier runs."))).ok).toBe(true);
        const current = await record(`race-${round}`);
        const [, put] = await Promise.all([
          a.delete({ slug: `race-${round}`, scope: "project" }),
          store.putVectors([
            {
              key: { scope: "project", workdirHash: a.workdirHash, slug: `race-${round}` },
              modelId: embedder.modelId,
              bodyHash: current!.bodyHash,
              vector: unit(1, 0, 0, 0),
            },
          ]),
        ]);
        expect(put.stored).toBeLessThanOrEqual(1);
      }
      await a.embeddingsSettled();
      const hits = await store.searchVectors({
        scopes: [{ scope: "project", workdirHash: a.workdirHash }],
        modelId: embedder.modelId,
        vector: unit(1, 0, 0, 0),
        limit: 100,
      });
      expect(hits.map((hit) => hit.record.slug)).toEqual([]);
      expect(slugsOf(await a.search({ query: "puppy", limit: 50 })).filter((slug) => slug.startsWith("gone-") || slug.startsWith("race-"))).toEqual([]);
      expect(await store.vectorBacklog({ modelId: embedder.modelId, limit: 100 })).toEqual([]);
      // A re-created entry of another text has no vector of the old one.
      expect((await a.write(entry("gone-0", "Back", "Pasta at the trattoria."))).ok).toBe(true);
      await a.embeddingsSettled();
      const back = await store.searchVectors({
        scopes: [{ scope: "project", workdirHash: a.workdirHash }],
        modelId: embedder.modelId,
        vector: unit(1, 0, 0, 0),
        limit: 5,
      });
      expect(back.map((hit) => [hit.record.slug, hit.similarity < 0.01])).toEqual([["gone-0", true]]);
      expect(slugsOf(await a.search({ query: "restaurant", limit: 50 }))).toEqual(["gone-0"]);
    }, embedder);
  });
});
