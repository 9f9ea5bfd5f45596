/**
 * Rules every {@link MemoryVectorIndex} applies the same way: which vectors
 * and queries are valid, the similarity (a dot product of unit vectors), the
 * result order and the top-K selection of a scan. Shared by the in-memory
 * and the database stores, so a query ranks alike on every backend.
 */
import { SdkError } from "@agent-tools/core";
import type { MemoryKey } from "../domain/memory-types.js";
import type { MemoryVectorBacklogQuery, MemoryVectorQuery, MemoryVectorRow } from "./memory-vector-index.js";

/** How far a vector's squared length may be from 1 (float32 rounding of a normalised vector is far below). */
export const UNIT_LENGTH_TOLERANCE = 1e-3;
/** Longest accepted vector (the largest common embedding models have 3,072 or 4,096 components). */
export const MAX_VECTOR_DIMENSION = 16_384;

/**
 * Throws `SdkError("invalid_options")` naming the problem unless `vector`
 * has 1..{@link MAX_VECTOR_DIMENSION} finite components and unit length
 * (a zero vector is accepted: it is similar to nothing).
 */
export function assertUnitVector(vector: Float32Array, what: string): void {
  if (!(vector instanceof Float32Array)) throw new SdkError("invalid_options", `${what}: the vector must be a Float32Array.`, { what });
  if (vector.length === 0 || vector.length > MAX_VECTOR_DIMENSION) {
    throw new SdkError("invalid_options", `${what}: the vector has ${vector.length} components; expected 1 to ${MAX_VECTOR_DIMENSION}.`, {
      what,
      dimension: vector.length,
    });
  }
  let squared = 0;
  for (let index = 0; index < vector.length; index += 1) {
    const component = vector[index] as number;
    if (!Number.isFinite(component)) {
      throw new SdkError("invalid_options", `${what}: component ${index} of the vector is not a finite number.`, { what, index });
    }
    squared += component * component;
  }
  if (squared !== 0 && Math.abs(squared - 1) > UNIT_LENGTH_TOLERANCE) {
    throw new SdkError(
      "invalid_options",
      `${what}: the vector must have unit length (its length is ${Math.sqrt(squared).toPrecision(6)}); normalise it first.`,
      {
        what,
        length: Math.sqrt(squared),
      },
    );
  }
}

/**
 * Checks the rows of one `putVectors` call: a model id and body hash on
 * each, valid unit vectors, one dimension per model id within the call.
 * Returns the dimension of each model id (for the store to compare with
 * what it holds).
 */
export function assertVectorRows(rows: readonly MemoryVectorRow[]): Map<string, number> {
  const dimensions = new Map<string, number>();
  for (const row of rows) {
    const what = `putVectors row '${row.key?.slug}'`;
    assertModelId(row.modelId, what);
    if (typeof row.bodyHash !== "string" || row.bodyHash === "") throw new SdkError("invalid_options", `${what}: bodyHash must be a non-empty string.`);
    assertUnitVector(row.vector, what);
    const known = dimensions.get(row.modelId);
    if (known !== undefined && known !== row.vector.length) throw dimensionMismatch(row.modelId, known, row.vector.length);
    dimensions.set(row.modelId, row.vector.length);
  }
  return dimensions;
}

/** Throws `SdkError("invalid_options")` unless `modelId` is a non-empty string. */
export function assertModelId(modelId: unknown, method: string): void {
  if (typeof modelId !== "string" || modelId === "") throw new SdkError("invalid_options", `${method}: the model id must be a non-empty string.`, { method });
}

/** Throws `SdkError("invalid_options")` unless `limit` is a whole number >= 0. */
export function assertLimit(limit: unknown, method: string): void {
  if (!Number.isInteger(limit) || (limit as number) < 0) {
    throw new SdkError("invalid_options", `${method}: limit must be a whole number >= 0 (got ${String(limit)}).`, { method, limit });
  }
}

/** Checks a backlog query's model id, limit and (optional) scopes. */
export function assertBacklogQuery(query: MemoryVectorBacklogQuery): void {
  assertModelId(query.modelId, "vectorBacklog");
  assertLimit(query.limit, "vectorBacklog");
  if (query.scopes !== undefined && !Array.isArray(query.scopes)) throw new SdkError("invalid_options", "vectorBacklog: scopes must be an array.");
}

