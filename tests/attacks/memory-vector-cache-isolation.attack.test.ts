/**
 * Issue 40, decoded-vector cache, area 2: isolation. A cached value of one
 * scope, model id or dimension must never answer a query of another: hostile
 * workdir hashes and model ids (quotes, NUL, JSON-looking text, very long),
 * a query object the host changes after the search, and SQLite's one-value
 * reads of a scope that hold vectors of several lengths or body hashes with
 * spaces (a damaged or hostile database).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GLOBAL, type Rec, type Ref, answer, cacheBackends, expectFresh, openDatabase, project, put, rec, row, unit } from "./memory-vector-cache-harness.js";

const backends = cacheBackends("attack-vector-cache-isolation-");
beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

const labels = ["sqlite", "postgres"] as const;
const long = "w".repeat(20_000);
const hostileHashes = (label: string) => [
  `it's "quoted"`,
  `["project","x"]`,
  `{"scope":"global","workdirHash":""}`,
  `a\u0000b`,
  `x\\u0000y`,
  long,
  `${long}!`,
  " ",
  "\u{1F600}\uE000",
  ...(label === "sqlite" ? ["nul\u0000", "nul"] : []),
];
const hostileModels = [`m'); drop table memory_vectors; --`, `["m",1]`, `m\u0000`, "m", "M".repeat(10_000), `{"m":4}`];

describe.each(labels)("attack: hostile scope and model strings on %s", (label) => {
  it("held: each (scope, model) query answers with its own vectors only, searched in every order", async () => {
    const db = await openDatabase(backends, label);
    try {
      const store = await db.open();
      const hashes = hostileHashes(label).filter((hash) => label === "sqlite" || !hash.includes("\u0000"));
      const models = hostileModels.filter((id) => label === "sqlite" || !id.includes("\u0000"));
      const scopes: Ref[] = [GLOBAL, ...hashes.map(project)];
      // Scope i, model j: the entry's vector is e_(i+j) mod 4, so a wrong answer shows in the similarity.
      const records = scopes.map((scope, index) => rec(scope, `entry-${index}`));
      await put(store, ...records);
      for (const [j, modelId] of models.entries()) {
        await store.putVectors(records.map((record, i) => row(record, modelId, basis((i + j) % 4))));
      }
      for (let pass = 0; pass < 2; pass += 1) {
        for (const [j, modelId] of models.entries()) {
          for (const [i, scope] of scopes.entries()) {
            const result = await answer(store, { scopes: [scope], modelId, vector: basis((i + j) % 4) });
            expect(result, `${i}/${j}`).toEqual({ hits: [[`${scope.scope}/${scope.workdirHash}/entry-${i}`, 1]], skipped: [] });
          }
        }
      }
      // One write moves only its scope; every other cached value still answers right.
      await store.putVectors([row(records[3] as Rec, models[0] as string, basis(2))]);
      for (const [i, scope] of scopes.entries()) {
        const { cached, truth } = await expectFresh(db, store, { scopes: [scope], modelId: models[0] as string, vector: basis(i % 4) }, `scope ${i}`);
        expect(cached).toEqual(truth);
      }
    } finally {
      await db.close();
    }
  });

  // Finding C3: the cached value kept the query's own scope object and named its hits and skipped keys from it, so a
  // host that reused (changed) that object after a search made later searches of the scope read another scope's rows:
  // the hit came back from the other project whenever it held the same slug and body hash.
  it("(was C3) a query scope object changed after the search does not move the cached scope", async () => {
    const db = await openDatabase(backends, label);
    try {
      const store = await db.open();
      const [A, B] = [project("wd-a"), project("wd-b")];
      const M = "attack:mutated";
      const a = rec(A, "same", { bodyHash: "h-same", description: "project A's" });
      const b = rec(B, "same", { bodyHash: "h-same", description: "project B's" });
      const bad = rec(A, "bad", { bodyHash: "h-bad" });
      await put(store, a, b, bad);
      await store.putVectors([row(a, M, unit(1, 0, 0)), row(b, M, unit(0, 1, 0)), row(bad, M, unit(0, 0, 1))]);
      const reused = { scope: "project" as const, workdirHash: "wd-a" };
      await store.searchVectors({ scopes: [reused], modelId: M, vector: unit(1, 0, 0), limit: 5 });
      (reused as { workdirHash: string }).workdirHash = "wd-b";
      const hits = await store.searchVectors({ scopes: [project("wd-a")], modelId: M, vector: unit(1, 0, 0), limit: 5 });
      expect(hits.map((hit) => [hit.record.workdirHash, hit.record.description])).toEqual([
        ["wd-a", "project A's"],
        ["wd-a", "about bad"],
      ]);
    } finally {
      await db.close();
    }
  });

  it("held: the same model searched at two dimensions, and two models in one scope, keep apart", async () => {
    const db = await openDatabase(backends, label);
    try {
      const store = await db.open();
      const P = project("wd-dims");
      const one = rec(P, "one");
      await put(store, one);
      await store.putVectors([row(one, "dims:3", unit(1, 0, 0)), row(one, "dims:4", unit(0, 0, 0, 1))]);
      for (let pass = 0; pass < 2; pass += 1) {
        expect(await answer(store, { scopes: [P], modelId: "dims:3", vector: unit(0, 0, 0, 1) })).toEqual({ error: "invalid_options" });
        expect((await answer(store, { scopes: [P], modelId: "dims:3", vector: unit(1, 0, 0) })).hits).toEqual([["project/wd-dims/one", 1]]);
        expect((await answer(store, { scopes: [P], modelId: "dims:4", vector: unit(0, 0, 0, 1) })).hits).toEqual([["project/wd-dims/one", 1]]);
        expect(await answer(store, { scopes: [P], modelId: "dims:4", vector: unit(1, 0, 0) })).toEqual({ error: "invalid_options" });
      }
    } finally {
      await db.close();
    }
  });

  // Finding C4: SQLite read a scope's vectors as one concatenated value and checked only the total length, so a
  // vector of 3 components beside one of 5 read as two of 4 when the query had 4: hits of similarity 1 from
  // vectors of the wrong length, where PostgreSQL (and the store with the row-by-row read) refuses the query.
  it("(was C4) vectors of 3 and 5 components never read as two of 4", async () => {
    const db = await openDatabase(backends, label);
    try {
      const store = await db.open();
      const [X, Y] = [project("wd-x"), project("wd-y")];
      const M = "attack:mixed-lengths";
      const [a, b, c] = [rec(X, "a"), rec(X, "b"), rec(Y, "c")];
      await put(store, a, b, c);
      await store.putVectors([row(a, M, unit(0.6, 0.8, 0))]);
      // Two of 5 outnumber the one of 3, so the store takes them (a damaged database holds the rest).
      await store.putVectors([row(b, M, unit(0, 1, 0, 0, 0)), row(c, M, unit(0, 1, 0, 0, 0))]);
      const result = await answer(store, { scopes: [X], modelId: M, vector: unit(1, 0, 0, 0) });
      expect(result).toEqual({ error: "invalid_options" });
      const five = await answer(store, { scopes: [X], modelId: M, vector: unit(0, 1, 0, 0, 0) });
      expect(five).toEqual({ hits: [["project/wd-x/b", 1]], skipped: ["project/wd-x/a:dimension"] });
    } finally {
      await db.close();
    }
  });

  // Finding C5: SQLite's one-value read split "type archived body_hash slug" at the first three spaces, so a body
  // hash holding a space (the store takes any string) moved the rest into the slug: the entry's vector matched a slug
  // that does not exist and the search left it out, where PostgreSQL found it.
  it("(was C5) a body hash or slug holding spaces and newlines is found as on PostgreSQL", async () => {
    const db = await openDatabase(backends, label);
    try {
      const store = await db.open();
      const P = project("wd-spaces");
      const M = "attack:spaces";
      // The newline gets a scope of its own: it sends its whole scope to the row-by-row read.
      const records = [
        rec(P, "plain", { bodyHash: "h plain hash" }),
        rec(P, "two words", { bodyHash: "h" }),
        rec(project("wd-newline"), "line\nbreak", { bodyHash: "h\nx" }),
        rec(P, "ok", { bodyHash: "h-ok" }),
      ];
      await put(store, ...records);
      await store.putVectors(records.map((record, index) => row(record, M, basis(index))));
      for (const [index, record] of records.entries()) {
        const ref = project(record.workdirHash);
        expect((await answer(store, { scopes: [ref], modelId: M, vector: basis(index), limit: 1 })).hits, record.slug).toEqual([
          [`project/${record.workdirHash}/${record.slug}`, 1],
        ]);
      }
    } finally {
      await db.close();
    }
  });

  // Finding C9 (SQLite): the versions and the search's de-duplication keyed a scope as scope NUL workdirHash, so a
  // query naming "project\0x"/"y" beside the real "project"/"x\0y" merged the two and kept the one with no rows.
  it("(was C9) query scopes whose parts hold NUL never merge two scopes", async () => {
    const db = await openDatabase(backends, label);
    try {
      const store = await db.open();
      const real = project(label === "sqlite" ? "x\u0000y" : "x");
      const bogus = { scope: (label === "sqlite" ? "project\u0000x" : "project\u0001x") as "project", workdirHash: "y" };
      const one = rec(real, "one");
      await put(store, one);
      await store.putVectors([row(one, "attack:nul", unit(1, 0))]);
      for (const scopes of [
        [real, bogus],
        [bogus, real],
      ]) {
        const result = await answer(store, { scopes, modelId: "attack:nul", vector: unit(1, 0) });
        expect(result).toEqual({ hits: [[`project/${real.workdirHash}/one`, 1]], skipped: [] });
      }
    } finally {
      await db.close();
    }
  });
});

function basis(index: number): Float32Array {
  const vector = new Float32Array(4);
  vector[index] = 1;
  return vector;
}
