import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import { conceptEmbedder } from "./__fixtures__/concept-embedder.js";
import { MEMORY_EMBEDDING_TEXT_MAX_CHARS } from "./memory-embedding-text.js";
import { openMemoryService } from "./memory-service.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function directories() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-embedding-scopes-")));
  roots.push(root);
  fs.mkdirSync(path.join(root, "project"));
  fs.mkdirSync(path.join(root, "other-project"));
  return { dataDir: path.join(root, "data"), workdir: path.join(root, "project"), other: path.join(root, "other-project") };
}

const entry = (slug: string, description: string, body: string, scope = "global") => ({ slug, scope, type: "reference", description, body });

describe("MemoryService with an embedder: what each service embeds", () => {
  it("keeps the vectors of a running service when a service with another embedder opens on its store; a search reads no backlog", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const first = conceptEmbedder({ modelId: "test:concepts@first" });
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder: first });
    try {
      expect((await memory.write(entry("family-pet", "Family pet", "Rex the hound."))).ok).toBe(true);
      await memory.embeddingsSettled();
      const second = conceptEmbedder({ modelId: "test:concepts@second" });
      const other = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.other, store, embedder: second });
      try {
        await other.embeddingsSettled();
        // Both models' vectors coexist: each service finds the entry by meaning with its own.
        expect(await store.vectorBacklog({ modelId: first.modelId, limit: 10 })).toEqual([]);
        expect(await store.vectorBacklog({ modelId: second.modelId, limit: 10 })).toEqual([]);
        expect((await memory.search({ query: "puppy" })).hits[0]).toMatchObject({ record: { slug: "family-pet" }, matchedBy: "vector" });
        expect((await other.search({ query: "puppy" })).hits[0]).toMatchObject({ record: { slug: "family-pet" }, matchedBy: "vector" });
      } finally {
        await other.close();
      }
      expect((await memory.search({ query: "puppy" })).hits[0]).toMatchObject({ record: { slug: "family-pet" }, matchedBy: "vector" });

      // Searches that find no vector (a scope with no entries, a query of no concept) never read the backlog.
      const backlogReads = vi.spyOn(store, "vectorBacklog");
      for (let round = 0; round < 20; round += 1) {
        const empty = await memory.search({ query: "puppy", scope: "project" });
        expect(empty).toMatchObject({ hits: [] });
        expect(empty.indexes).toContain("vector");
      }
      await memory.embeddingsSettled();
      expect(backlogReads).not.toHaveBeenCalled();
      backlogReads.mockRestore();
    } finally {
      await memory.close();
    }
  });

  it("embeds only the scopes it searches: global and its project, never another project's entries", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const projectB = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.other, store });
    try {
      expect((await projectB.write(entry("b-secret", "B secret", "The hound of project B.", "project"))).ok).toBe(true);
      expect((await projectB.write(entry("shared-trip", "Shared trip", "The airline lost the bag.", "global"))).ok).toBe(true);
    } finally {
      await projectB.close();
    }
    const embedder = conceptEmbedder();
    const projectA = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store, embedder });
    try {
      expect((await projectA.write(entry("a-pet", "A pet", "Rex the terrier.", "project"))).ok).toBe(true);
      await projectA.embeddingsSettled();
      const sent = embedder.calls.flat();
      expect(sent).toContain("Shared trip\nThe airline lost the bag.");
      expect(sent).toContain("A pet\nRex the terrier.");
      expect(sent.some((text) => text.includes("project B"))).toBe(false);
      expect(projectA.embeddingStatus()).toMatchObject({ embedded: 2, backlogPending: false });
      // B's entry stays in the model's backlog of B's scope, for a service of project B with this embedder.
      const other = [{ scope: "project" as const, workdirHash: projectB.workdirHash }];
      const backlogOfB = await store.vectorBacklog({ modelId: embedder.modelId, scopes: other, limit: 10 });
      expect(backlogOfB.map((record) => record.slug)).toEqual(["b-secret"]);
    } finally {
      await projectA.close();
    }
  });

  it("embeds a daily journal longer than the cap by its description and its newest appends", async () => {
    const dirs = directories();
    const embedder = conceptEmbedder();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.workdir, store: new InMemoryMemoryIndexStore(), embedder, timeZone: "UTC" });
    try {
      // About 12,000 characters of notes without a concept word, then the newest append, past the first 8,192.
      for (let line = 0; line < 12; line += 1) expect((await memory.appendDaily(`Note ${line}: ${"nothing notable today ".repeat(45)}`)).ok).toBe(true);
      expect((await memory.appendDaily("Walked the canine along the river.")).ok).toBe(true);
      await memory.embeddingsSettled();
      const last = embedder.calls.at(-1)?.at(-1) ?? "";
      expect(last.length).toBeLessThanOrEqual(MEMORY_EMBEDDING_TEXT_MAX_CHARS);
      expect(last.trimEnd().endsWith("Walked the canine along the river.")).toBe(true);
      const [daily] = (await memory.list({ includeDaily: true, filterType: "daily" })).items;
      expect(daily?.record.body.length).toBeGreaterThan(MEMORY_EMBEDDING_TEXT_MAX_CHARS);
      expect(last.startsWith(`${daily?.record.description}\n`)).toBe(true);
      // The newest append is found by meaning.
      const found = await memory.search({ query: "puppy", includeDaily: true });
      expect(found.hits[0]).toMatchObject({ record: { type: "daily" }, matchedBy: "vector" });
    } finally {
      await memory.close();
    }
  });
});