/** Checks a query's model id, scopes, vector and limit. */
export function assertVectorQuery(query: MemoryVectorQuery): void {
  assertModelId(query.modelId, "searchVectors");
  assertLimit(query.limit, "searchVectors");
  if (!Array.isArray(query.scopes)) throw new SdkError("invalid_options", "searchVectors: scopes must be an array.");
  assertUnitVector(query.vector, "searchVectors query");
}

/** The error of a vector whose dimension differs from the model's stored vectors (or from the query's). */
export function dimensionMismatch(modelId: string, expected: number, actual: number): SdkError {
  return new SdkError(
    "invalid_options",
    `Vectors of model '${modelId}' have ${expected} components, this one ${actual}: one model id has one dimension (a new dimension needs a new modelId).`,
    { modelId, expected, actual },
  );
}

/** The similarity of two unit vectors of one length: their dot product (accumulated in double precision). */
export function dotProduct(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] as number) * (right[index] as number);
  return sum;
}

/**
 * The similarity of `query` with the stored vector of the same length at
 * `offset` in `vectors` (many vectors one after the other): their dot
 * product, or NaN when the stored vector is damaged (a component not finite,
 * or not unit length and not all zero). One pass computes both.
 */
export function storedSimilarity(query: Float32Array, vectors: Float32Array, offset = 0): number {
  let sum = 0;
  let squared = 0;
  for (let index = 0; index < query.length; index += 1) {
    const component = vectors[offset + index] as number;
    sum += (query[index] as number) * component;
    squared += component * component;
  }
  if (!Number.isFinite(sum) || !Number.isFinite(squared) || (squared !== 0 && Math.abs(squared - 1) > UNIT_LENGTH_TOLERANCE)) return Number.NaN;
  return sum;
}

/** A scanned candidate: its key and similarity, plus whatever the store needs to fetch it. */
export interface VectorCandidate<T> extends MemoryKey {
  readonly similarity: number;
  readonly item: T;
}

/** Result order: similarity descending, then slug, scope and workdirHash ascending (code-unit order, as the databases compare). */
export function compareVectorCandidates(left: VectorCandidate<unknown>, right: VectorCandidate<unknown>): number {
  if (left.similarity !== right.similarity) return right.similarity - left.similarity;
  return compareCodeUnits(left.slug, right.slug) || compareCodeUnits(left.scope, right.scope) || compareCodeUnits(left.workdirHash, right.workdirHash);
}

function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Keeps the best `limit` candidates of a scan in {@link compareVectorCandidates}
 * order: a sorted array of at most `limit` entries, so a scan of N vectors
 * costs N comparisons with the worst kept one and an insertion now and then.
 *
 * @example
 * const top = new VectorTopK<number>(8);
 * top.offer({ scope: "global", workdirHash: "", slug: "a", similarity: 0.9, item: 1 });
 * top.sorted(); // best first
 */
export class VectorTopK<T> {
  readonly #limit: number;
  readonly #kept: VectorCandidate<T>[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(0, limit);
  }

  /** Whether a candidate of this similarity could enter (a cheap test before building the candidate). */
  admits(similarity: number): boolean {
    if (this.#limit === 0) return false;
    if (this.#kept.length < this.#limit) return true;
    return similarity >= (this.#kept[this.#kept.length - 1] as VectorCandidate<T>).similarity;
  }

  /** Adds a candidate if it ranks among the best `limit` so far. */
  offer(candidate: VectorCandidate<T>): void {
    const kept = this.#kept;
    if (kept.length >= this.#limit) {
      if (this.#limit === 0 || compareVectorCandidates(candidate, kept[kept.length - 1] as VectorCandidate<T>) >= 0) return;
      kept.pop();
    }
    let at = kept.length;
    while (at > 0 && compareVectorCandidates(candidate, kept[at - 1] as VectorCandidate<T>) < 0) at -= 1;
    kept.splice(at, 0, candidate);
  }

  /** The kept candidates, best first. */
  sorted(): readonly VectorCandidate<T>[] {
    return this.#kept;
  }
}
