import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { openMemoryService } from "./memory-service.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** Counts index batches; reports a conflict for the first batch of more than one change when asked. */
class CountingStore extends InMemoryMemoryIndexStore {
  readonly batchSizes: number[] = [];
  conflictOnce = false;
  override async applyBatch(...args: Parameters<MemoryIndexStore["applyBatch"]>): ReturnType<MemoryIndexStore["applyBatch"]> {
    this.batchSizes.push(args[0].length);
    if (this.conflictOnce && args[0].length > 1) {
      this.conflictOnce = false;
      const first = args[0][0]!;
      return { ok: false, conflicts: [{ key: first.kind === "upsert" ? first.record : first.key, actualUpdatedAt: 1 }] };
    }
    return super.applyBatch(...args);
  }
}

async function writeFiles(count: number) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-reconcile-")));
  roots.push(root);
  fs.mkdirSync(path.join(root, "project"));
  const dirs = { dataDir: path.join(root, "data"), workdir: path.join(root, "project") };
  const memory = await openMemoryService({ ...dirs, store: new InMemoryMemoryIndexStore() });
  for (let index = 0; index < count; index += 1) {
    const result = await memory.write({ slug: `entry-${index}`, scope: "global", type: "reference", description: `Entry ${index}`, body: `body ${index}` });
    expect(result.ok).toBe(true);
  }
  await memory.close();
  return dirs;
}

describe("reconcile on open", () => {
  it("indexes every file of a full reindex in batches of at most 200, one batch per 200 files", async () => {
    const dirs = await writeFiles(450);
    const store = new CountingStore();
    const memory = await openMemoryService({ ...dirs, store });
    expect(store.batchSizes).toEqual([200, 200, 50]);
    expect((await memory.list({ scope: "global", limit: 1 })).total).toBe(450);
    await memory.close();
  }, 60_000);

  it("applies a conflicting batch's changes one by one, so the others still land", async () => {
    const dirs = await writeFiles(5);
    const store = new CountingStore();
    store.conflictOnce = true;
    const memory = await openMemoryService({ ...dirs, store });
    expect(store.batchSizes).toEqual([5, 1, 1, 1, 1, 1]);
    expect((await memory.list({ scope: "global", limit: 1 })).total).toBe(5);
    await memory.close();
  });
});
