/**
 * Issue 40, area 4: the embedding runtime under stress. 1,000 writes while
 * the embedder is slow and fails now and then: every write succeeds and is
 * found lexically at once, the vectors arrive later, the queue stays
 * bounded. close() with a batch in flight, also when the embedder ignores
 * the abort; a search whose embedder hangs; two services with different
 * embedders (model ids, dimensions) on one store.
 */
import { openMemoryService } from "@agent-tools/memory";
import { FunctionEmbeddingClient } from "@agent-tools/memory/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackBackends, attackFolders, conceptEmbedder, conceptVector, gate } from "./memory-embeddings-harness.js";

const backends = attackBackends("attack-memory-embeddings-runtime-");
const folders = attackFolders("attack-memory-embeddings-runtime-dirs-");
beforeAll(() => backends.start(), 120_000);
afterAll(async () => {
  await backends.stop();
  folders.cleanup();
});

const WRITES = Number(process.env.ATTACK_ROUNDS ?? 0) > 100 ? Number(process.env.ATTACK_ROUNDS) : 1_000;
const entry = (slug: string, description: string, body: string, scope = "project") => ({ slug, scope, type: "reference", description, body });
const slugsOf = (result: { hits: readonly { record: { slug: string } }[] }) => result.hits.map((hit) => hit.record.slug);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A word made of letters only, unique per number (the lexical index splits on digits). */
const wordOf = (index: number) => `zq${[...String(index)].map((digit) => "abcdefghij"[Number(digit)]).join("")}x`;

/** Resolves with "settled" or "hung" (liveness, not timing: the bound is far above any real wait). */
function settlesWithin<T>(promise: Promise<T>, ms = 20_000): Promise<"settled" | "hung"> {
  return Promise.race([
    promise.then(
      () => "settled" as const,
      () => "settled" as const,
    ),
    sleep(ms).then(() => "hung" as const),
  ]);
}

