import { expect, it } from "vitest";
import type { MemoryAuditEntry } from "../domain/memory-types.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { type ContractContext, fixture, keyOf, slugs } from "./memory-contract-fixtures.js";

/** Atomic compare-and-set batches (also racing), deletes and file states. */
export function describeMemoryIndexWriteContract(context: ContractContext): void {
  const { target, withStore, put, searchSlugs } = context;
  it("applies a batch atomically: one conflict writes nothing to meta, text indexes or audit", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const existing = f.record("existing", { body: "original text", updatedAt: 100 });
      await put(store, existing);
      const fresh = f.record("fresh", { body: `brand new ${f.word}` });
      const changed = { ...existing, body: `changed ${f.word}`, updatedAt: 200 };
      const removed = f.record("removed", { updatedAt: 5 });
      await put(store, removed);
      const audit: MemoryAuditEntry = { at: 1, op: "batch", actor: "extractor", ...keyOf(fresh), detail: { size: 3 } };
      const result = await store.applyBatch(
        [
          { kind: "upsert", record: fresh },
          { kind: "delete", key: keyOf(removed) },
          { kind: "upsert", record: changed, expectedUpdatedAt: 99 },
        ],
        [audit],
      );
      expect(result).toEqual({ ok: false, conflicts: [{ key: keyOf(existing), actualUpdatedAt: 100 }] });
      expect(await store.get(keyOf(fresh))).toBeUndefined();
      expect(await store.get(keyOf(existing))).toEqual(existing);
      expect(await store.get(keyOf(removed))).toEqual(removed);
      for (const index of ["words", "trigram"] as const) {
        expect(await searchSlugs(store, { scopes: [f.project], index, terms: [f.word] }), index).toEqual([]);
        expect(await searchSlugs(store, { scopes: [f.project], index, terms: ["original"] }), index).toEqual([existing.slug]);
      }
      expect(await store.audit({ slug: fresh.slug })).toEqual([]);
      // The same batch with the right expectation goes through, audit included.
      const retried = await store.applyBatch(
        [
          { kind: "upsert", record: fresh },
          { kind: "delete", key: keyOf(removed) },
          { kind: "upsert", record: changed, expectedUpdatedAt: 100 },
        ],
        [audit],
      );
      expect(retried).toEqual({ ok: true });
      expect(await store.get(keyOf(changed))).toEqual(changed);
      expect(await store.get(keyOf(removed))).toBeUndefined();
      expect((await searchSlugs(store, { scopes: [f.project], index: "words", terms: [f.word] })).sort()).toEqual([changed.slug, fresh.slug].sort());
      expect(await store.audit({ slug: fresh.slug })).toEqual([audit]);
    });
  });

  it("compares and sets: null means must not exist, a number must match updatedAt", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const first = f.record("cas", { updatedAt: 10 });
      const key = keyOf(first);
      expect(await store.applyBatch([{ kind: "upsert", record: first, expectedUpdatedAt: null }], [])).toEqual({ ok: true });
      expect(await store.applyBatch([{ kind: "upsert", record: { ...first, updatedAt: 11 }, expectedUpdatedAt: null }], [])).toEqual({
        ok: false,
        conflicts: [{ key, actualUpdatedAt: 10 }],
      });
      expect(await store.applyBatch([{ kind: "upsert", record: { ...first, updatedAt: 12 }, expectedUpdatedAt: 9 }], [])).toEqual({
        ok: false,
        conflicts: [{ key, actualUpdatedAt: 10 }],
      });
      expect(await store.applyBatch([{ kind: "upsert", record: { ...first, body: "second", updatedAt: 20 }, expectedUpdatedAt: 10 }], [])).toEqual({
        ok: true,
      });
      expect((await store.get(key))?.body).toBe("second");
      expect(await store.applyBatch([{ kind: "delete", key, expectedUpdatedAt: 10 }], [])).toEqual({ ok: false, conflicts: [{ key, actualUpdatedAt: 20 }] });
      expect(await store.get(key)).toBeDefined();
      expect(await store.applyBatch([{ kind: "delete", key, expectedUpdatedAt: 20 }], [])).toEqual({ ok: true });
      expect(await store.get(key)).toBeUndefined();
      expect(await store.applyBatch([{ kind: "delete", key, expectedUpdatedAt: 20 }], [])).toEqual({
        ok: false,
        conflicts: [{ key, actualUpdatedAt: null }],
      });
      const missing = f.record("never");
      expect(await store.applyBatch([{ kind: "upsert", record: missing, expectedUpdatedAt: 5 }], [])).toEqual({
        ok: false,
        conflicts: [{ key: keyOf(missing), actualUpdatedAt: null }],
      });
      // Deleting what is not there without an expectation is fine; an unconditional upsert overwrites.
      expect(await store.applyBatch([{ kind: "delete", key: keyOf(missing) }], [])).toEqual({ ok: true });
      expect(await store.applyBatch([{ kind: "upsert", record: { ...first, updatedAt: 30 }, expectedUpdatedAt: null }], [])).toEqual({ ok: true });
      expect(await store.applyBatch([{ kind: "upsert", record: { ...first, body: "forced", updatedAt: 40 } }], [])).toEqual({ ok: true });
      expect((await store.get(key))?.body).toBe("forced");
    });
  });

  async function race(stores: readonly [MemoryIndexStore, MemoryIndexStore]): Promise<void> {
    const f = fixture();
    const base = f.record("race", { body: "base", updatedAt: 1 });
    const outcomes = await Promise.all(
      stores.map((store, index) =>
        store.applyBatch(
          [{ kind: "upsert", record: { ...base, body: `writer ${index} ${f.word}`, updatedAt: 10 + index }, expectedUpdatedAt: null }],
          [{ at: 1, op: "write", actor: "tool", ...keyOf(base), detail: { writer: index } }],
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    const winner = outcomes.findIndex((outcome) => outcome.ok);
    expect(outcomes[1 - winner]).toEqual({ ok: false, conflicts: [{ key: keyOf(base), actualUpdatedAt: 10 + winner }] });
    expect((await stores[0].get(keyOf(base)))?.body).toBe(`writer ${winner} ${f.word}`);
    expect((await stores[1].audit({ slug: base.slug })).map((entry) => entry.detail)).toEqual([{ writer: winner }]);
    // Now both update from the winner's updatedAt: again exactly one wins.
    const updates = await Promise.all(
      stores.map((store, index) =>
        store.applyBatch([{ kind: "upsert", record: { ...base, body: `update ${index}`, updatedAt: 100 + index }, expectedUpdatedAt: 10 + winner }], []),
      ),
    );
    expect(updates.filter((outcome) => outcome.ok)).toHaveLength(1);
    const second = updates.findIndex((outcome) => outcome.ok);
    expect((await stores[1].get(keyOf(base)))?.body).toBe(`update ${second}`);
    expect(await searchSlugs(stores[0], { scopes: [f.project], index: "words", terms: [f.word] })).toEqual([]);
    expect(await searchSlugs(stores[0], { scopes: [f.project], index: "words", terms: ["update"] })).toEqual([base.slug]);
  }

  it("lets exactly one of two racing batches on one store win", async () => {
    await withStore(async (store) => race([store, store]));
  });

  it.runIf(target.sharedBackend === true)("lets exactly one of two racing batches from two store instances over one backend win", async () => {
    await withStore(async (first) => withStore(async (second) => race([first, second])));
  });

  it("removes a deleted record from get, list and both text indexes", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const gone = f.record("gone", { body: `temporary ${f.word}` });
      const kept = f.record("kept", { body: `permanent ${f.word}` });
      await put(store, gone, kept);
      expect(await store.applyBatch([{ kind: "delete", key: keyOf(gone) }], [])).toEqual({ ok: true });
      expect(await store.get(keyOf(gone))).toBeUndefined();
      expect(slugs((await store.list({ scopes: [f.project], offset: 0, limit: 10 })).records)).toEqual([kept.slug]);
      for (const index of ["words", "trigram"] as const) {
        expect(await searchSlugs(store, { scopes: [f.project], index, terms: [f.word] }), index).toEqual([kept.slug]);
        expect(await searchSlugs(store, { scopes: [f.project], index, terms: ["temporary"] }), index).toEqual([]);
      }
      // Re-creating it indexes the new text only.
      await put(store, { ...gone, body: "reborn" });
      expect(await searchSlugs(store, { scopes: [f.project], index: "words", terms: ["reborn"] })).toEqual([gone.slug]);
      expect(await searchSlugs(store, { scopes: [f.project], index: "trigram", terms: ["temporary"] })).toEqual([]);
    });
  });

  it("reports every record's file state", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const one = f.record("one", { bodyHash: "b".repeat(64), fileMtimeMs: 1_700_000_000_456.25, fileSize: 7 });
      const daily = f.daily({ bodyHash: "c".repeat(64), fileSize: 9 });
      await put(store, one, daily);
      const states = await store.fileStates();
      expect(states).toContainEqual({ ...keyOf(one), bodyHash: one.bodyHash, fileMtimeMs: one.fileMtimeMs, fileSize: 7 });
      expect(states).toContainEqual({ ...keyOf(daily), bodyHash: daily.bodyHash, fileMtimeMs: daily.fileMtimeMs, fileSize: 9 });
      await store.applyBatch([{ kind: "delete", key: keyOf(one) }], []);
      expect((await store.fileStates()).some((state) => state.slug === one.slug)).toBe(false);
    });
  });
}
