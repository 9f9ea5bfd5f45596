import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";
import { KyselyMemoryIndexStore } from "../stores/kysely-memory-index-store.js";
import { sha256Hex } from "./memory-files.js";
import { openMemoryService } from "./memory-service.js";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-concurrency-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("two services on one dataDir and one SQLite file", () => {
  it("lose none of 50 parallel appends to one entry, and agree on one winner of racing writes", async () => {
    const dataDir = path.join(root, "data");
    const workdir = path.join(root, "project");
    fs.mkdirSync(workdir, { recursive: true });
    const filename = path.join(root, "index.sqlite");
    // Two storages: two connections to the file, as two registries or processes would have.
    const storages = [await openSqliteStorage({ filename }), await openSqliteStorage({ filename })];
    try {
      const [first, second] = await Promise.all(
        storages.map(async (storage) => openMemoryService({ dataDir, workdir, store: await KyselyMemoryIndexStore.open(storage) })),
      );
      const created = await first!.write({ slug: "shared-log", scope: "global", type: "reference", description: "Shared log", body: "start" });
      expect(created.ok).toBe(true);
      const appends = Array.from({ length: 50 }, (_, index) =>
        (index % 2 === 0 ? first! : second!).update({ slug: "shared-log", scope: "global", body: `line ${index}`, mode: "append" }),
      );
      const results = await Promise.all(appends);
      expect(results.filter((result) => !result.ok)).toEqual([]);
      const file = fs.readFileSync(path.join(dataDir, "memory", "global", "shared-log.md"), "utf8");
      const lines = file.slice(file.indexOf("\n---\n") + 5).split("\n");
      expect(lines[0]).toBe("start");
      expect(lines.slice(1).sort()).toEqual(Array.from({ length: 50 }, (_, index) => `line ${index}`).sort());
      for (const service of [first!, second!]) {
        const record = await service.store.get({ scope: "global", workdirHash: "", slug: "shared-log" });
        expect(record?.bodyHash).toBe(sha256Hex(file));
        expect(record?.body.split("\n")).toHaveLength(51);
      }

      // Racing overwrites: each reported success was on disk and in the index in turn; the last one stays in both.
      const writes = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? first! : second!).write({
            slug: "raced-entry",
            scope: "global",
            type: "reference",
            description: `Writer ${index}`,
            body: `body ${index}`,
          }),
        ),
      );
      expect(writes.every((result) => result.ok)).toBe(true);
      const final = fs.readFileSync(path.join(dataDir, "memory", "global", "raced-entry.md"), "utf8");
      const indexed = await second!.store.get({ scope: "global", workdirHash: "", slug: "raced-entry" });
      expect(indexed?.bodyHash).toBe(sha256Hex(final));
      expect(final.endsWith(indexed!.body)).toBe(true);
      const audit = await first!.store.audit({ slug: "raced-entry" });
      expect(audit.filter((entry) => entry.op === "write")).toHaveLength(10);

      // Racing deletes: one wins, the other is told the entry is gone.
      const deletes = await Promise.all([first!.delete({ slug: "raced-entry", scope: "global" }), second!.delete({ slug: "raced-entry", scope: "global" })]);
      expect(deletes.map((result) => result.ok).sort()).toEqual([false, true]);
      expect(deletes.find((result) => !result.ok)).toMatchObject({ error: { error: "not_found" } });
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  }, 60_000);
});
