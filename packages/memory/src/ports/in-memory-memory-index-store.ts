import type { MemoryAuditEntry, MemoryKey, MemoryOrganizeRun, MemoryRecord } from "../domain/memory-types.js";
import { assertStorableRecord, codePointLength, compareForList, listTypes, memoryKeyId, parseSearchTerms, searchTypes } from "./memory-index-query.js";
import type {
  MemoryBatchConflict,
  MemoryFileState,
  MemoryIndexChange,
  MemoryIndexStore,
  MemoryListPage,
  MemoryListQuery,
  MemoryScopeRef,
  MemoryTextHit,
  MemoryTextQuery,
} from "./memory-index-store.js";
import type { MemoryVectorBacklogQuery, MemoryVectorHits, MemoryVectorIndexKind, MemoryVectorQuery, MemoryVectorRow } from "./memory-vector-index.js";
import { assertBacklogQuery, assertModelId } from "./memory-vector-rules.js";
import { InMemoryVectorTable } from "./in-memory-memory-vectors.js";
import { PlainBm25Index, foldText, fts5Idf } from "./plain-bm25.js";

const K1 = 1.2;
const B = 0.75;

/** Text the indexes see for one record: slug, description and body. */
function indexedText(record: MemoryRecord): string {
  return `${record.slug}\n${record.description}\n${record.body}`;
}

/** Trigrams of the folded slug, description and body (none in a column under three characters), plus one for the scope column. */
function trigramLength(record: MemoryRecord): number {
  return [record.slug, record.description, record.body].reduce((total, column) => total + Math.max(0, codePointLength(foldText(column)) - 2), 1);
}

