/**
 * Issue 40, decoded-vector cache, area 1: staleness. A store that searched
 * before (its cache warm) must answer every later vector search as a store
 * opened fresh on the same database does, whatever wrote in between: another
 * store instance, another process (SQLite file, PostgreSQL database), failed
 * batches, putVectors that store nothing, pruning, writes racing searches, a
 * database upgraded from before migration 0009, hostile workdir hashes.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openMemoryService } from "@agent-tools/memory";
import type { Storage } from "@agent-tools/storage";
import { sql } from "../../packages/memory/node_modules/kysely/dist/esm/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conceptEmbedder } from "./memory-embeddings-harness.js";
import {
  GLOBAL,
  type Rec,
  type Ref,
  answer,
  cacheBackends,
  expectFresh,
  openDatabase,
  project,
  put,
  rec,
  row,
  tempDir,
  unit,
} from "./memory-vector-cache-harness.js";

const backends = cacheBackends("attack-vector-cache-staleness-");
beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

let models = 0;
const model = () => `attack:stale-${++models}`;
const keyOf = (record: Rec) => ({ scope: record.scope, workdirHash: record.workdirHash, slug: record.slug });
const labels = ["sqlite", "postgres"] as const;

describe.each(labels)("attack: cached vector search against a fresh store on %s", (label) => {
  it("held: every write kind by another store instance between searches (failed batches, 0-row puts, dimension refusals, prune)", async () => {
    const db = await openDatabase(backends, label);
    try {
      const reader = await db.open();
      const writer = await db.open();
      const P = project("wd-a");
      const [M, OTHER] = [model(), model()];
      const check = async (note: string, vector = unit(1, 0, 0), extra: { includeArchived?: boolean; types?: string[] } = {}) => {
        const query = { scopes: [P, GLOBAL], modelId: M, vector, ...extra };
        await answer(reader, query); // warm, then a second search that may come from the cache
        const { cached, truth } = await expectFresh(db, reader, query, note);
        expect(cached, note).toEqual(truth);
      };
      const one = rec(P, "one");
      const two = rec(GLOBAL, "two");
      const three = rec(P, "three");
      await put(writer, one, two, three);
      await check("entries, no vectors");
      expect(await writer.putVectors([row(one, M, unit(1, 0, 0)), row(two, M, unit(0, 1, 0)), row(three, M, unit(1, 1, 0))])).toEqual({ stored: 3 });
      await check("vectors put");
      await writer.putVectors([row(one, M, unit(0, 0, 1))]);
      await check("one vector replaced");
      expect(await writer.putVectors([row(one, M, unit(1, 0, 0), "h-stale")])).toEqual({ stored: 0 });
      await check("a put that stored 0 rows");
      expect(await writer.putVectors([])).toEqual({ stored: 0 });
      await check("an empty put");
      const failed = await writer.applyBatch(
        [
          { kind: "upsert", record: { ...three, bodyHash: "h-three-2", updatedAt: three.updatedAt + 100 } },
          { kind: "upsert", record: rec(P, "four") },
          { kind: "delete", key: keyOf(two), expectedUpdatedAt: 1 },
        ],
        [],
      );
      expect(failed.ok).toBe(false);
      await check("a batch that rolled back");
      await expect(writer.putVectors([row(two, M, unit(1, 0, 0, 0))])).rejects.toThrow(/one model id has one dimension/);
      await check("a put refused for its dimension");
      const oneB = { ...one, bodyHash: "h-one-2", updatedAt: one.updatedAt + 1 };
      await put(writer, oneB);
      await check("a new body (its vector is old)");
      await writer.putVectors([row(oneB, M, unit(1, 0, 0))]);
      await check("the new body's vector");
      await put(writer, { ...oneB, archived: true, updatedAt: oneB.updatedAt + 1 });
      await check("archived");
      await check("archived, asked for", unit(1, 0, 0), { includeArchived: true });
      await put(writer, { ...two, type: "user", updatedAt: two.updatedAt + 1 });
      await check("type changed", unit(0, 1, 0), { types: ["project"] });
      await check("type changed, asked for", unit(0, 1, 0), { types: ["user"] });
      const deleted = await writer.applyBatch([{ kind: "delete", key: keyOf(three) }], []);
      expect(deleted.ok).toBe(true);
      await check("deleted");
      await writer.putVectors([row(two, OTHER, unit(1, 0, 0))]);
      expect(await writer.pruneVectors({ keepModelId: OTHER })).toBeGreaterThan(0);
      await check("the searched model pruned");
      expect((await answer(reader, { scopes: [P, GLOBAL], modelId: M, vector: unit(1, 0, 0) })).hits).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("held: writes racing searches, then the first search after the last write is fresh", async () => {
    const db = await openDatabase(backends, label);
    try {
      const reader = await db.open();
      const writer = await db.open();
      const P = project("wd-race");
      const M = model();
      const records = Array.from({ length: 8 }, (_, index) => rec(P, `r${index}`));
      await put(writer, ...records);
      const directions = [unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1)];
      await writer.putVectors(records.map((record) => row(record, M, directions[0] as Float32Array)));
      let writing = true;
      const writes = (async () => {
        for (let round = 0; round < 40; round += 1) {
          const record = records[round % records.length] as Rec;
          if (round % 5 === 4) {
            await put(writer, { ...record, bodyHash: `h-${round}`, updatedAt: record.updatedAt + round });
            records[round % records.length] = { ...record, bodyHash: `h-${round}`, updatedAt: record.updatedAt + round };
          }
          await writer.putVectors([row(records[round % records.length] as Rec, M, directions[round % 3] as Float32Array)]);
        }
        writing = false;
      })();
      const seen: unknown[] = [];
      while (writing) seen.push(await answer(reader, { scopes: [P], modelId: M, vector: unit(1, 0, 0) }));
      await writes;
      for (const each of seen) for (const hit of (each as { hits: [string, number][] }).hits ?? []) expect([0, 1]).toContain(hit[1]);
      const { cached, truth } = await expectFresh(db, reader, { scopes: [P], modelId: M, vector: unit(1, 0, 0) }, "after the race");
      expect(cached).toEqual(truth);
    } finally {
      await db.close();
    }
  });

  // Finding C1: migration 0009 creates memory_scope_versions empty, so on a database written before it every scope
  // has version 0 until a write of that scope; pruneVectors moves only the rows that exist, so a store that cached
  // the pruned model's vectors at version 0 kept answering with vectors the database no longer holds.
  it("(was C1) a database written before migration 0009: pruning the searched model is seen", async () => {
    const db = await openDatabase(backends, label);
    try {
      const writer = await db.open();
      const P = project("wd-upgraded");
      const [OLD, NEW] = [model(), model()];
      const one = rec(P, "one");
      await put(writer, one);
      await writer.putVectors([row(one, OLD, unit(1, 0, 0)), row(one, NEW, unit(0, 1, 0))]);
      // As a database migrated up to 0008 holds it: entries and vectors, no version rows.
      const raw = await db.storage();
      await sql`delete from memory_scope_versions`.execute((raw as Storage).db);
      const reader = await db.open();
      const query = { scopes: [P], modelId: OLD, vector: unit(1, 0, 0) };
      expect((await answer(reader, query)).hits).toEqual([[`project/wd-upgraded/one`, 1]]);
      expect(await writer.pruneVectors({ keepModelId: NEW })).toBe(1);
      const { cached, truth } = await expectFresh(db, reader, query, "after prune");
      expect(truth).toEqual({ hits: [], skipped: [] });
      expect(cached).toEqual(truth);
    } finally {
      await db.close();
    }
  });

  // Finding C2: both drivers store a lone UTF-16 surrogate as U+FFFD, and the search matched the database's rows
  // (versions, hits' meta rows) by the asked text: a workdir hash holding one never found a hit (every candidate's
  // meta row looked missing), and its version read as 0 forever, so the first cached vectors would answer for good.
  it("(was C2) a workdir hash holding a lone surrogate: later writes are seen", async () => {
    const db = await openDatabase(backends, label);
    try {
      const reader = await db.open();
      const writer = await db.open();
      const P: Ref = project("wd-\uD800-lone");
      const M = model();
      const one = rec(P, "one");
      await put(writer, one);
      await writer.putVectors([row(one, M, unit(1, 0, 0))]);
      const query = { scopes: [P], modelId: M, vector: unit(1, 0, 0) };
      expect((await answer(reader, query)).hits?.map((hit) => hit[1])).toEqual([1]);
      await writer.putVectors([row(one, M, unit(0, 1, 0))]);
      const first = await expectFresh(db, reader, query, "vector replaced");
      expect(first.truth.hits?.map((hit) => hit[1])).toEqual([0]);
      expect(first.cached).toEqual(first.truth);
      await writer.applyBatch([{ kind: "delete", key: keyOf(one) }], []);
      const second = await expectFresh(db, reader, query, "deleted");
      expect(second.cached).toEqual({ hits: [], skipped: [] });
    } finally {
      await db.close();
    }
  });
});

/** A second process writing to the database on command. */
function child(dialect: string, location: string) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "memory-vector-cache-child.ts");
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const process_ = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", file, dialect, location], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  process_.stdout.setEncoding("utf8");
  let buffer = "";
  const waiting: ((line: string) => void)[] = [];
  process_.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      waiting.shift()?.(line);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const ready = next();
  return {
    ready,
    async send(command: object): Promise<{ result?: unknown; error?: string }> {
      const reply = next();
      process_.stdin.write(`${JSON.stringify(command)}\n`);
      return JSON.parse(await reply);
    },
    async exit() {
      const exited = new Promise((resolve) => process_.on("exit", resolve));
      process_.stdin.end(`${JSON.stringify({ op: "exit" })}\n`);
      await exited;
    },
  };
}

