/**
 * Shared pieces of the memory index contract suites: fresh names per test
 * and the helpers every section uses.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { MemoryKey, MemoryRecord } from "../domain/memory-types.js";
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

/** The global scope. */
export const GLOBAL: MemoryScopeRef = { scope: "global", workdirHash: "" };
const runId = randomBytes(3).toString("hex");
/** A random first day, so daily rows of separate runs over one backend rarely meet. */
const dayBase = Date.UTC(2001, 0, 1) + (Number.parseInt(runId, 16) % 20_000) * 86_400_000;
let counter = 0;

/** Fresh names for one test: a project scope, a slug prefix, a made-up word and a daily date. */
export function fixture() {
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
  return { project, prefix, word, record, daily, global, number: counter };
}

export { memoryRecord } from "./memory-record-builder.js";

/** The key of a record. */
export const keyOf = (record: MemoryKey): MemoryKey => ({ scope: record.scope, workdirHash: record.workdirHash, slug: record.slug });
/** The slugs of records, in order. */
export const slugs = (records: readonly { readonly slug: string }[]) => records.map((record) => record.slug);

/** What every contract section gets: the target and helpers bound to it. */
export interface ContractContext {
  readonly target: MemoryIndexStoreContractTarget;
  /** Opens a store, runs `body`, disposes the store. */
  withStore(body: (store: MemoryIndexStore) => Promise<void>): Promise<void>;
  /** Upserts records unconditionally and expects success. */
  put(store: MemoryIndexStore, ...records: MemoryRecord[]): Promise<void>;
  /** Slugs of the hits of a search (limit 32 unless given). */
  searchSlugs(store: MemoryIndexStore, query: Omit<MemoryTextQuery, "limit"> & { limit?: number }): Promise<string[]>;
}

/** Binds the helpers to a target. */
export function contractContext(target: MemoryIndexStoreContractTarget): ContractContext {
  return {
    target,
    async withStore(body) {
      const store = await target.open();
      try {
        await body(store);
      } finally {
        await (target.dispose ? target.dispose(store) : store.close?.());
      }
    },
    async put(store, ...records) {
      expect(
        await store.applyBatch(
          records.map((record) => ({ kind: "upsert" as const, record })),
          [],
        ),
      ).toEqual({ ok: true });
    },
    async searchSlugs(store, query) {
      return slugs((await store.search({ limit: 32, ...query })).map((hit) => hit.record));
    },
  };
}
