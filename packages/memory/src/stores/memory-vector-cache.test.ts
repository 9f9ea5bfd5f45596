import { describe, expect, it } from "vitest";
import { DEFAULT_VECTOR_CACHE_BYTES, ScopeValueCache, assertVectorCacheBytes } from "./memory-vector-cache.js";

const value = (version: number, bytes: number) => ({ version, bytes });

describe("ScopeValueCache", () => {
  it("answers a value only at the version it was read at, and drops it once another version is asked", () => {
    const cache = new ScopeValueCache(1_000);
    cache.set("a", value(3, 100));
    expect(cache.get("a", 3)).toEqual(value(3, 100));
    expect(cache.get("a", 4)).toBeUndefined();
    expect(cache.get("a", 3)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it("keeps the later of two reads of one key (a slow reader does not put an older version back)", () => {
    const cache = new ScopeValueCache(1_000);
    cache.set("a", value(5, 100));
    cache.set("a", value(4, 100));
    expect(cache.get("a", 5)).toEqual(value(5, 100));
    cache.set("a", value(6, 200));
    expect(cache.get("a", 6)).toEqual(value(6, 200));
    expect(cache.bytes).toBe(200);
  });

  it("drops the least recently used values past the budget, and keeps none larger than the budget", () => {
    const cache = new ScopeValueCache(300);
    cache.set("a", value(1, 100));
    cache.set("b", value(1, 100));
    cache.set("c", value(1, 100));
    expect(cache.get("a", 1)).toBeDefined(); // a is now the most recently used
    cache.set("d", value(1, 100));
    expect(cache.get("b", 1)).toBeUndefined();
    expect([cache.get("a", 1), cache.get("c", 1), cache.get("d", 1)].every((found) => found !== undefined)).toBe(true);
    cache.set("huge", value(1, 301));
    expect(cache.get("huge", 1)).toBeUndefined();
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(300);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it("keeps nothing with a budget of 0", () => {
    const cache = new ScopeValueCache(0);
    cache.set("a", value(1, 1));
    expect(cache.get("a", 1)).toBeUndefined();
  });

  it("refuses a budget that is not a whole number of bytes >= 0, naming the option", () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "64", null]) {
      expect(() => assertVectorCacheBytes(bad)).toThrow(/vectorCacheBytes must be a whole number of bytes >= 0/);
    }
    expect(() => assertVectorCacheBytes(DEFAULT_VECTOR_CACHE_BYTES)).not.toThrow();
  });
});
