import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { MemoryAuditEntry, MemoryKey, MemoryRecord } from "../domain/memory-types.js";
import type { MemoryIndexStore, MemoryScopeRef, MemoryTextQuery } from "../ports/memory-index-store.js";

/** How {@link runMemoryIndexStoreContract} reaches the store under test. */
export interface MemoryIndexStoreContractTarget {
  /**
   * Opens a store. Calls may return stores over one backend that earlier
   * tests wrote to: the suite gives every test its own project scope, slugs
   * and terms, and only reads the global scope through its own slugs.
   */
  open(): Promise<MemoryIndexStore>;
  /** Releases a store the suite opened; default `store.close?.()`. */
  dispose?(store: MemoryIndexStore): Promise<void>;
  /** True when stores from separate `open()` calls share one backend; enables the cross-instance tests. */
  sharedBackend?: boolean;
}

const GLOBAL: MemoryScopeRef = { scope: "global", workdirHash: "" };
const runId = randomBytes(3).toString("hex");
/** A random first day, so daily rows of separate runs over one backend rarely meet. */
const dayBase = Date.UTC(2001, 0, 1) + (Number.parseInt(runId, 16) % 20_000) * 86_400_000;
let counter = 0;

/** Fresh names for one test: a project scope, a slug prefix, a made-up word and a daily date. */
function fixture() {
  counter += 1;
  const project: MemoryScopeRef = { scope: "project", workdirHash: randomBytes(8).toString("hex") };
  const prefix = `c${runId}-${counter}`;
  const word = `zq${runId}x${counter}`.replace(/\d/g, (digit) => "abcdefghij"[Number(digit)] ?? "");
  const day = new Date(dayBase + counter * 86_400_000).toISOString().slice(0, 10);
  const record = (slug: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord => ({
    scope: project.scope,
    workdirHash: project.workdirHash,
    slug: `${prefix}-${slug}`,
    type: "project",
    description: `Description of ${slug}`,
    body: `Body of ${slug}.`,
    unreviewed: false,
    riskFlags: [],
    source: { confidence: "high", sourceQuote: "the user said so", reasoning: "stated" },
    links: {},
    appendCount: 0,
    archived: false,
    bodyHash: "a".repeat(64),
    fileMtimeMs: 1_700_000_000_123.5,
    fileSize: 42,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...overrides,
  });
  const daily = (overrides: Partial<MemoryRecord> = {}): MemoryRecord =>
    record("unused", { ...GLOBAL, slug: `daily-${day}`, type: "daily", dateLocal: day, appendCount: 2, ...overrides });
  const global = (slug: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord => record(slug, { ...GLOBAL, ...overrides });
  return { project, prefix, word, record, daily, global };
}

const keyOf = (record: MemoryKey): MemoryKey => ({ scope: record.scope, workdirHash: record.workdirHash, slug: record.slug });
const slugs = (records: readonly { readonly slug: string }[]) => records.map((record) => record.slug);

/**
 * The contract every {@link MemoryIndexStore} meets: get and list (order,
 * paging, filters, scopes), the quota count, search on the word and the
 * trigram index (diacritics, phrases, OR, CJK, BM25 order, filters), atomic
 * compare-and-set batches (also racing from two store instances), deletes,
 * file states, the audit log and organise runs.
 *
 * @example
 * runMemoryIndexStoreContract("in-memory", { open: async () => new InMemoryMemoryIndexStore() });
 */
export function runMemoryIndexStoreContract(label: string, target: MemoryIndexStoreContractTarget): void {
  describe(`MemoryIndexStore contract: ${label}`, () => {
    async function withStore(body: (store: MemoryIndexStore) => Promise<void>): Promise<void> {
      const store = await target.open();
      try {
        await body(store);
      } finally {
        await (target.dispose ? target.dispose(store) : store.close?.());
      }
    }
    async function put(store: MemoryIndexStore, ...records: MemoryRecord[]): Promise<void> {
      expect(
        await store.applyBatch(
          records.map((record) => ({ kind: "upsert" as const, record })),
          [],
        ),
      ).toEqual({ ok: true });
    }
    async function searchSlugs(store: MemoryIndexStore, query: Omit<MemoryTextQuery, "limit"> & { limit?: number }): Promise<string[]> {
      return slugs((await store.search({ limit: 32, ...query })).map((hit) => hit.record));
    }

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

    it("searches words: any term, phrases, diacritics, slug and description, limit and filters", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const theme = f.record("theme", { type: "user", description: "Display preferences", body: `The user prefers dark mode in every editor. ${f.word}` });
        const coffee = f.record("coffee", { type: "user", description: "Drinks", body: "Orders a Café crème every morning." });
        const reversed = f.record("reversed", { type: "reference", body: "Mode dark is not what they said; a dark room and a mode switch." });
        const naming = f.record("kubernetes-notes", { description: "Cluster tips", body: "Nothing about the name here." });
        const archived = f.record("archived-coffee", { body: "cafe archived", archived: true });
        await put(store, theme, coffee, reversed, naming, archived);
        const scopes = [f.project];
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["cafe"] })).toEqual([coffee.slug]);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["CAFÉ"] })).toEqual([coffee.slug]);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["cafe"], includeArchived: true })).toHaveLength(2);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ['"dark mode"'] })).toEqual([theme.slug]);
        expect((await searchSlugs(store, { scopes, index: "words", terms: ["dark", "mode"] })).sort()).toEqual([reversed.slug, theme.slug].sort());
        expect((await searchSlugs(store, { scopes, index: "words", terms: ["creme", f.word] })).sort()).toEqual([coffee.slug, theme.slug].sort());
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["kubernetes"] })).toEqual([naming.slug]);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["cluster"] })).toEqual([naming.slug]);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["dark", "mode"], limit: 1 })).toHaveLength(1);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["dark"], types: ["reference"] })).toEqual([reversed.slug]);
        expect(await searchSlugs(store, { scopes: [GLOBAL, fixture().project], index: "words", terms: [f.word] })).toEqual([]);
        expect(await searchSlugs(store, { scopes, index: "words", terms: ["absentword"] })).toEqual([]);
        expect(await searchSlugs(store, { scopes, index: "words", terms: [] })).toEqual([]);
        const [hit] = await store.search({ scopes, index: "words", terms: [f.word], limit: 8 });
        expect(hit?.record).toEqual(theme);
        expect(Number.isFinite(hit?.bm25)).toBe(true);
      });
    });

    it("searches substrings on the trigram index, with diacritics folded and filters applied", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const windows = f.record("windows", { body: "Builds on Windows with PowerShell." });
        const cafe = f.record("cafe", { body: "Le Café de Flore" });
        const global = f.global("global-windows", { body: `Windowsill plants ${f.word}` });
        await put(store, windows, cafe, global);
        const scopes = [f.project];
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["indow"] })).toEqual([windows.slug]);
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["power"] })).toEqual([windows.slug]);
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["cafe de"] })).toEqual([cafe.slug]);
        expect((await searchSlugs(store, { scopes, index: "trigram", terms: ["flore", "shell"] })).sort()).toEqual([cafe.slug, windows.slug].sort());
        expect(
          (await searchSlugs(store, { scopes: [GLOBAL, f.project], index: "trigram", terms: ["windows"] })).filter((slug) => slug.startsWith(f.prefix)).sort(),
        ).toEqual([global.slug, windows.slug].sort());
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["windows"], types: ["user"] })).toEqual([]);
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["zzzzq"] })).toEqual([]);
      });
    });

    it("finds Chinese and Japanese text by two- and three-character queries on the trigram index", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const chinese = f.record("chinese", { body: "用户喜欢使用深色模式来保护眼睛" });
        const japanese = f.record("japanese", { body: "ユーザーはダークモードを使っています" });
        const english = f.record("english", { body: "Plain English text." });
        await put(store, chinese, japanese, english);
        const scopes = [f.project];
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["深色"] })).toEqual([chinese.slug]);
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["深色模式"] })).toEqual([chinese.slug]);
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["使っ"] })).toEqual([japanese.slug]);
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["モード"] })).toEqual([japanese.slug]);
        expect((await searchSlugs(store, { scopes, index: "trigram", terms: ["眼睛", "モード"] })).sort()).toEqual([chinese.slug, japanese.slug].sort());
        expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["日本"] })).toEqual([]);
      });
    });

    it("ranks by BM25: more occurrences of a rare term come first, with a lower bm25", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const padding = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
        const once = f.record("once", { body: `${f.word} ${padding} lambda mu nu`, updatedAt: 900 });
        const thrice = f.record("thrice", { body: `${f.word} ${padding} ${f.word} ${f.word}`, updatedAt: 100 });
        const none = f.record("none", { body: padding });
        await put(store, once, thrice, none);
        for (const index of ["words", "trigram"] as const) {
          const hits = await store.search({ scopes: [f.project], index, terms: [f.word], limit: 8 });
          expect(slugs(hits.map((hit) => hit.record)), index).toEqual([thrice.slug, once.slug]);
          expect(hits[0]!.bm25, index).toBeLessThan(hits[1]!.bm25);
        }
      });
    });

    it("applies a batch atomically: one conflict writes nothing to meta, text indexes or audit", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const existing = f.record("existing", { body: "original text", updatedAt: 100 });
        await put(store, existing);
        const fresh = f.record("fresh", { body: `brand new ${f.word}` });
        const changed = { ...existing, body: `changed ${f.word}`, updatedAt: 200 };
        const removed = f.record("removed", { updatedAt: 5 });
        await put(store, removed);
        const audit: MemoryAuditEntry = { at: 1, op: "batch", actor: "extractor", ...keyOf(fresh), detail: { size: 3 } };
        const result = await store.applyBatch(
          [
            { kind: "upsert", record: fresh },
            { kind: "delete", key: keyOf(removed) },
            { kind: "upsert", record: changed, expectedUpdatedAt: 99 },
          ],
          [audit],
        );
        expect(result).toEqual({ ok: false, conflicts: [{ key: keyOf(existing), actualUpdatedAt: 100 }] });
        expect(await store.get(keyOf(fresh))).toBeUndefined();
        expect(await store.get(keyOf(existing))).toEqual(existing);
        expect(await store.get(keyOf(removed))).toEqual(removed);
        for (const index of ["words", "trigram"] as const) {
          expect(await searchSlugs(store, { scopes: [f.project], index, terms: [f.word] }), index).toEqual([]);
          expect(await searchSlugs(store, { scopes: [f.project], index, terms: ["original"] }), index).toEqual([existing.slug]);
        }
        expect(await store.audit({ slug: fresh.slug })).toEqual([]);
        // The same batch with the right expectation goes through, audit included.
        const retried = await store.applyBatch(
          [
            { kind: "upsert", record: fresh },
            { kind: "delete", key: keyOf(removed) },
            { kind: "upsert", record: changed, expectedUpdatedAt: 100 },
          ],
          [audit],
        );
        expect(retried).toEqual({ ok: true });
        expect(await store.get(keyOf(changed))).toEqual(changed);
        expect(await store.get(keyOf(removed))).toBeUndefined();
        expect((await searchSlugs(store, { scopes: [f.project], index: "words", terms: [f.word] })).sort()).toEqual([changed.slug, fresh.slug].sort());
        expect(await store.audit({ slug: fresh.slug })).toEqual([audit]);
      });
    });

    it("compares and sets: null means must not exist, a number must match updatedAt", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const first = f.record("cas", { updatedAt: 10 });
        const key = keyOf(first);
        expect(await store.applyBatch([{ kind: "upsert", record: first, expectedUpdatedAt: null }], [])).toEqual({ ok: true });
        expect(await store.applyBatch([{ kind: "upsert", record: { ...first, updatedAt: 11 }, expectedUpdatedAt: null }], [])).toEqual({
          ok: false,
          conflicts: [{ key, actualUpdatedAt: 10 }],
        });
        expect(await store.applyBatch([{ kind: "upsert", record: { ...first, updatedAt: 12 }, expectedUpdatedAt: 9 }], [])).toEqual({
          ok: false,
          conflicts: [{ key, actualUpdatedAt: 10 }],
        });
        expect(await store.applyBatch([{ kind: "upsert", record: { ...first, body: "second", updatedAt: 20 }, expectedUpdatedAt: 10 }], [])).toEqual({
          ok: true,
        });
        expect((await store.get(key))?.body).toBe("second");
        expect(await store.applyBatch([{ kind: "delete", key, expectedUpdatedAt: 10 }], [])).toEqual({ ok: false, conflicts: [{ key, actualUpdatedAt: 20 }] });
        expect(await store.get(key)).toBeDefined();
        expect(await store.applyBatch([{ kind: "delete", key, expectedUpdatedAt: 20 }], [])).toEqual({ ok: true });
        expect(await store.get(key)).toBeUndefined();
        expect(await store.applyBatch([{ kind: "delete", key, expectedUpdatedAt: 20 }], [])).toEqual({
          ok: false,
          conflicts: [{ key, actualUpdatedAt: null }],
        });
        const missing = f.record("never");
        expect(await store.applyBatch([{ kind: "upsert", record: missing, expectedUpdatedAt: 5 }], [])).toEqual({
          ok: false,
          conflicts: [{ key: keyOf(missing), actualUpdatedAt: null }],
        });
        // Deleting what is not there without an expectation is fine; an unconditional upsert overwrites.
        expect(await store.applyBatch([{ kind: "delete", key: keyOf(missing) }], [])).toEqual({ ok: true });
        expect(await store.applyBatch([{ kind: "upsert", record: { ...first, updatedAt: 30 }, expectedUpdatedAt: null }], [])).toEqual({ ok: true });
        expect(await store.applyBatch([{ kind: "upsert", record: { ...first, body: "forced", updatedAt: 40 } }], [])).toEqual({ ok: true });
        expect((await store.get(key))?.body).toBe("forced");
      });
    });

    async function race(stores: readonly [MemoryIndexStore, MemoryIndexStore]): Promise<void> {
      const f = fixture();
      const base = f.record("race", { body: "base", updatedAt: 1 });
      const outcomes = await Promise.all(
        stores.map((store, index) =>
          store.applyBatch(
            [{ kind: "upsert", record: { ...base, body: `writer ${index} ${f.word}`, updatedAt: 10 + index }, expectedUpdatedAt: null }],
            [{ at: 1, op: "write", actor: "tool", ...keyOf(base), detail: { writer: index } }],
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      const winner = outcomes.findIndex((outcome) => outcome.ok);
      expect(outcomes[1 - winner]).toEqual({ ok: false, conflicts: [{ key: keyOf(base), actualUpdatedAt: 10 + winner }] });
      expect((await stores[0].get(keyOf(base)))?.body).toBe(`writer ${winner} ${f.word}`);
      expect((await stores[1].audit({ slug: base.slug })).map((entry) => entry.detail)).toEqual([{ writer: winner }]);
      // Now both update from the winner's updatedAt: again exactly one wins.
      const updates = await Promise.all(
        stores.map((store, index) =>
          store.applyBatch([{ kind: "upsert", record: { ...base, body: `update ${index}`, updatedAt: 100 + index }, expectedUpdatedAt: 10 + winner }], []),
        ),
      );
      expect(updates.filter((outcome) => outcome.ok)).toHaveLength(1);
      const second = updates.findIndex((outcome) => outcome.ok);
      expect((await stores[1].get(keyOf(base)))?.body).toBe(`update ${second}`);
      expect(await searchSlugs(stores[0], { scopes: [f.project], index: "words", terms: [f.word] })).toEqual([]);
      expect(await searchSlugs(stores[0], { scopes: [f.project], index: "words", terms: ["update"] })).toEqual([base.slug]);
    }

    it("lets exactly one of two racing batches on one store win", async () => {
      await withStore(async (store) => race([store, store]));
    });

    it.runIf(target.sharedBackend === true)("lets exactly one of two racing batches from two store instances over one backend win", async () => {
      await withStore(async (first) => withStore(async (second) => race([first, second])));
    });

    it("removes a deleted record from get, list and both text indexes", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const gone = f.record("gone", { body: `temporary ${f.word}` });
        const kept = f.record("kept", { body: `permanent ${f.word}` });
        await put(store, gone, kept);
        expect(await store.applyBatch([{ kind: "delete", key: keyOf(gone) }], [])).toEqual({ ok: true });
        expect(await store.get(keyOf(gone))).toBeUndefined();
        expect(slugs((await store.list({ scopes: [f.project], offset: 0, limit: 10 })).records)).toEqual([kept.slug]);
        for (const index of ["words", "trigram"] as const) {
          expect(await searchSlugs(store, { scopes: [f.project], index, terms: [f.word] }), index).toEqual([kept.slug]);
          expect(await searchSlugs(store, { scopes: [f.project], index, terms: ["temporary"] }), index).toEqual([]);
        }
        // Re-creating it indexes the new text only.
        await put(store, { ...gone, body: "reborn" });
        expect(await searchSlugs(store, { scopes: [f.project], index: "words", terms: ["reborn"] })).toEqual([gone.slug]);
        expect(await searchSlugs(store, { scopes: [f.project], index: "trigram", terms: ["temporary"] })).toEqual([]);
      });
    });

    it("reports every record's file state", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const one = f.record("one", { bodyHash: "b".repeat(64), fileMtimeMs: 1_700_000_000_456.25, fileSize: 7 });
        const daily = f.daily({ bodyHash: "c".repeat(64), fileSize: 9 });
        await put(store, one, daily);
        const states = await store.fileStates();
        expect(states).toContainEqual({ ...keyOf(one), bodyHash: one.bodyHash, fileMtimeMs: one.fileMtimeMs, fileSize: 7 });
        expect(states).toContainEqual({ ...keyOf(daily), bodyHash: daily.bodyHash, fileMtimeMs: daily.fileMtimeMs, fileSize: 9 });
        await store.applyBatch([{ kind: "delete", key: keyOf(one) }], []);
        expect((await store.fileStates()).some((state) => state.slug === one.slug)).toBe(false);
      });
    });

    it("returns audit entries newest first, filtered by slug and limited", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const future = Date.now() + 10 ** 12 + counter * 1000;
        const entry = (slug: string, at: number, op: MemoryAuditEntry["op"]): MemoryAuditEntry => ({
          at,
          op,
          actor: "tool",
          scope: "project",
          workdirHash: f.project.workdirHash,
          slug: `${f.prefix}-${slug}`,
        });
        const entries = [entry("a", future + 1, "write"), entry("b", future + 2, "write"), entry("a", future + 3, "update"), entry("a", future + 3, "accept")];
        expect(await store.applyBatch([], entries.slice(0, 2))).toEqual({ ok: true });
        expect(await store.applyBatch([], [{ ...entries[2]!, detail: { mode: "merge", nested: { list: [1, 2] } } }, entries[3]!])).toEqual({ ok: true });
        const forA = await store.audit({ slug: `${f.prefix}-a` });
        expect(forA.map((item) => item.op)).toEqual(["accept", "update", "write"]);
        expect(forA[1]?.detail).toEqual({ mode: "merge", nested: { list: [1, 2] } });
        expect(forA[0]).toEqual(entries[3]);
        expect((await store.audit({ slug: `${f.prefix}-a`, limit: 1 })).map((item) => item.op)).toEqual(["accept"]);
        expect((await store.audit({ limit: 4 })).map((item) => [item.slug, item.op])).toEqual([
          [`${f.prefix}-a`, "accept"],
          [`${f.prefix}-a`, "update"],
          [`${f.prefix}-b`, "write"],
          [`${f.prefix}-a`, "write"],
        ]);
      });
    });

    it("upserts organise runs by id and returns them newest first", async () => {
      await withStore(async (store) => {
        const f = fixture();
        const future = Date.now() + 2 * 10 ** 12 + counter * 1000;
        await store.saveOrganizeRun({ id: `${f.prefix}-1`, startedAt: future + 1, status: "running", applied: 0, rejected: 0 });
        await store.saveOrganizeRun({
          id: `${f.prefix}-2`,
          startedAt: future + 2,
          finishedAt: future + 5,
          status: "noop",
          applied: 0,
          rejected: 1,
          note: "nothing",
        });
        await store.saveOrganizeRun({
          id: `${f.prefix}-1`,
          startedAt: future + 1,
          finishedAt: future + 9,
          status: "updated",
          applied: 3,
          rejected: 2,
          note: "done",
          conversationId: "conv-9",
        });
        const runs = await store.organizeRuns(2);
        expect(runs).toEqual([
          { id: `${f.prefix}-2`, startedAt: future + 2, finishedAt: future + 5, status: "noop", applied: 0, rejected: 1, note: "nothing" },
          {
            id: `${f.prefix}-1`,
            startedAt: future + 1,
            finishedAt: future + 9,
            status: "updated",
            applied: 3,
            rejected: 2,
            note: "done",
            conversationId: "conv-9",
          },
        ]);
        expect(await store.organizeRuns(1)).toHaveLength(1);
      });
    });

    it.runIf(target.sharedBackend === true)("closing one store leaves another over the same backend working", async () => {
      const f = fixture();
      const record = f.record("survivor");
      await withStore(async (second) => {
        const first = await target.open();
        await put(first, record);
        await (target.dispose ? target.dispose(first) : first.close?.());
        expect(await second.get(keyOf(record))).toEqual(record);
        await put(second, { ...record, body: "after close", updatedAt: 2 });
      });
      await withStore(async (third) => {
        expect((await third.get(keyOf(record)))?.body).toBe("after close");
      });
    });
  });
}
