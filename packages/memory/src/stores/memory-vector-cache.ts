/**
 * The decoded vectors a database store keeps between searches: one value
 * per scope, model id and dimension, tagged with the scope's version
 * (`memory_scope_versions`) it was read at, least recently used first out
 * once their sizes pass the byte budget.
 */
import { SdkError } from "@agent-tools/core";

/** Default budget of a store's vector cache: 64 MiB (about 160,000 vectors of 100 components, 10,000 of 1,536). */
export const DEFAULT_VECTOR_CACHE_BYTES = 64 * 1024 * 1024;

/** What the cache needs to know of a value. */
export interface CachedScopeValue {
  /** The scope version the value was read at. */
  readonly version: number;
  /** Approximate bytes the value holds. */
  readonly bytes: number;
}

/** Throws `SdkError("invalid_options")` naming the value unless `bytes` is a whole number >= 0. */
export function assertVectorCacheBytes(bytes: unknown): asserts bytes is number {
  if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) {
    throw new SdkError(
      "invalid_options",
      `vectorCacheBytes must be a whole number of bytes >= 0 (got ${String(bytes)}); use 0 to read the vectors from the database on every search.`,
      { option: "vectorCacheBytes" },
    );
  }
}

/**
 * A least-recently-used map with a byte budget. A value larger than the
 * whole budget is not kept (its search reads the database each time).
 *
 * @example
 * const cache = new ScopeValueCache<{ version: number; bytes: number }>(1024);
 * cache.set("global", { version: 3, bytes: 100 });
 * cache.get("global", 3); // the value; cache.get("global", 4) is undefined
 */
export class ScopeValueCache<T extends CachedScopeValue> {
  readonly #budget: number;
  readonly #values = new Map<string, T>();
  #bytes = 0;

  constructor(budget: number) {
    assertVectorCacheBytes(budget);
    this.#budget = budget;
  }

  /** The value under `key` if it was read at `version` (then it becomes the most recently used); else undefined, and a stale value is dropped. */
  get(key: string, version: number): T | undefined {
    const value = this.#values.get(key);
    if (value === undefined) return undefined;
    this.#values.delete(key);
    if (value.version !== version) {
      this.#bytes -= value.bytes;
      return undefined;
    }
    this.#values.set(key, value);
    return value;
  }

  /**
   * Keeps `value` under `key` (replacing what was there, unless that was read
   * at a later version), then drops the least recently used values until the
   * total fits the budget.
   */
  set(key: string, value: T): void {
    const previous = this.#values.get(key);
    if (previous !== undefined) {
      if (previous.version > value.version) return;
      this.#values.delete(key);
      this.#bytes -= previous.bytes;
    }
    if (value.bytes > this.#budget) return;
    this.#values.set(key, value);
    this.#bytes += value.bytes;
    for (const [oldest, old] of this.#values) {
      if (this.#bytes <= this.#budget) break;
      this.#values.delete(oldest);
      this.#bytes -= old.bytes;
    }
  }

  /** Drops every value. */
  clear(): void {
    this.#values.clear();
    this.#bytes = 0;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Values held now. */
  get size(): number {
    return this.#values.size;
  }
}
