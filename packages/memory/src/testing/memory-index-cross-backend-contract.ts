/**
 * The cross-backend part of the memory index contract: one corpus written
 * to every backend, the same queries, the same top three (ties aside) and
 * BM25 values that agree. Each test opens fresh, empty stores, since BM25
 * counts rows and lengths over the whole index.
 */
import { describe, expect, it } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import type { MemoryIndexStore, MemoryIndexChange, MemoryTextHit, MemoryTextQuery } from "../ports/memory-index-store.js";
import { GLOBAL, fixture } from "./memory-contract-fixtures.js";

/** A fresh, empty store of one backend and how to release it. */
export interface MemoryIndexBackendTarget {
  /** Opens a store over an empty index. */
  open(): Promise<MemoryIndexStore>;
  /** Releases the store; default `store.close?.()`. */
  dispose?(store: MemoryIndexStore): Promise<void>;
}

/**
 * How far two backends' `bm25` values of one hit may be apart: relative
 * 1e-6 (the backends compute the same formula in double precision, so in
 * practice they differ in the last bits only).
 */
export const CROSS_BACKEND_BM25_TOLERANCE = 1e-6;

type Hit = { readonly slug: string; readonly bm25: number };

/** The first three hits and any further hit tied with the third (a tie may be cut anywhere). */
function topThree(hits: readonly Hit[]): Hit[] {
  const third = hits[2];
  return third === undefined ? [...hits] : hits.filter((hit, index) => index < 3 || close(hit.bm25, third.bm25));
}

/** Slugs best first, where neighbours whose scores tie (within the tolerance) are put in slug order. */
function tieNormalised(hits: readonly Hit[]): string[] {
  const groups: Hit[][] = [];
  for (const hit of hits) {
    const last = groups[groups.length - 1];
    const previous = last?.[last.length - 1];
    if (last !== undefined && previous !== undefined && close(previous.bm25, hit.bm25)) last.push(hit);
    else groups.push([hit]);
  }
  return groups.flatMap((group) => group.map((hit) => hit.slug).sort());
}

function close(left: number, right: number): boolean {
  return Math.abs(left - right) <= CROSS_BACKEND_BM25_TOLERANCE * Math.max(1, Math.abs(left), Math.abs(right));
}

/** The corpus: one project with entries of different lengths and term counts, and global entries that share its words. */
function corpus() {
  const f = fixture();
  const records: MemoryRecord[] = [
    f.record("editor-theme", { description: "Editor theme", body: "The user prefers dark mode in the editor. Dark mode everywhere, dark terminal too." }),
    f.record("terminal", { description: "Terminal setup", body: "Uses a dark terminal with a light prompt; the shell is zsh with few plugins." }),
    f.record("lighting", { description: "Office", body: "A dark room with one light; prefers to work late at night when it is quiet." }),
    f.record("coffee", { type: "user", description: "Drinks", body: "Orders a flat white every morning, never after noon. Coffee beans from the market." }),
    f.record("deploy", {
      type: "reference",
      description: "Deploying the service",
      body: "Deploy with the release script; the script tags the build, pushes the image and restarts the service. Rollback uses the previous tag.",
    }),
    f.record("database", {
      description: "Database choice",
      body: "PostgreSQL in production, SQLite in tests and on laptops. Migrations run on start. The database is backed up every night.",
    }),
    f.record("mode-switch", { description: "Mode switch", body: "A keyboard shortcut toggles the mode: light mode by day, dark mode by night." }),
    f.record("long-notes", {
      description: "Long notes about many things",
      body: `${"Meeting notes about planning, budgets, hiring and the roadmap for the next quarter. ".repeat(6)}Someone mentioned dark mode once.`,
    }),
    f.record("review", {
      type: "feedback",
      description: "Code review",
      body: "Wants small pull requests, one change each, with tests; reviews in the morning.",
    }),
    f.record("release", { description: "Release cadence", body: "Releases every two weeks on a Tuesday; the release script writes the changelog." }),
  ];
  const globals: MemoryRecord[] = [
    f.global("g-dark", { description: "Global note", body: "Dark chocolate and dark coffee; nothing about editors." }),
    f.global("g-script", { description: "Scripts", body: "Every script lives in the tools folder; a script has a test." }),
    f.global("g-morning", { description: "Mornings", body: "Morning walks, then coffee, then work." }),
  ];
  return { f, records, globals };
}

const WORD_QUERIES: readonly (readonly string[])[] = [
  ["dark"],
  ["dark", "mode"],
  ['"dark mode"'],
  ["light", "terminal"],
  ["script", "release"],
  ["morning", "coffee"],
  ["database", "night", "tests"],
  ["editor", "theme", "dark"],
];
const TRIGRAM_QUERIES: readonly (readonly string[])[] = [["dark"], ["script"], ["mornin", "coffe"], ["releas", "tag"]];