describe.each(labels)("attack: a second process writes, this one searches (%s)", (label) => {
  it("held: every write of the other process is seen by the next search", async () => {
    const db = await openDatabase(backends, label);
    const reader = await db.open(); // migrates before the child opens
    const writer = child(label, db.location);
    try {
      await writer.ready;
      const P = project("wd-process");
      const [M, OTHER] = [model(), model()];
      const records = [rec(P, "a"), rec(P, "b"), rec(GLOBAL, "c")];
      const vectorRow = (record: Rec, modelId: string, vector: number[], bodyHash = record.bodyHash) => ({
        ...row(record, modelId, unit(...vector), bodyHash),
        vector: [...unit(...vector)],
      });
      const query = { scopes: [P, GLOBAL], modelId: M, vector: unit(1, 0, 0) };
      const check = async (note: string) => {
        await answer(reader, query);
        const { cached, truth } = await expectFresh(db, reader, query, note);
        expect(cached, note).toEqual(truth);
      };
      expect((await writer.send({ op: "batch", changes: records.map((record) => ({ kind: "upsert", record })) })).result).toEqual({ ok: true });
      await check("entries");
      for (let round = 0; round < 12; round += 1) {
        const record = records[round % 3] as Rec;
        const reply = await writer.send({ op: "vectors", rows: [vectorRow(record, M, round % 2 === 0 ? [1, 0, 0] : [0, 1, 1])] });
        expect(reply.result).toEqual({ stored: 1 });
        await check(`round ${round}`);
      }
      expect((await writer.send({ op: "vectors", rows: [vectorRow(records[0] as Rec, M, [1, 0, 0], "h-old")] })).result).toEqual({ stored: 0 });
      await check("0 rows");
      const conflict = await writer.send({ op: "batch", changes: [{ kind: "delete", key: keyOf(records[1] as Rec), expectedUpdatedAt: 3 }] });
      expect(conflict.result).toMatchObject({ ok: false });
      await check("a conflict");
      await writer.send({ op: "batch", changes: [{ kind: "upsert", record: { ...records[2], archived: true, updatedAt: 999_999 } }] });
      await check("archived");
      await writer.send({ op: "batch", changes: [{ kind: "delete", key: keyOf(records[0] as Rec) }] });
      await check("deleted");
      await writer.send({ op: "vectors", rows: [vectorRow(records[1] as Rec, OTHER, [1, 0, 0])] });
      expect((await writer.send({ op: "prune", keep: OTHER })).result).toBeGreaterThan(0);
      await check("pruned");
      expect((await answer(reader, query)).hits).toEqual([]);
    } finally {
      await writer.exit();
      await db.close();
    }
  }, 60_000);
});