function inScopes(record: MemoryRecord, scopes: readonly MemoryScopeRef[]): boolean {
  return scopes.some((scope) => scope.scope === record.scope && scope.workdirHash === record.workdirHash);
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/**
 * A {@link MemoryIndexStore} in memory, for tests and hosts that keep no
 * index on disk. The word index is a {@link PlainBm25Index}; the trigram
 * index is substring containment of the folded text, ranked by BM25 over
 * the occurrence counts. Vectors live in an {@link InMemoryVectorTable} and
 * are scanned. Records are copied in and out, so callers never share
 * objects with the store.
 *
 * @example
 * const store = new InMemoryMemoryIndexStore();
 * await store.applyBatch([{ kind: "upsert", record }], []);
 * await store.search({ scopes: [{ scope: "global", workdirHash: "" }], index: "words", terms: ["dark"], limit: 8 });
 */
export class InMemoryMemoryIndexStore implements MemoryIndexStore {
  readonly #records = new Map<string, MemoryRecord>();
  readonly #folded = new Map<string, string>();
  readonly #trigramLengths = new Map<string, number>();
  // FTS5's IDF, and one token more per row for the scope column SQLite's tables carry, so that scores are on SQLite's scale.
  readonly #words = new PlainBm25Index<string>({ k1: K1, b: B, idf: "fts5", extraLength: 1 });
  readonly #audit: MemoryAuditEntry[] = [];
  readonly #runs = new Map<string, MemoryOrganizeRun>();
  readonly #vectors = new InMemoryVectorTable();

  /** {@inheritDoc MemoryIndexStore.get} */
  async get(key: MemoryKey): Promise<MemoryRecord | undefined> {
    const record = this.#records.get(memoryKeyId(key));
    return record === undefined ? undefined : structuredClone(record);
  }

  /** {@inheritDoc MemoryIndexStore.list} */
  async list(query: MemoryListQuery): Promise<MemoryListPage> {
    const types = new Set(listTypes(query));
    const matching = [...this.#records.values()].filter(
      (record) => types.has(record.type) && (query.includeArchived === true || !record.archived) && inScopes(record, query.scopes),
    );
    matching.sort(compareForList);
    const page = matching.slice(query.offset, query.offset + query.limit);
    return { records: page.map((record) => structuredClone(record)), total: matching.length };
  }

  /** {@inheritDoc MemoryIndexStore.countEntries} */
  async countEntries(scope: MemoryScopeRef): Promise<number> {
    let count = 0;
    for (const record of this.#records.values()) {
      if (record.type !== "daily" && !record.archived && record.scope === scope.scope && record.workdirHash === scope.workdirHash) count += 1;
    }
    return count;
  }

  /** {@inheritDoc MemoryIndexStore.search} */
  async search(query: MemoryTextQuery): Promise<readonly MemoryTextHit[]> {
    const terms = parseSearchTerms(query.terms);
    if (terms.length === 0 || query.limit <= 0) return [];
    const types = new Set(searchTypes(query));
    const accepts = (record: MemoryRecord | undefined): record is MemoryRecord =>
      record !== undefined && types.has(record.type) && (query.includeArchived === true || !record.archived) && inScopes(record, query.scopes);
    const scored =
      query.index === "words"
        ? this.#words.search(terms.filter((term) => term.words.length > 0).map((term) => term.words))
        : this.#trigramScores(terms.map((term) => term.text));
    const hits: MemoryTextHit[] = [];
    for (const { id, score } of scored) {
      const record = this.#records.get(id);
      if (!accepts(record)) continue;
      hits.push({ record: structuredClone(record), bm25: -score });
      if (hits.length >= query.limit) break;
    }
    return hits;
  }

  /**
   * SQLite's trigram scores: FTS5's BM25 for terms of three or more
   * characters (occurrence count as the frequency, trigrams as the length),
   * BM25's saturation alone for shorter terms (SQLite scans for those).
   */
  #trigramScores(needles: readonly string[]): { id: string; score: number }[] {
    const count = this.#folded.size;
    if (count === 0) return [];
    let totalLength = 0;
    for (const length of this.#trigramLengths.values()) totalLength += length;
    const averageLength = totalLength / count || 1;
    const scores = new Map<string, number>();
    for (const needle of needles) {
      const frequencies = new Map<string, number>();
      for (const [id, text] of this.#folded) {
        const found = occurrences(text, needle);
        if (found > 0) frequencies.set(id, found);
      }
      const short = codePointLength(needle) < 3;
      const idf = fts5Idf(count, frequencies.size);
      for (const [id, frequency] of frequencies) {
        const length = this.#trigramLengths.get(id) ?? 0;
        const norm = short ? frequency + K1 : frequency + K1 * (1 - B + (B * length) / averageLength);
        scores.set(id, (scores.get(id) ?? 0) + ((short ? 1 : idf) * frequency * (K1 + 1)) / norm);
      }
    }
    return [...scores].map(([id, score]) => ({ id, score })).sort((left, right) => right.score - left.score);
  }

  /** {@inheritDoc MemoryIndexStore.applyBatch} */
  async applyBatch(
    changes: readonly MemoryIndexChange[],
    audit: readonly MemoryAuditEntry[],
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly conflicts: readonly MemoryBatchConflict[] }> {
    // Check everything against a scratch view first, so a conflict or an invalid record writes nothing.
    const view = new Map<string, MemoryRecord | undefined>();
    const current = (id: string) => (view.has(id) ? view.get(id) : this.#records.get(id));
    const conflicts: MemoryBatchConflict[] = [];
    for (const change of changes) {
      const key = change.kind === "upsert" ? change.record : change.key;
      const id = memoryKeyId(key);
      const actual = current(id)?.updatedAt ?? null;
      if (change.expectedUpdatedAt !== undefined && change.expectedUpdatedAt !== actual) {
        conflicts.push({ key: { scope: key.scope, workdirHash: key.workdirHash, slug: key.slug }, actualUpdatedAt: actual });
      }
      if (change.kind === "upsert") {
        assertStorableRecord(change.record);
        view.set(id, structuredClone(change.record));
      } else {
        view.set(id, undefined);
      }
    }
    if (conflicts.length > 0) return { ok: false, conflicts };
    for (const [id, record] of view) {
      if (record === undefined) {
        this.#records.delete(id);
        this.#folded.delete(id);
        this.#trigramLengths.delete(id);
        this.#words.remove(id);
        this.#vectors.deleteEntry(id);
      } else {
        this.#records.set(id, record);
        this.#folded.set(id, foldText(indexedText(record)));
        this.#trigramLengths.set(id, trigramLength(record));
        this.#words.add(id, indexedText(record));
      }
    }
    for (const entry of audit) this.#audit.push(structuredClone(entry));
    return { ok: true };
  }

  /** {@inheritDoc MemoryIndexStore.fileStates} */
  async fileStates(): Promise<readonly MemoryFileState[]> {
    return [...this.#records.values()].map((record) => ({
      scope: record.scope,
      workdirHash: record.workdirHash,
      slug: record.slug,
      bodyHash: record.bodyHash,
      fileMtimeMs: record.fileMtimeMs,
      fileSize: record.fileSize,
    }));
  }

  /** {@inheritDoc MemoryIndexStore.audit} */
  async audit(query: { readonly slug?: string; readonly limit?: number } = {}): Promise<readonly MemoryAuditEntry[]> {
    const limit = query.limit ?? 100;
    const entries: MemoryAuditEntry[] = [];
    // Newest first: by time, then by order of insertion.
    const ordered = this.#audit.map((entry, index) => ({ entry, index })).sort((left, right) => right.entry.at - left.entry.at || right.index - left.index);
    for (const { entry } of ordered) {
      if (entries.length >= limit) break;
      if (query.slug === undefined || entry.slug === query.slug) entries.push(structuredClone(entry));
    }
    return entries;
  }

  /** {@inheritDoc MemoryIndexStore.saveOrganizeRun} */
  async saveOrganizeRun(run: MemoryOrganizeRun): Promise<void> {
    this.#runs.set(run.id, structuredClone(run));
  }

  /** {@inheritDoc MemoryIndexStore.organizeRuns} */
  async organizeRuns(limit = 50): Promise<readonly MemoryOrganizeRun[]> {
    return [...this.#runs.values()]
      .sort((left, right) => right.startedAt - left.startedAt || (left.id < right.id ? 1 : left.id > right.id ? -1 : 0))
      .slice(0, limit)
      .map((run) => structuredClone(run));
  }

  /** {@inheritDoc MemoryVectorIndex.putVectors} */
  async putVectors(rows: readonly MemoryVectorRow[]): Promise<{ readonly stored: number }> {
    return this.#vectors.put(rows, this.#records);
  }

  /** {@inheritDoc MemoryVectorIndex.vectorBacklog} */
  async vectorBacklog(query: MemoryVectorBacklogQuery): Promise<readonly MemoryRecord[]> {
    assertBacklogQuery(query);
    return this.#vectors.backlog(query, this.#records.values());
  }

  /** {@inheritDoc MemoryVectorIndex.searchVectors} */
  async searchVectors(query: MemoryVectorQuery): Promise<MemoryVectorHits> {
    return this.#vectors.search(query, this.#records);
  }

  /** {@inheritDoc MemoryVectorIndex.pruneVectors} */
  async pruneVectors(query: { readonly keepModelId: string }): Promise<number> {
    assertModelId(query.keepModelId, "pruneVectors");
    return this.#vectors.prune(query.keepModelId);
  }

  /** Always `scan`. */
  async vectorIndexKind(): Promise<MemoryVectorIndexKind> {
    return "scan";
  }

  /** Nothing to release. */
  async close(): Promise<void> {}
}