/**
 * Runs the cross-backend check: the same corpus and queries on every named
 * backend give the same top three (within exact ties) and `bm25` values
 * within {@link CROSS_BACKEND_BM25_TOLERANCE} of the first backend's, for
 * word queries, also after entries are replaced and deleted (the backends
 * keep their statistics in step). Trigram queries and phrases are compared
 * on scopes that hold every row: there PostgreSQL's estimate of their
 * document counts from the asked scopes is exact.
 *
 * @example
 * runMemoryIndexCrossBackendContract({ "in-memory": { open: async () => new InMemoryMemoryIndexStore() }, sqlite: { open: openSqlite } });
 */
export function runMemoryIndexCrossBackendContract(targets: Readonly<Record<string, MemoryIndexBackendTarget>>): void {
  const names = Object.keys(targets);
  describe(`MemoryIndexStore contract across backends: ${names.join(", ")}`, () => {
    async function withStores(body: (stores: readonly { name: string; store: MemoryIndexStore }[]) => Promise<void>): Promise<void> {
      const opened: { name: string; store: MemoryIndexStore; target: MemoryIndexBackendTarget }[] = [];
      try {
        for (const name of names) {
          const target = targets[name] as MemoryIndexBackendTarget;
          opened.push({ name, store: await target.open(), target });
        }
        await body(opened);
      } finally {
        for (const { store, target } of opened) await (target.dispose ? target.dispose(store) : store.close?.());
      }
    }

    async function apply(stores: readonly { store: MemoryIndexStore }[], changes: readonly MemoryIndexChange[]): Promise<void> {
      for (const { store } of stores) expect(await store.applyBatch(changes, [])).toEqual({ ok: true });
    }

    async function expectSameRanking(stores: readonly { name: string; store: MemoryIndexStore }[], query: Omit<MemoryTextQuery, "limit">): Promise<void> {
      const results = await Promise.all(
        stores.map(async ({ name, store }) => ({
          name,
          hits: topThree((await store.search({ ...query, limit: 12 })).map((hit: MemoryTextHit) => ({ slug: hit.record.slug, bm25: hit.bm25 }))),
        })),
      );
      const [reference, ...others] = results;
      if (reference === undefined) return;
      expect(reference.hits.length, `${reference.name} finds something for ${query.terms.join(" ")}`).toBeGreaterThan(0);
      for (const other of others) {
        const label = `${other.name} against ${reference.name}, ${query.index} ${JSON.stringify(query.terms)}`;
        expect(tieNormalised(other.hits), `${label}: ${JSON.stringify(other.hits)} vs ${JSON.stringify(reference.hits)}`).toEqual(
          tieNormalised(reference.hits),
        );
        const referenceScores = new Map(reference.hits.map((hit) => [hit.slug, hit.bm25]));
        for (const hit of other.hits) {
          const expected = referenceScores.get(hit.slug) as number;
          expect(close(hit.bm25, expected), `${label}: ${hit.slug} bm25 ${hit.bm25} vs ${expected}`).toBe(true);
        }
      }
    }

    it("ranks word queries alike and scores them alike, also after replacing and deleting entries", async () => {
      await withStores(async (stores) => {
        const { f, records, globals } = corpus();
        await apply(
          stores,
          [...records, ...globals].map((record) => ({ kind: "upsert", record })),
        );
        const scopes = [GLOBAL, f.project];
        for (const terms of WORD_QUERIES) await expectSameRanking(stores, { scopes, index: "words", terms });
        // One scope of two: word document counts are the whole table's everywhere (PostgreSQL estimates a phrase's from the asked scopes, so no phrase here).
        for (const terms of WORD_QUERIES.filter((query) => !query.some((term) => term.startsWith('"')))) {
          await expectSameRanking(stores, { scopes: [f.project], index: "words", terms });
        }

        const [theme, terminal, , , , , modeSwitch] = records as [
          MemoryRecord,
          MemoryRecord,
          MemoryRecord,
          MemoryRecord,
          MemoryRecord,
          MemoryRecord,
          MemoryRecord,
        ];
        await apply(stores, [
          { kind: "upsert", record: { ...theme, body: "Dark mode. Only dark mode.", updatedAt: theme.updatedAt + 1 } },
          { kind: "delete", key: terminal },
          { kind: "upsert", record: f.record("extra", { body: "Another dark corner, and a light switch by the door.", updatedAt: theme.updatedAt + 2 }) },
          { kind: "upsert", record: { ...modeSwitch, archived: true, updatedAt: modeSwitch.updatedAt + 1 } },
        ]);
        for (const terms of WORD_QUERIES) await expectSameRanking(stores, { scopes, index: "words", terms });
      });
    });

    it("ranks trigram queries alike and scores them alike", async () => {
      await withStores(async (stores) => {
        const { f, records, globals } = corpus();
        await apply(
          stores,
          [...records, ...globals].map((record) => ({ kind: "upsert", record })),
        );
        for (const terms of TRIGRAM_QUERIES) await expectSameRanking(stores, { scopes: [GLOBAL, f.project], index: "trigram", terms });
      });
    });
  });
}
