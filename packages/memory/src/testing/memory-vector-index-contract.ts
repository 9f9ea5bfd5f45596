/**
 * The vector part of the memory index contract ({@link MemoryVectorIndex}):
 * scope isolation, body-hash currency, cascades, model ids, pruning, the
 * type and archived filters, the result order (ties by slug) and input
 * validation. Every case uses a model id of its own, so a shared backend's
 * earlier vectors never answer.
 */
import { describe, expect, it } from "vitest";
import { type ContractContext, type MemoryIndexStoreContractTarget, GLOBAL, contractContext, fixture, keyOf } from "./memory-contract-fixtures.js";
import { backlogSlugs, expectInvalid, unit, vectorRow, vectorSlugs } from "./memory-vector-contract-helpers.js";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import { describeMemoryVectorFreshnessContract } from "./memory-vector-freshness-contract.js";
import { describeMemoryVectorRaceContract } from "./memory-vector-race-contract.js";

/** A model id no other test uses. */
function modelOf(prefix: string, name = "m"): string {
  return `test:${name}-${prefix}`;
}

/** The vector contract cases, on a context of the store contract. */
export function describeMemoryVectorIndexContract(context: ContractContext): void {
  const { withStore, put } = context;

  it("answers nothing with no vectors stored, and lists every live entry in the backlog", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      expect(await store.searchVectors({ scopes: [f.project, GLOBAL], modelId: model, vector: unit(1, 0, 0, 0), limit: 8 })).toEqual([]);
      expect(await store.putVectors([])).toEqual({ stored: 0 });
      const one = f.record("one");
      await put(store, one);
      expect(await store.searchVectors({ scopes: [f.project], modelId: model, vector: unit(1, 0, 0, 0), limit: 8 })).toEqual([]);
      expect(await backlogSlugs(store, model, [one])).toEqual([one.slug]);
      expect(["scan", "pgvector"]).toContain(await store.vectorIndexKind());
    });
  });

  it("finds an entry by its vector, replaces a vector of the same model, and skips rows of entries that do not exist", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const near = f.record("near");
      const far = f.record("far");
      await put(store, near, far);
      const ghost = f.record("ghost");
      expect(
        await store.putVectors([vectorRow(near, model, unit(1, 0, 0, 0)), vectorRow(far, model, unit(0, 1, 0, 0)), vectorRow(ghost, model, unit(1, 0, 0, 0))]),
      ).toEqual({
        stored: 2,
      });
      const hits = await store.searchVectors({ scopes: [f.project], modelId: model, vector: unit(1, 0.1, 0, 0), limit: 8 });
      expect(hits.map((hit) => hit.record)).toEqual([near, far]);
      expect(hits[0]?.similarity).toBeCloseTo(1 / Math.hypot(1, 0.1), 6);
      expect(hits[1]?.similarity).toBeCloseTo(0.1 / Math.hypot(1, 0.1), 6);
      expect(await backlogSlugs(store, model, [near, far, ghost])).toEqual([]);
      // A second vector of the same entry and model replaces the first.
      expect(await store.putVectors([vectorRow(far, model, unit(1, 0, 0, 0)), vectorRow(near, model, unit(0, 0, 1, 0))])).toEqual({ stored: 2 });
      expect(await vectorSlugs(store, { scopes: [f.project], modelId: model, vector: unit(1, 0, 0, 0) })).toEqual([far.slug, near.slug]);
      // A caller reusing its array after the put changes nothing stored.
      const reused = unit(0, 0, 0, 1);
      await store.putVectors([vectorRow(near, model, reused)]);
      reused.set([1, 0, 0, 0]);
      expect(await vectorSlugs(store, { scopes: [f.project], modelId: model, vector: unit(0, 0, 0, 1), limit: 1 })).toEqual([near.slug]);
    });
  });

  it("never answers a query with another scope's vectors", async () => {
    await withStore(async (store) => {
      const a = fixture();
      const b = fixture();
      const model = modelOf(a.prefix);
      const ofA = a.record("secret", { description: "project A's secret" });
      const ofB = { ...b.record("other"), slug: ofA.slug }; // the same slug in project B
      const shared = a.global("shared-global");
      await put(store, ofA, ofB, shared);
      // A's entry matches the query exactly; B's and global's are orthogonal.
      await store.putVectors([vectorRow(ofA, model, unit(1, 0, 0, 0)), vectorRow(ofB, model, unit(0, 1, 0, 0)), vectorRow(shared, model, unit(0, 0, 1, 0))]);
      const query = { modelId: model, vector: unit(1, 0, 0, 0) };
      const bHits = await store.searchVectors({ ...query, scopes: [b.project, GLOBAL], limit: 32 });
      expect(bHits.map((hit) => [hit.record.workdirHash, hit.record.slug])).toEqual([
        [b.project.workdirHash, ofA.slug],
        ["", shared.slug],
      ]);
      expect(bHits.map((hit) => hit.record.description)).not.toContain("project A's secret");
      expect(await vectorSlugs(store, { ...query, scopes: [] })).toEqual([]);
      expect(await vectorSlugs(store, { ...query, scopes: [{ scope: "global", workdirHash: a.project.workdirHash }] })).toEqual([]);
      expect(await vectorSlugs(store, { ...query, scopes: [{ scope: "project", workdirHash: "" }] })).toEqual([]);
      for (const hostile of [
        `${a.project.workdirHash}' or '1'='1`,
        `${a.project.workdirHash.slice(0, 8)}%`,
        a.project.workdirHash.toUpperCase(),
        `${a.project.workdirHash} `,
      ]) {
        expect(await vectorSlugs(store, { ...query, scopes: [{ scope: "project", workdirHash: hostile }] }), hostile).toEqual([]);
      }
      // A row for B's key carrying A's hash and vector is B's vector only if B's entry has that hash.
      expect(await store.putVectors([vectorRow(ofB, model, unit(1, 0, 0, 0), "f".repeat(64))])).toEqual({ stored: 0 });
      expect((await store.searchVectors({ ...query, scopes: [b.project], limit: 1 }))[0]?.similarity).toBeCloseTo(0, 6);
      // A's own scope still answers with A's entry.
      expect(await vectorSlugs(store, { ...query, scopes: [a.project], limit: 1 })).toEqual([ofA.slug]);
    });
  });

  it("ignores a vector whose body hash is no longer the entry's, and lists the entry in the backlog until it is embedded again", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const entry = f.record("entry", { bodyHash: "1".repeat(64) });
      await put(store, entry);
      await store.putVectors([vectorRow(entry, model, unit(1, 0, 0, 0))]);
      const changed = { ...entry, body: "changed", bodyHash: "2".repeat(64), updatedAt: entry.updatedAt + 1 };
      await put(store, changed);
      const query = { scopes: [f.project], modelId: model, vector: unit(1, 0, 0, 0) };
      expect(await vectorSlugs(store, query)).toEqual([]);
      expect(await backlogSlugs(store, model, [entry])).toEqual([entry.slug]);
      // A late row of the old text is skipped; the new text's row counts.
      expect(await store.putVectors([vectorRow(entry, model, unit(1, 0, 0, 0))])).toEqual({ stored: 0 });
      expect(await vectorSlugs(store, query)).toEqual([]);
      expect(await store.putVectors([vectorRow(changed, model, unit(1, 0, 0, 0))])).toEqual({ stored: 1 });
      expect((await store.searchVectors({ ...query, limit: 8 })).map((hit) => hit.record)).toEqual([changed]);
      expect(await backlogSlugs(store, model, [entry])).toEqual([]);
    });
  });

  it("deletes an entry's vectors with the entry (a re-created entry of the same text has none)", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const other = modelOf(f.prefix, "other");
      const gone = f.record("gone");
      const kept = f.record("kept");
      await put(store, gone, kept);
      await store.putVectors([vectorRow(gone, model, unit(1, 0, 0, 0)), vectorRow(gone, other, unit(1, 0)), vectorRow(kept, model, unit(0, 1, 0, 0))]);
      expect(await store.applyBatch([{ kind: "delete", key: keyOf(gone) }], [])).toEqual({ ok: true });
      const query = { scopes: [f.project], modelId: model, vector: unit(1, 0, 0, 0) };
      expect(await vectorSlugs(store, query)).toEqual([kept.slug]);
      await put(store, gone);
      expect(await vectorSlugs(store, query)).toEqual([kept.slug]);
      expect(await vectorSlugs(store, { ...query, modelId: other, vector: unit(1, 0) })).toEqual([]);
      expect(await backlogSlugs(store, model, [gone, kept])).toEqual([gone.slug]);
      // A failed batch deletes no vector.
      await store.putVectors([vectorRow(gone, model, unit(1, 0, 0, 0))]);
      const failed = await store.applyBatch(
        [
          { kind: "delete", key: keyOf(gone) },
          { kind: "upsert", record: kept, expectedUpdatedAt: kept.updatedAt - 1 },
        ],
        [],
      );
      expect(failed.ok).toBe(false);
      expect(await vectorSlugs(store, query)).toEqual([gone.slug, kept.slug]);
    });
  });

  it("keeps the vectors of separate model ids apart, and prunes every model but the kept one", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const first = modelOf(f.prefix, "first");
      const second = modelOf(f.prefix, "second");
      const one = f.record("one");
      const two = f.record("two");
      await put(store, one, two);
      // Different dimensions per model are fine.
      await store.putVectors([vectorRow(one, first, unit(1, 0, 0, 0)), vectorRow(two, first, unit(0, 1, 0, 0)), vectorRow(two, second, unit(1, 0, 0))]);
      expect(await vectorSlugs(store, { scopes: [f.project], modelId: first, vector: unit(0, 1, 0, 0) })).toEqual([two.slug, one.slug]);
      expect(await vectorSlugs(store, { scopes: [f.project], modelId: second, vector: unit(1, 0, 0) })).toEqual([two.slug]);
      expect(await backlogSlugs(store, second, [one, two])).toEqual([one.slug]);
      expect(await store.pruneVectors({ keepModelId: second })).toBeGreaterThanOrEqual(2);
      expect(await vectorSlugs(store, { scopes: [f.project], modelId: first, vector: unit(0, 1, 0, 0) })).toEqual([]);
      expect(await vectorSlugs(store, { scopes: [f.project], modelId: second, vector: unit(1, 0, 0) })).toEqual([two.slug]);
      expect(await store.pruneVectors({ keepModelId: second })).toBe(0);
      expect(await backlogSlugs(store, first, [one, two])).toEqual([one.slug, two.slug]);
    });
  });

  it("applies the type and archived filters as the text search does", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const user = f.record("user", { type: "user" });
      const project = f.record("project", { type: "project" });
      const daily = f.daily();
      const archived = f.daily({ slug: `${f.daily().slug}-old`, archived: true, updatedAt: 1 });
      await put(store, user, project, daily, archived);
      await store.putVectors([user, project, daily, archived].map((record) => vectorRow(record, model, unit(1, 0, 0, 0))));
      const query = { scopes: [f.project, GLOBAL], modelId: model, vector: unit(1, 0, 0, 0) };
      const mine = (found: string[]) => found.filter((slug) => [user, project, daily, archived].some((record) => record.slug === slug));
      expect(mine(await vectorSlugs(store, query))).toEqual([daily.slug, project.slug, user.slug].sort());
      expect(mine(await vectorSlugs(store, { ...query, includeArchived: true }))).toEqual([daily.slug, archived.slug, project.slug, user.slug].sort());
      expect(mine(await vectorSlugs(store, { ...query, types: ["user"] }))).toEqual([user.slug]);
      expect(mine(await vectorSlugs(store, { ...query, types: ["daily"], includeArchived: true }))).toEqual([daily.slug, archived.slug].sort());
      expect(mine(await vectorSlugs(store, { ...query, types: [] }))).toEqual([]);
      // Archived entries are not in the backlog.
      const other = modelOf(f.prefix, "other");
      expect(await backlogSlugs(store, other, [user, project, daily, archived])).toEqual(
        [user, project, daily]
          .sort((l, r) => l.updatedAt - r.updatedAt || (l.scope < r.scope ? -1 : l.scope > r.scope ? 1 : l.slug < r.slug ? -1 : 1))
          .map((record) => record.slug),
      );
    });
  });

  it("orders hits by similarity, ties by slug then scope, and cuts at the limit", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      // Written in an order unlike the expected one.
      const records = ["e", "c", "a", "d", "b"].map((name) => f.record(`tie-${name}`));
      const globalTwin = f.global("tie-a");
      await put(store, ...records, globalTwin);
      const vectors: Record<string, Float32Array> = { e: unit(1, 1, 0, 0), c: unit(1, 0, 0, 0), a: unit(1, 1, 0, 0), d: unit(1, 0, 0, 0), b: unit(0, 0, 1, 0) };
      await store.putVectors([
        ...records.map((record) => vectorRow(record, model, vectors[record.slug.slice(-1)] as Float32Array)),
        vectorRow(globalTwin, model, unit(1, 1, 0, 0)),
      ]);
      const hits = await store.searchVectors({ scopes: [GLOBAL, f.project], modelId: model, vector: unit(1, 1, 0, 0), limit: 32 });
      const mine = hits.filter((hit) => hit.record.slug.startsWith(`${f.prefix}-tie-`));
      expect(mine.map((hit) => `${hit.record.scope}:${hit.record.slug.slice(-1)}`)).toEqual([
        "global:a",
        "project:a",
        "project:e",
        "project:c",
        "project:d",
        "project:b",
      ]);
      expect(mine[0]?.similarity).toBe(mine[2]?.similarity);
      expect(mine[3]?.similarity).toBe(mine[4]?.similarity);
      expect(mine[3]?.similarity).toBeCloseTo(Math.SQRT1_2, 6);
      expect(mine[5]?.similarity).toBe(0);
      const limited = await store.searchVectors({ scopes: [f.project], modelId: model, vector: unit(1, 1, 0, 0), limit: 3 });
      expect(limited.map((hit) => hit.record.slug.slice(-1))).toEqual(["a", "e", "c"]);
      expect(await store.searchVectors({ scopes: [f.project], modelId: model, vector: unit(1, 1, 0, 0), limit: 0 })).toEqual([]);
    });
  });

  it("finds entries whose slug holds a space or a newline (stores index any slug)", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const spaced = f.record("with space");
      const broken = f.record("with\nnewline");
      const plain = f.record("plain");
      await put(store, spaced, broken, plain);
      await store.putVectors([vectorRow(spaced, model, unit(1, 0)), vectorRow(broken, model, unit(0.6, 0.8)), vectorRow(plain, model, unit(0, 1))]);
      const hits = await store.searchVectors({ scopes: [f.project], modelId: model, vector: unit(1, 0), limit: 8 });
      expect(hits.map((hit) => hit.record)).toEqual([spaced, broken, plain]);
    });
  });

  it("lists the backlog oldest first, then by key, up to the limit", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const late = f.record("b-late", { updatedAt: 30 });
      const early = f.record("z-early", { updatedAt: 10 });
      const tieB = f.record("b-tie", { updatedAt: 20 });
      const tieA = f.record("a-tie", { updatedAt: 20 });
      const globalTie = f.global("c-tie", { updatedAt: 20 });
      await put(store, late, early, tieB, tieA, globalTie);
      const all = [late, early, tieB, tieA, globalTie];
      expect(await backlogSlugs(store, model, all)).toEqual([early, globalTie, tieA, tieB, late].map((record) => record.slug));
      await store.putVectors([vectorRow(tieA, model, unit(1, 0))]);
      expect(await backlogSlugs(store, model, all)).toEqual([early, globalTie, tieB, late].map((record) => record.slug));
      const limited = await store.vectorBacklog({ modelId: model, limit: 2 });
      expect(limited).toHaveLength(2);
      expect(await store.vectorBacklog({ modelId: model, limit: 0 })).toEqual([]);
    });
  });

  it("lists the backlog of the asked scopes only ([] lists nothing, absent every scope)", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const mine = f.record("mine");
      const shared = f.global("shared");
      const other = f.record("other", { workdirHash: fixture().project.workdirHash });
      await put(store, mine, shared, other);
      const slugsOf = async (scopes?: readonly MemoryScopeRef[]) =>
        (await store.vectorBacklog({ modelId: model, limit: 100_000, ...(scopes === undefined ? {} : { scopes }) }))
          .filter((record) => record.slug.startsWith(`${f.prefix}-`))
          .map((record) => record.slug)
          .sort();
      expect(await slugsOf([GLOBAL, f.project])).toEqual([mine.slug, shared.slug].sort());
      expect(await slugsOf([f.project])).toEqual([mine.slug]);
      expect(await slugsOf([])).toEqual([]);
      expect(await slugsOf()).toEqual([mine.slug, other.slug, shared.slug].sort());
      await expectInvalid(store.vectorBacklog({ modelId: model, limit: 1, scopes: "global" as never }), /scopes/);
    });
  });

  it("refuses invalid vectors and queries with invalid_options, storing nothing of the call", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const model = modelOf(f.prefix);
      const one = f.record("one");
      const two = f.record("two");
      await put(store, one, two);
      await store.putVectors([vectorRow(one, model, unit(1, 0, 0, 0))]);
      await expectInvalid(store.putVectors([vectorRow(two, model, unit(1, 0, 0))]), /model .* 4 components, this one 3/);
      await expectInvalid(
        store.putVectors([vectorRow(two, model, unit(1, 0, 0, 0)), vectorRow(one, modelOf(f.prefix, "x"), Float32Array.from([Number.NaN, 0]))]),
        /not a finite/,
      );
      await expectInvalid(store.putVectors([vectorRow(two, model, Float32Array.from([1, 1, 0, 0]))]), /unit length/);
      await expectInvalid(store.putVectors([vectorRow(two, model, new Float32Array(0))]), /0 components/);
      await expectInvalid(store.putVectors([vectorRow(two, "", unit(1, 0, 0, 0))]), /model id/);
      await expectInvalid(store.putVectors([vectorRow(two, model, unit(1, 0, 0, 0), "")]), /bodyHash/);
      expect(await backlogSlugs(store, model, [one, two])).toEqual([two.slug]);
      const query = { scopes: [f.project], modelId: model, limit: 8 };
      await expectInvalid(store.searchVectors({ ...query, vector: unit(1, 0, 0) }), /4 components, this one 3/);
      await expectInvalid(store.searchVectors({ ...query, vector: Float32Array.from([Number.POSITIVE_INFINITY, 0, 0, 0]) }), /not a finite/);
      await expectInvalid(store.searchVectors({ ...query, vector: unit(1, 0, 0, 0), limit: -1 }), /limit/);
      await expectInvalid(store.searchVectors({ ...query, vector: unit(1, 0, 0, 0), modelId: "" }), /model id/);
      await expectInvalid(store.vectorBacklog({ modelId: model, limit: 1.5 }), /limit/);
      await expectInvalid(store.pruneVectors({ keepModelId: "" }), /model id/);
      // A zero vector is valid and similar to nothing.
      expect((await store.searchVectors({ ...query, vector: new Float32Array(4) })).map((hit) => hit.similarity)).toEqual([0]);
    });
  });

  describeMemoryVectorRaceContract(context);
  describeMemoryVectorFreshnessContract(context);
}

/**
 * The vector contract on its own, for a store that is run through
 * `runMemoryIndexStoreContract` elsewhere (which includes these cases).
 *
 * @example
 * runMemoryVectorIndexContract("in-memory", { open: async () => new InMemoryMemoryIndexStore() });
 */
export function runMemoryVectorIndexContract(label: string, target: MemoryIndexStoreContractTarget): void {
  describe(`MemoryVectorIndex contract: ${label}`, () => describeMemoryVectorIndexContract(contractContext(target)));
}
