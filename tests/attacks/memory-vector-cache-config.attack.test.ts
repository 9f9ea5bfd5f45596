/**
 * Issue 40, decoded-vector cache, area 5: configuration. KyselyMemoryIndexStore.open's
 * options as a host (or a config file parsed into them) may pass them: unknown keys,
 * wrong types, negative, fractional, non-finite and unsafe budgets. Each fails closed
 * with SdkError("invalid_options") naming the option (a suggestion for a near name),
 * before the store touches the database.
 */
import { KyselyMemoryIndexStore } from "@agent-tools/memory";
import { type Storage, openSqliteStorage } from "@agent-tools/storage";
import { sql } from "../../packages/memory/node_modules/kysely/dist/esm/index.js";
import { afterAll, describe, expect, it } from "vitest";
import { project, put, rec, removeTree, row, tempDir, unit } from "./memory-vector-cache-harness.js";

const directory = tempDir("attack-vector-cache-config-");
afterAll(() => removeTree(directory));
let files = 0;

async function withStorage<T>(run: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await openSqliteStorage({ filename: `${directory}/db-${++files}.sqlite` });
  try {
    return await run(storage);
  } finally {
    await storage.close();
  }
}

async function refusal(options: unknown) {
  return withStorage(async (storage) => {
    const error = await KyselyMemoryIndexStore.open(storage, options as never).then(
      () => undefined,
      (caught: unknown) => caught as { name?: string; code?: string; message: string; details?: Record<string, unknown> },
    );
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where name like 'memory%'`.execute(storage.db);
    return { error, tables: rows.length };
  });
}

const badValues: [string, unknown][] = [
  ["a string", "64"],
  ["null (was C10)", null],
  ["true", true],
  ["an object", { bytes: 1 }],
  ["an array", [1024]],
  ["a bigint", 1024n],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
  ["-1", -1],
  ["-1024", -1024],
  ["0.5", 0.5],
  ["1.5 MiB as a fraction", 1.5 * 1024 * 1024 + 0.25],
  ["2^53 (not a safe integer)", 2 ** 53],
  ["1e300", 1e300],
  ["a Number object", new Number(1024)],
];

describe("attack: vectorCacheBytes values", () => {
  // Finding C10: `vectorCacheBytes: null` (a config file's "no value") opened with the 64 MiB default instead of failing.
  it.each(badValues)("held: %s fails closed, naming vectorCacheBytes, before any table is made", async (_what, value) => {
    const { error, tables } = await refusal({ vectorCacheBytes: value });
    expect(error?.name).toBe("SdkError");
    expect(error?.code).toBe("invalid_options");
    expect(error?.message).toContain("vectorCacheBytes");
    expect(error?.details).toMatchObject({ option: "vectorCacheBytes" });
    expect(tables).toBe(0);
  });

  it("held: an inherited vectorCacheBytes is read and checked too (no way round the check)", async () => {
    const { error } = await refusal(Object.create({ vectorCacheBytes: -5 }));
    expect(error?.code).toBe("invalid_options");
    expect(error?.message).toContain("vectorCacheBytes");
  });

  it("held: 0, undefined (the default), -0 and a large safe budget open, and 0 really reads the database each search", async () => {
    for (const value of [0, undefined, -0, 1, 2 ** 40]) {
      await withStorage(async (storage) => {
        const store = await KyselyMemoryIndexStore.open(storage, { vectorCacheBytes: value });
        const P = project("wd-config");
        const one = rec(P, "one");
        await put(store, one);
        await store.putVectors([row(one, "attack:config", unit(1, 0))]);
        const search = async () =>
          (await store.searchVectors({ scopes: [P], modelId: "attack:config", vector: unit(1, 0), limit: 3 })).map((hit) => Number(hit.similarity.toFixed(3)));
        expect(await search()).toEqual([1]);
        // A change that moves no version (a test-only path): a store that keeps nothing sees it, one that keeps does not.
        const flipped = Buffer.from(unit(0, 1).buffer);
        await sql`update memory_vectors set vector = ${flipped} where slug = 'one'`.execute(storage.db);
        // 0, -0 and 1 byte keep nothing (one scope's value is larger than a byte).
        expect(await search()).toEqual(value === undefined || value > 1 ? [1] : [0]);
      });
    }
  });
});

describe("attack: option objects and keys", () => {
  const badOptions: [string, unknown, RegExp][] = [
    ["null", null, /options must be an object/],
    ["an array", [], /options must be an object/],
    ["a string", "vectorCacheBytes=0", /options must be an object/],
    ["a number", 1024, /options must be an object/],
  ];
  it.each(badOptions)("held: options that are %s fail closed", async (_what, options, pattern) => {
    const { error, tables } = await refusal(options);
    expect(error?.code).toBe("invalid_options");
    expect(error?.message).toMatch(pattern);
    expect(tables).toBe(0);
  });

  const nearNames = ["vectorCacheByte", "vectorcachebytes", "VectorCacheBytes", "vectorCacheSize", "vectorsCacheBytes"];
  it.each(nearNames)("held: the near name %s is refused with vectorCacheBytes suggested", async (name) => {
    const { error, tables } = await refusal({ [name]: 1024 });
    expect(error?.code).toBe("invalid_options");
    expect(error?.message).toContain(JSON.stringify(name));
    expect(error?.message).toMatch(/did you mean `vectorCacheBytes`\?/);
    expect(error?.details).toMatchObject({ option: name });
    expect(tables).toBe(0);
  });

  it("held: unrelated, prototype-looking and hostile keys are refused, each named", async () => {
    for (const name of ["cache", "__proto__x", "constructor", "toString", "vectorCacheBytes\u0000", "x".repeat(5000)]) {
      const { error } = await refusal({ vectorCacheBytes: 1024, [name]: 1 });
      expect(error?.code, name.slice(0, 20)).toBe("invalid_options");
      expect(error?.details).toMatchObject({ option: name });
    }
    const parsed = JSON.parse('{"__proto__": {"vectorCacheBytes": -1}}');
    const { error } = await refusal(parsed);
    expect(error?.code).toBe("invalid_options");
  });
});
