import { expect, it } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import { type ContractContext, GLOBAL, fixture, keyOf, slugs } from "./memory-contract-fixtures.js";

/** Get, list (order, paging, types, daily, archived, scopes), the quota count and the daily invariant. */
export function describeMemoryIndexReadContract(context: ContractContext): void {
  const { target, withStore, put } = context;
  it("returns undefined for a missing key and round-trips every field", async () => {
    await withStore(async (store) => {
      const f = fixture();
      expect(await store.get(keyOf(f.record("missing")))).toBeUndefined();
      const record = f.record("full", {
        type: "feedback",
        description: "Quotes \" and ' and ✓ naïve",
        body: "Line one\nLine two — with “quotes” and 日本語",
        unreviewed: true,
        riskFlags: ["sudo", "eval"],
        source: { confidence: "medium", sourceQuote: "quote", reasoning: "why", autoDowngraded: true, conversationId: "conv-1" },
        links: { aliases: ["other-a", "other-b"], supersedes: "old-slug", conflictsWith: ["x-y-z"] },
        appendCount: 3,
        fileSize: 5_000_000_000,
        createdAt: 1_700_000_000_001,
        updatedAt: 1_700_000_000_999,
      });
      const daily = f.daily({ archived: true });
      await put(store, record, daily);
      expect(await store.get(keyOf(record))).toEqual(record);
      expect(await store.get(keyOf(daily))).toEqual(daily);
      // A copy: changing what came back changes nothing stored.
      const loaded = (await store.get(keyOf(record))) as { description: string };
      loaded.description = "changed";
      expect((await store.get(keyOf(record)))?.description).toBe(record.description);
      // The same slug in another scope is another record.
      expect(await store.get({ ...keyOf(record), scope: "global", workdirHash: "" })).toBeUndefined();
    });
  });

  it("refuses a daily record outside the global scope and writes nothing", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const fine = f.record("fine");
      const bad = f.record("bad-daily", { type: "daily", dateLocal: "2026-01-01" });
      await expect(
        store.applyBatch(
          [
            { kind: "upsert", record: fine },
            { kind: "upsert", record: bad },
          ],
          [],
        ),
      ).rejects.toThrow(/daily/i);
      const noDate = f.daily({ dateLocal: undefined });
      await expect(store.applyBatch([{ kind: "upsert", record: noDate }], [])).rejects.toThrow(/daily/i);
      expect(await store.get(keyOf(fine))).toBeUndefined();
      expect(await store.get(keyOf(noDate))).toBeUndefined();
    });
  });

  it("lists newest first, then by key, with offset, limit and total", async () => {
    await withStore(async (store) => {
      const f = fixture();
      await put(
        store,
        f.record("b", { updatedAt: 300 }),
        f.record("a", { updatedAt: 300 }),
        f.record("c", { updatedAt: 500 }),
        f.record("d", { updatedAt: 100 }),
        f.record("e", { updatedAt: 200 }),
      );
      const all = await store.list({ scopes: [f.project], offset: 0, limit: 10 });
      expect(all.total).toBe(5);
      expect(slugs(all.records)).toEqual(["c", "a", "b", "e", "d"].map((slug) => `${f.prefix}-${slug}`));
      const page = await store.list({ scopes: [f.project], offset: 1, limit: 2 });
      expect(page.total).toBe(5);
      expect(slugs(page.records)).toEqual([`${f.prefix}-a`, `${f.prefix}-b`]);
      const past = await store.list({ scopes: [f.project], offset: 9, limit: 2 });
      expect(past).toEqual({ records: [], total: 5 });
      const other = await store.list({ scopes: [{ scope: "project", workdirHash: fixture().project.workdirHash }], offset: 0, limit: 10 });
      expect(other).toEqual({ records: [], total: 0 });
    });
  });

  it("lists by type, with daily and archived rows only when asked, across global and one project", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const other = fixture();
      const user = f.record("user", { type: "user", updatedAt: 10 });
      const reference = f.record("ref", { type: "reference", updatedAt: 20 });
      const global = f.global("glob", { type: "feedback", updatedAt: 30 });
      const daily = f.daily({ updatedAt: 40 });
      const archived = f.global("archived", { type: "user", archived: true, updatedAt: 50 });
      const foreign = other.record("foreign", { updatedAt: 60 });
      await put(store, user, reference, global, daily, archived, foreign);
      const mine = (page: { records: readonly MemoryRecord[] }) =>
        slugs(page.records).filter((slug) => slug.startsWith(f.prefix) || slug === daily.slug || slug.startsWith(other.prefix));
      const scopes = [GLOBAL, f.project];
      expect(mine(await store.list({ scopes, offset: 0, limit: 1000 }))).toEqual([global.slug, reference.slug, user.slug]);
      expect(mine(await store.list({ scopes, offset: 0, limit: 1000, includeDaily: true }))).toEqual([daily.slug, global.slug, reference.slug, user.slug]);
      expect(mine(await store.list({ scopes, offset: 0, limit: 1000, includeDaily: true, includeArchived: true }))).toEqual([
        archived.slug,
        daily.slug,
        global.slug,
        reference.slug,
        user.slug,
      ]);
      expect(mine(await store.list({ scopes, offset: 0, limit: 1000, types: ["user"] }))).toEqual([user.slug]);
      expect(mine(await store.list({ scopes, offset: 0, limit: 1000, types: ["user"], includeArchived: true }))).toEqual([archived.slug, user.slug]);
      expect(mine(await store.list({ scopes, offset: 0, limit: 1000, types: ["daily"] }))).toEqual([daily.slug]);
      expect(mine(await store.list({ scopes: [f.project], offset: 0, limit: 1000, includeDaily: true }))).toEqual([reference.slug, user.slug]);
      const projectOnly = await store.list({ scopes: [f.project], offset: 0, limit: 1000, types: ["user", "reference"] });
      expect(projectOnly.total).toBe(2);
    });
  });

  it("counts non-daily, non-archived records of one scope", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const globalBefore = await store.countEntries(GLOBAL);
      await put(
        store,
        f.record("one"),
        f.record("two", { type: "user" }),
        f.record("three", { archived: true }),
        f.global("g-one"),
        f.global("g-archived", { archived: true }),
        f.daily(),
      );
      expect(await store.countEntries(f.project)).toBe(2);
      expect(await store.countEntries(fixture().project)).toBe(0);
      // Other tests may write global rows in between on a shared backend; ours add exactly one.
      if (target.sharedBackend !== true) expect(await store.countEntries(GLOBAL)).toBe(globalBefore + 1);
      else expect(await store.countEntries(GLOBAL)).toBeGreaterThanOrEqual(globalBefore + 1);
      await store.applyBatch([{ kind: "delete", key: keyOf(f.record("one")) }], []);
      expect(await store.countEntries(f.project)).toBe(1);
    });
  });
}
