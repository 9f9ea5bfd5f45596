/**
 * The vector contract's freshness cases: a store may keep what it read for
 * earlier searches, but a search always answers from every write that
 * completed before it, made through this store or through another store
 * instance over the same backend (new and replaced vectors, new bodies,
 * archiving, a new type, deletes, pruning).
 */
import { expect, it } from "vitest";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { type ContractContext, GLOBAL, fixture, keyOf } from "./memory-contract-fixtures.js";
import { unit, vectorRow } from "./memory-vector-contract-helpers.js";

/** The similarity of X with the unit diagonal of X and Y, at the 4 decimals the cases compare. */
const DIAGONAL = Number(Math.SQRT1_2.toFixed(4));

/** Every write kind between searches of `reader`, each write made by `writer`. */
async function searchesSeeEveryWrite(context: ContractContext, reader: MemoryIndexStore, writer: MemoryIndexStore): Promise<void> {
  const f = fixture();
  const model = `test:fresh-${f.prefix}`;
  const scopes = [f.project, GLOBAL];
  const found = async (vector: Float32Array, options: { includeArchived?: boolean; types?: ("project" | "user")[] } = {}) =>
    (await reader.searchVectors({ scopes, modelId: model, vector, limit: 32, ...options })).map((hit) => [hit.record.slug, Number(hit.similarity.toFixed(4))]);
  const one = f.record("one");
  const two = f.global("two");
  await context.put(writer, one, two);
  expect(await found(unit(1, 0, 0))).toEqual([]);

  // New vectors, in a project scope and the global one.
  await writer.putVectors([vectorRow(one, model, unit(1, 0, 0)), vectorRow(two, model, unit(0, 1, 0))]);
  expect(await found(unit(1, 0, 0))).toEqual([
    [one.slug, 1],
    [two.slug, 0],
  ]);

  // A vector replaced for the same body.
  await writer.putVectors([vectorRow(one, model, unit(0, 0, 1))]);
  expect(await found(unit(0, 0, 1))).toEqual([
    [one.slug, 1],
    [two.slug, 0],
  ]);

  // A new body: the old vector no longer answers; its new vector does.
  const rewritten = { ...one, body: "new body", bodyHash: "b".repeat(64), updatedAt: one.updatedAt + 1 };
  await context.put(writer, rewritten);
  expect(await found(unit(0, 0, 1))).toEqual([[two.slug, 0]]);
  await writer.putVectors([vectorRow(rewritten, model, unit(1, 1, 0))]);
  expect(await found(unit(1, 0, 0))).toEqual([
    [one.slug, DIAGONAL],
    [two.slug, 0],
  ]);

  // Archived (same body): left out unless asked for.
  await context.put(writer, { ...rewritten, archived: true, updatedAt: rewritten.updatedAt + 1 });
  expect(await found(unit(1, 0, 0))).toEqual([[two.slug, 0]]);
  expect(await found(unit(1, 0, 0), { includeArchived: true })).toEqual([
    [one.slug, DIAGONAL],
    [two.slug, 0],
  ]);

  // Another type (same body): the type filter sees it.
  await context.put(writer, { ...two, type: "user", updatedAt: two.updatedAt + 1 });
  expect(await found(unit(0, 1, 0), { types: ["user"] })).toEqual([[two.slug, 1]]);
  expect(await found(unit(0, 1, 0), { types: ["project"] })).toEqual([]);

  // Deleted.
  expect(await writer.applyBatch([{ kind: "delete", key: keyOf(two) }], [])).toEqual({ ok: true });
  expect(await found(unit(0, 1, 0), { includeArchived: true })).toEqual([[one.slug, DIAGONAL]]);

  // Pruned: another model id is kept, this one's vectors go.
  expect(await writer.pruneVectors({ keepModelId: `${model}:next` })).toBeGreaterThanOrEqual(1);
  expect(await found(unit(1, 0, 0), { includeArchived: true })).toEqual([]);
}

/** The freshness cases. */
export function describeMemoryVectorFreshnessContract(context: ContractContext): void {
  const { target, withStore } = context;

  it("answers each search from every write before it (one store)", async () => {
    await withStore(async (store) => searchesSeeEveryWrite(context, store, store));
  });

  it.runIf(target.sharedBackend === true)("answers each search from every write before it, made by another store instance", async () => {
    await withStore(async (reader) => withStore(async (writer) => searchesSeeEveryWrite(context, reader, writer)));
  });
}
