/**
 * The vector contract's races: a `putVectors` that loses to a write of the
 * same entry (a new body, a delete) never leaves a vector that answers for
 * text it was not made from, on one store and across two store instances
 * over one backend.
 */
import { expect, it } from "vitest";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { type ContractContext, fixture, keyOf } from "./memory-contract-fixtures.js";
import { backlogSlugs, unit, vectorRow, vectorSlugs } from "./memory-vector-contract-helpers.js";

const ROUNDS = 12;

/** Races writes against `putVectors` of the new text and checks every outcome agrees with what `putVectors` reported. */
async function raceWritesAndPuts(writer: MemoryIndexStore, embedder: MemoryIndexStore): Promise<void> {
  const f = fixture();
  const model = `test:race-${f.prefix}`;
  const entries = Array.from({ length: ROUNDS }, (_, index) => f.record(`race-${String(index).padStart(2, "0")}`, { bodyHash: "0".repeat(64) }));
  const put = (store: MemoryIndexStore, ...records: typeof entries) =>
    store.applyBatch(
      records.map((record) => ({ kind: "upsert" as const, record })),
      [],
    );
  expect(await put(writer, ...entries)).toEqual({ ok: true });
  expect(await embedder.putVectors(entries.map((entry) => vectorRow(entry, model, unit(0, 1))))).toEqual({ stored: ROUNDS });

  // A new text and its vector race: the vector counts exactly when putVectors said it stored it.
  const updated = entries.map((entry) => ({ ...entry, body: "new text", bodyHash: "1".repeat(64), updatedAt: entry.updatedAt + 1 }));
  const outcomes = await Promise.all(
    updated.map(async (entry, index) => {
      const row = vectorRow(entry, model, unit(1, 0));
      const write = () => put(writer, entry);
      const embed = () => embedder.putVectors([row]);
      return index % 2 === 0 ? (await Promise.all([write(), embed()]))[1].stored : (await Promise.all([embed(), write()]))[0].stored;
    }),
  );
  const found = new Set(await vectorSlugs(embedder, { scopes: [f.project], modelId: model, vector: unit(1, 0) }));
  const backlog = new Set(await backlogSlugs(writer, model, entries));
  updated.forEach((entry, index) => {
    expect(found.has(entry.slug), `${entry.slug}: stored ${outcomes[index]}`).toBe(outcomes[index] === 1);
    expect(backlog.has(entry.slug), entry.slug).toBe(outcomes[index] === 0);
  });

  // A delete and a put race: whoever wins, the entry re-created with the same text has no vector.
  const deleted = await Promise.all(
    updated.map(async (entry) => {
      const [removed, result] = await Promise.all([
        writer.applyBatch([{ kind: "delete", key: keyOf(entry) }], []),
        embedder.putVectors([vectorRow(entry, model, unit(1, 0))]),
      ]);
      expect(removed).toEqual({ ok: true });
      return result.stored;
    }),
  );
  expect(deleted.every((stored) => stored === 0 || stored === 1)).toBe(true);
  expect(await put(writer, ...updated)).toEqual({ ok: true });
  expect(await vectorSlugs(embedder, { scopes: [f.project], modelId: model, vector: unit(1, 0) })).toEqual([]);
  expect(await backlogSlugs(embedder, model, entries)).toEqual(updated.map((entry) => entry.slug));
}

/** The race cases. */
export function describeMemoryVectorRaceContract(context: ContractContext): void {
  const { target, withStore } = context;

  it("keeps a racing putVectors from storing a vector for text it was not made from (one store)", async () => {
    await withStore(async (store) => raceWritesAndPuts(store, store));
  });

  it.runIf(target.sharedBackend === true)("keeps a racing putVectors from storing a vector for text it was not made from (two store instances)", async () => {
    await withStore(async (writer) => withStore(async (embedder) => raceWritesAndPuts(writer, embedder)));
  });
}