describe.each(backends.list)("attack: the embedding runtime under stress on $label", (backend) => {
  it(`keeps ${WRITES} writes atomic and lexically searchable at once while the embedder is slow and fails now and then`, async () => {
    let calls = 0;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const embedder = conceptEmbedder({
      maxBatchSize: 32,
      beforeEmbed: async () => {
        calls += 1;
        await sleep(5 + (calls % 7) * 3);
        // Two failures: each costs the queue one retry wait (5 s, then it goes on).
        if (calls === 3 || calls === 9) throw new Error("embedder overloaded (503)");
      },
    });
    const dirs = folders.next();
    const opened = await backend.open();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder, entriesPerScope: WRITES + 10 });
    let maxQueued = 0;
    try {
      for (let start = 0; start < WRITES; start += 25) {
        const batch = Array.from({ length: Math.min(25, WRITES - start) }, (_, offset) => start + offset);
        const results = await Promise.all(batch.map((index) => memory.write(entry(`note-${index}`, `Note ${index}`, `The hound ${wordOf(index)} sleeps.`))));
        expect(results.every((result) => result.ok)).toBe(true);
        maxQueued = Math.max(maxQueued, memory.embeddingStatus()?.queued ?? 0);
        // Found lexically at once, whatever the embedder is doing.
        const probe = batch[batch.length - 1] as number;
        expect(slugsOf(await memory.search({ query: wordOf(probe), limit: 3 }))[0]).toBe(`note-${probe}`);
      }
      expect(maxQueued).toBeLessThanOrEqual(WRITES);
      // The vectors arrive later: wait for the backlog to empty (the retry waits run on the queue's own timer).
      await expect
        .poll(async () => (await opened.store.vectorBacklog({ modelId: embedder.modelId, limit: 5 })).length, { timeout: 90_000, interval: 500 })
        .toBe(0);
      await memory.embeddingsSettled();
      const status = memory.embeddingStatus();
      expect(status).toMatchObject({ queued: 0, consecutiveFailures: 0 });
      expect(status?.embedded).toBeGreaterThanOrEqual(WRITES);
      const byMeaning = await memory.search({ query: "canine", limit: 5 });
      expect(byMeaning.indexes).toContain("vector");
      expect(byMeaning.hits.length).toBe(5);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await memory.close();
      await opened.dispose();
    }
  }, 180_000);

  it("closes with a batch in flight: no unhandled rejection, no vector written after close", async () => {
    const held = gate();
    let entered: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const embedder = conceptEmbedder({
      beforeEmbed: async () => {
        entered();
        await held.promise;
        throw new Error("late failure after close");
      },
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const dirs = folders.next();
    const opened = await backend.open();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder });
    try {
      expect((await memory.write(entry("pet", "Pet", "Rex the hound."))).ok).toBe(true);
      await inFlight;
      await memory.close();
      held.open();
      await sleep(50);
      expect(await opened.store.vectorBacklog({ modelId: embedder.modelId, limit: 10 })).toHaveLength(1);
      expect(memory.embeddingStatus()?.state).toBe("closed");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await opened.dispose();
    }
  });

  // Finding R1 (fixed): the runtime trusted the host's embedder to honour the abort signal. One that ignored it kept
  // close() waiting for ever, and a search whose caller aborted waited for it too.
  it("(was R1) close() and an aborted search end although the embedder ignores the signal and never answers", async () => {
    const never = new Promise<never>(() => {});
    let hang = false;
    const embedder = new FunctionEmbeddingClient({ dimension: 4, modelId: "attack:deaf@4", vectorOf: conceptVector });
    const deaf = Object.assign(Object.create(embedder) as FunctionEmbeddingClient, {
      embed: (texts: readonly string[]) => (hang ? never : embedder.embed(texts)),
    });
    const dirs = folders.next();
    const opened = await backend.open();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder: deaf });
    try {
      expect((await memory.write(entry("pet", "Pet", "Rex the hound."))).ok).toBe(true);
      await memory.embeddingsSettled();
      hang = true;
      const controller = new AbortController();
      const search = memory.search({ query: "hound", signal: controller.signal });
      controller.abort();
      expect(await settlesWithin(search)).toBe("settled");
      expect((await memory.write(entry("pet-2", "Pet", "Bo the terrier."))).ok).toBe(true);
      expect(await settlesWithin(memory.close())).toBe("settled");
    } finally {
      await opened.dispose();
    }
  });

  // Finding R2 (fixed): every service pruned the other model ids' vectors when it opened, so a second service with
  // another embedder on the same store deleted the running one's vectors; the first never re-embedded them (its backlog
  // was read on open only) and its search by meaning went quiet without a vectorError.
  it("(was R2) two services with different embedders on one store keep each other's vectors", async () => {
    const dirs = folders.next();
    const opened = await backend.open();
    const first = conceptEmbedder({ modelId: "attack:first@4" });
    const second = conceptEmbedder({ modelId: "attack:second@4" });
    const a = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder: first });
    try {
      expect((await a.write(entry("pet", "Pet", "Rex the hound."))).ok).toBe(true);
      expect((await a.write(entry("food", "Food", "Pasta at the trattoria."))).ok).toBe(true);
      await a.embeddingsSettled();
      expect(slugsOf(await a.search({ query: "canine", limit: 1 }))).toEqual(["pet"]);
      const b = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectB, store: opened.store, embedder: second });
      await b.embeddingsSettled();
      await b.close();
      await a.embeddingsSettled();
      const after = await a.search({ query: "canine", limit: 1 });
      expect(after.vectorError).toBeUndefined();
      expect(slugsOf(after)).toEqual(["pet"]);
    } finally {
      await a.close();
      await opened.dispose();
    }
  });

  it("a second service whose embedder reuses the model id with another dimension fails clearly and leaves the first one's vectors", async () => {
    const dirs = folders.next();
    const opened = await backend.open();
    const four = conceptEmbedder({ modelId: "attack:reused" });
    const three = new FunctionEmbeddingClient({ dimension: 3, modelId: "attack:reused", vectorOf: (text) => conceptVector(text).slice(0, 3) });
    const a = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder: four });
    try {
      // Global: B's search reads A's vectors too.
      expect((await a.write(entry("pet", "Pet", "Rex the hound.", "global"))).ok).toBe(true);
      await a.embeddingsSettled();
      const b = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectB, store: opened.store, embedder: three });
      try {
        expect((await b.write(entry("pet-b", "Pet", "Bo the terrier."))).ok).toBe(true);
        await b.embeddingsSettled();
        expect(b.embeddingStatus()?.lastError?.message).toMatch(/dimension/);
        const inB = await b.search({ query: "canine" });
        expect(inB.vectorError).toMatch(/dimension|components/);
        expect(slugsOf(inB)).not.toContain("pet-b");
      } finally {
        await b.close();
      }
      expect(slugsOf(await a.search({ query: "canine", limit: 1 }))).toEqual(["pet"]);
    } finally {
      await a.close();
      await opened.dispose();
    }
  });

  // Finding R3 (fixed): the backlog a service embedded on open was the whole store's (vectorBacklog had no scope), so
  // project B's entries went to project A's embedder (its provider and key), although A's searches never show them.
  it("(was R3) a service sends only entries it can search (global and its project) to its embedder", async () => {
    const dirs = folders.next();
    const opened = await backend.open();
    const b = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectB, store: opened.store });
    try {
      expect((await b.write(entry("b-private", "B private", "Project B's private hound notes."))).ok).toBe(true);
    } finally {
      await b.close();
    }
    const embedderOfA = conceptEmbedder({ modelId: "attack:a-only@4" });
    const a = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder: embedderOfA });
    try {
      expect((await a.write(entry("a-own", "A own", "Rex the hound."))).ok).toBe(true);
      await a.embeddingsSettled();
      expect(embedderOfA.calls.flat().some((text) => text.includes("A own"))).toBe(true);
      expect(embedderOfA.calls.flat().filter((text) => text.includes("B private"))).toEqual([]);
    } finally {
      await a.close();
      await opened.dispose();
    }
  });
});