describe.each(labels)("attack: two MemoryServices on one database, hybrid search with an embedder (%s)", (label) => {
  it("held: write, update, type change, delete and a file edited behind the services: the reader's search is a fresh service's", async () => {
    const db = await openDatabase(backends, label);
    const root = tempDir("attack-vector-cache-service-");
    const [dataDir, workdir] = [path.join(root, "data"), path.join(root, "work")];
    fs.mkdirSync(workdir, { recursive: true });
    const embedder = conceptEmbedder({ modelId: `attack:service-${label}@4` });
    const service = async () => openMemoryService({ dataDir, workdir, store: await db.open(), embedder });
    const [writer, reader] = [await service(), await service()];
    const slugsOf = (result: { hits: readonly { record: { slug: string } }[] }) => result.hits.map((hit) => hit.record.slug);
    const check = async (note: string, query: string) => {
      await writer.embeddingsSettled();
      await reader.embeddingsSettled();
      await reader.search({ query, limit: 5 }); // warm
      const fresh = await service();
      await fresh.embeddingsSettled();
      const [cached, truth] = [await reader.search({ query, limit: 5 }), await fresh.search({ query, limit: 5 })];
      await fresh.close();
      expect(slugsOf(cached), note).toEqual(slugsOf(truth));
      return slugsOf(cached);
    };
    try {
      const entry = (slug: string, body: string) => ({ slug, scope: "project", type: "reference", description: `About ${slug}`, body });
      expect((await writer.write(entry("pet", "Rex the hound."))).ok).toBe(true);
      expect((await writer.write(entry("food", "Pasta at the trattoria."))).ok).toBe(true);
      expect(await check("written", "canine")).toContain("pet");
      expect((await writer.update({ slug: "pet", scope: "project", body: "A pizza restaurant for lunch." })).ok).toBe(true);
      await check("updated", "canine");
      await check("updated, new meaning", "trattoria");
      expect((await writer.update({ slug: "food", scope: "project", type: "project" })).ok).toBe(true);
      await check("type changed", "lunch");
      expect((await writer.delete({ slug: "food", scope: "project" })).ok).toBe(true);
      expect(await check("deleted", "trattoria")).not.toContain("food");
      // The Markdown file changed behind both services; the reader reconciles it (its own store writes).
      const file = fs
        .readdirSync(dataDir, { recursive: true })
        .map(String)
        .find((name) => name.endsWith("pet.md"));
      expect(file).toBeDefined();
      const full = path.join(dataDir, file as string);
      fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace("A pizza restaurant for lunch.", "A terrier puppy."));
      await reader.reconcile();
      expect(await check("reconciled", "canine")).toContain("pet");
    } finally {
      await writer.close();
      await reader.close();
      await db.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
