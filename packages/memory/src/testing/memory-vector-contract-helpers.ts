/**
 * Helpers of the vector contract: unit vectors from plain numbers, one
 * model id per test (so tests over a shared backend never see each other's
 * vectors), rows for `putVectors` and the slugs of a vector search.
 */
import { expect } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import type { MemoryVectorQuery, MemoryVectorRow } from "../ports/memory-vector-index.js";
import { keyOf } from "./memory-contract-fixtures.js";

/** The unit vector along `components` (normalised, as float32). */
export function unit(...components: number[]): Float32Array {
  const length = Math.hypot(...components);
  return Float32Array.from(components, (component) => component / length);
}

/** A `putVectors` row for a record's current body hash (or the given one). */
export function vectorRow(record: MemoryRecord, modelId: string, vector: Float32Array, bodyHash = record.bodyHash): MemoryVectorRow {
  return { key: keyOf(record), modelId, bodyHash, vector };
}

/** Slugs of a vector search's hits, best first (limit 32 unless given). */
export async function vectorSlugs(store: MemoryIndexStore, query: Omit<MemoryVectorQuery, "limit"> & { limit?: number }): Promise<string[]> {
  return (await store.searchVectors({ limit: 32, ...query })).map((hit) => hit.record.slug);
}

/** Slugs of the backlog of `modelId` that belong to `records` (a shared backend holds other tests' entries too), in backlog order. */
export async function backlogSlugs(store: MemoryIndexStore, modelId: string, records: readonly MemoryRecord[]): Promise<string[]> {
  const mine = new Set(records.map((record) => `${record.scope}/${record.workdirHash}/${record.slug}`));
  const backlog = await store.vectorBacklog({ modelId, limit: 100_000 });
  return backlog.filter((record) => mine.has(`${record.scope}/${record.workdirHash}/${record.slug}`)).map((record) => record.slug);
}

/** Expects an `SdkError` with code `invalid_options` whose message matches `pattern`. */
export async function expectInvalid(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, "expected a rejection").toBeInstanceOf(Error);
  expect((error as { name?: string }).name).toBe("SdkError");
  expect((error as { code?: string }).code).toBe("invalid_options");
  expect((error as Error).message).toMatch(pattern);
}