describe("attack: two processes on one SQLite memory index, each embedding", () => {
  it("loses no write and no vector when a second process writes and embeds at the same time (same model id)", async () => {
    const { spawn } = await import("node:child_process");
    const path = await import("node:path");
    const { openSqliteStorage } = await import("@agent-tools/storage");
    const { KyselyMemoryIndexStore } = await import("@agent-tools/memory");
    const dirs = folders.next();
    const filename = path.join(dirs.dataDir, "..", "shared.sqlite");
    const storage = await openSqliteStorage({ filename });
    const store = await KyselyMemoryIndexStore.open(storage);
    const embedder = conceptEmbedder({ modelId: "attack:two-processes@4", maxBatchSize: 8 });
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store, embedder });
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=@agent-tools/source",
        path.join(import.meta.dirname, "__fixtures__", "memory-embeddings-child.ts"),
        dirs.dataDir,
        dirs.projectB,
        filename,
        embedder.modelId,
        "150",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      for (let index = 0; index < 150; index += 1) {
        expect((await memory.write(entry(`parent-${index}`, `Parent ${index}`, "The hound sleeps."))).ok).toBe(true);
      }
      expect(await exited, err).toBe(0);
      const report = JSON.parse(out.trim().split("\n").pop() as string) as { failed: number; workdirHash: string; status: { consecutiveFailures: number } };
      expect(report.failed).toBe(0);
      await memory.embeddingsSettled();
      // Vectors the other process wrote after this one read the backlog: read it again until both are complete.
      await expect.poll(async () => (await store.vectorBacklog({ modelId: embedder.modelId, limit: 10 })).length, { timeout: 60_000 }).toBe(0);
      const scopes = [
        { scope: "project" as const, workdirHash: memory.workdirHash },
        { scope: "project" as const, workdirHash: report.workdirHash },
      ];
      const hits = await store.searchVectors({ scopes, modelId: embedder.modelId, vector: Float32Array.from([1, 0, 0, 0]), limit: 400 });
      expect(hits.length).toBe(300);
    } finally {
      child.kill("SIGKILL");
      await memory.close();
      await storage.close();
    }
  }, 180_000);
});
