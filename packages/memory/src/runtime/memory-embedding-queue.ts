/**
 * Embedding on write, off the write path: the service tells the queue which
 * entries a committed change touched; one background worker per service
 * reads them as stored, embeds them in batches through the host's
 * `EmbeddingClient` and stores the vectors (`putVectors`, with the body
 * hash as read, so a racing write's newer version is never overwritten by
 * an older vector). On open it embeds the backlog of its model id (entries
 * with no current vector of it); other models' vectors are left alone, so
 * services with different embedders share a store (pruning them is the
 * host's call: `store.pruneVectors({ keepModelId })`). A failure is kept
 * for `status()` and retried later; it never fails a write.
 */
import { ModelClientError, isAbortError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import type { MemoryKey, MemoryRecord } from "../domain/memory-types.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { memoryKeyId } from "../ports/memory-index-query.js";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import type { MemoryVectorIndex, MemoryVectorRow } from "../ports/memory-vector-index.js";
import { embedWithin } from "./memory-embedding-call.js";
import { memoryEmbeddingText, unitVector } from "./memory-embedding-text.js";

/** Largest number of entries the queue embeds in one call (the embedder's `maxBatchSize`, when smaller). */
export const MEMORY_EMBEDDING_BATCH_MAX = 64;
/** First wait before a failed batch is retried; doubled after each further failure, up to {@link MEMORY_EMBEDDING_RETRY_MAX_MS}. */
export const MEMORY_EMBEDDING_RETRY_FIRST_MS = 5_000;
/** Longest wait between retries of a failing embedder. */
export const MEMORY_EMBEDDING_RETRY_MAX_MS = 300_000;
/** A batch taking longer than this fails (and is retried later): a hung embedder does not stop the queue for good. */
export const MEMORY_EMBEDDING_BATCH_TIMEOUT_MS = 120_000;

/** The last failure of the queue (the embedder's or the store's). */
export interface MemoryEmbeddingError {
  readonly message: string;
  /** The error's `code` (e.g. `http_error` of a `ModelClientError`), when it has one. */
  readonly code?: string;
  /** Epoch ms. */
  readonly at: number;
}

/** What the queue is doing, for hosts and tests (`MemoryService.embeddingStatus()`). */
export interface MemoryEmbeddingStatus {
  /** The embedder's `modelId`. */
  readonly modelId: string;
  /** `embedding`: a batch or the backlog is being worked on; `retrying`: waiting after a failure; `closed` after `close()`. */
  readonly state: "idle" | "embedding" | "retrying" | "closed";
  /** Changed entries waiting to be embedded (the store's backlog is not counted: it is read from the store). */
  readonly queued: number;
  /** True until the store's backlog has been read to its end since open (or since a failure). */
  readonly backlogPending: boolean;
  /** Vectors stored since open. */
  readonly embedded: number;
  /** Entries left without a vector because the embedder gave one without direction (all components 0). */
  readonly skipped: number;
  /** Failures since the last batch that succeeded. */
  readonly consecutiveFailures: number;
  /** The last failure, kept until a batch succeeds. */
  readonly lastError?: MemoryEmbeddingError;
  /**
   * The last failure of a search's vector side (embedding its query or
   * reading the vector index), whole: the search's `vectorError` only
   * names its kind. Kept until the next one.
   */
  readonly lastSearchError?: MemoryEmbeddingError;
}

/** Options of {@link MemoryEmbeddingQueue}. */
export interface MemoryEmbeddingQueueOptions {
  readonly store: MemoryIndexStore & MemoryVectorIndex;
  readonly embedder: EmbeddingClient;
  /**
   * The scopes the service searches (global and its project): the backlog
   * is read for these only, so a service never sends another project's
   * entries to its embedder.
   */
  readonly scopes: readonly MemoryScopeRef[];
  /** Clock (epoch ms) of `lastError.at`. */
  readonly now: () => number;
  /** First retry wait; default {@link MEMORY_EMBEDDING_RETRY_FIRST_MS}. */
  readonly retryFirstMs?: number;
}

type Batch = { readonly records: readonly MemoryRecord[]; readonly takenKeys: readonly MemoryKey[] };

const versionId = (record: MemoryRecord) => `${memoryKeyId(record)}\u0000${record.bodyHash}`;

/**
 * The background embedding worker of one memory service: at most one batch
 * in flight; keys changed while it runs are coalesced into the next batch.
 *
 * @example
 * const queue = new MemoryEmbeddingQueue({ store, embedder, scopes: [{ scope: "global", workdirHash: "" }], now: Date.now });
 * queue.start(); // embed the backlog of this model id
 * queue.enqueue([{ scope: "global", workdirHash: "", slug: "editor-theme" }]);
 * await queue.settled();
 */
export class MemoryEmbeddingQueue {
  readonly #store: MemoryIndexStore & MemoryVectorIndex;
  readonly #embedder: EmbeddingClient;
  readonly #scopes: readonly MemoryScopeRef[];
  readonly #now: () => number;
  readonly #retryFirstMs: number;
  readonly #batchSize: number;
  readonly #queued = new Map<string, MemoryKey>();
  /** Versions (key and body hash) whose vector had no direction: not asked again while the queue lives. */
  readonly #unembeddable = new Set<string>();
  readonly #abort = new AbortController();
  #backlogWanted = false;
  #worker: Promise<void> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #embedded = 0;
  #skipped = 0;
  #consecutiveFailures = 0;
  #lastError: MemoryEmbeddingError | undefined;
  #lastSearchError: MemoryEmbeddingError | undefined;

  constructor(options: MemoryEmbeddingQueueOptions) {
    this.#store = options.store;
    this.#embedder = options.embedder;
    this.#scopes = options.scopes.map((ref) => ({ scope: ref.scope, workdirHash: ref.workdirHash }));
    this.#now = options.now;
    this.#retryFirstMs = options.retryFirstMs ?? MEMORY_EMBEDDING_RETRY_FIRST_MS;
    this.#batchSize = Math.max(1, Math.min(MEMORY_EMBEDDING_BATCH_MAX, Math.floor(options.embedder.maxBatchSize) || 1));
  }

  /** Embeds the store's backlog of this model id, in the background (other models' vectors are never touched). */
  start(): void {
    this.requestBacklog();
  }

  /** Embeds the entries of `keys` as they are stored when their turn comes (a deleted one is skipped). */
  enqueue(keys: readonly MemoryKey[]): void {
    if (this.#closed) return;
    for (const key of keys) this.#queued.set(memoryKeyId(key), { scope: key.scope, workdirHash: key.workdirHash, slug: key.slug });
    this.#kick();
  }

  /** Reads the store's backlog again (after a reconcile or a batch whose keys the service does not list). */
  requestBacklog(): void {
    if (this.#closed) return;
    this.#backlogWanted = true;
    this.#kick();
  }

  /**
   * Resolves when the worker is idle: nothing queued and the backlog read to
   * its end, or waiting to retry after a failure (see {@link status}).
   */
  async settled(): Promise<void> {
    while (this.#worker !== undefined) await this.#worker;
  }

  /** What the queue is doing and its last failure. */
  status(): MemoryEmbeddingStatus {
    const state = this.#closed ? "closed" : this.#worker !== undefined ? "embedding" : this.#retryTimer !== undefined ? "retrying" : "idle";
    return {
      modelId: this.#embedder.modelId,
      state,
      queued: this.#queued.size,
      backlogPending: this.#backlogWanted,
      embedded: this.#embedded,
      skipped: this.#skipped,
      consecutiveFailures: this.#consecutiveFailures,
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(this.#lastSearchError === undefined ? {} : { lastSearchError: this.#lastSearchError }),
    };
  }

  /** Keeps the failure of a search's vector side for {@link status} (`lastSearchError`). */
  noteSearchFailure(error: unknown): void {
    this.#lastSearchError = this.#errorOf(error);
  }

  /** Aborts the batch in flight, drops the queue and waits for the worker to stop. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#queued.clear();
    this.#abort.abort();
    await this.settled();
  }

  #hasWork(): boolean {
    return this.#queued.size > 0 || this.#backlogWanted;
  }

  #kick(): void {
    if (this.#closed || this.#worker !== undefined || !this.#hasWork()) return;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#worker = this.#drain().finally(() => {
      this.#worker = undefined;
      // Work that came in while the last batch was being stored, and no failure to wait on: go on.
      if (this.#retryTimer === undefined) this.#kick();
    });
  }

  async #drain(): Promise<void> {
    const attempted = new Set<string>();
    let batch: Batch | undefined;
    try {
      while (!this.#closed) {
        batch = await this.#nextBatch(attempted);
        if (batch === undefined) return;
        for (const record of batch.records) attempted.add(versionId(record));
        await this.#embedAndStore(batch.records);
        batch = undefined;
        this.#consecutiveFailures = 0;
        this.#lastError = undefined;
      }
    } catch (error) {
      // Closing aborts the call in flight (an AbortError) or closes the store under it: neither is a failure to keep.
      if (this.#closed || isAbortError(error)) return;
      // The keys of the failed batch wait for the retry (a newer change of one of them is already queued).
      for (const key of batch?.takenKeys ?? []) if (!this.#queued.has(memoryKeyId(key))) this.#queued.set(memoryKeyId(key), key);
      this.#fail(error);
    }
  }

  /** Changed entries first (newest changes matter most), then the store's backlog; undefined when there is nothing left. */
  async #nextBatch(attempted: ReadonlySet<string>): Promise<Batch | undefined> {
    while (this.#queued.size > 0) {
      const takenKeys: MemoryKey[] = [];
      for (const [id, key] of this.#queued) {
        if (takenKeys.length >= this.#batchSize) break;
        takenKeys.push(key);
        this.#queued.delete(id);
      }
      const stored = await Promise.all(takenKeys.map((key) => this.#store.get(key)));
      const records = stored.filter((record): record is MemoryRecord => record !== undefined && !record.archived && !this.#unembeddable.has(versionId(record)));
      if (records.length > 0) return { records, takenKeys };
    }
    if (!this.#backlogWanted) return undefined;
    const backlog = await this.#store.vectorBacklog({
      modelId: this.#embedder.modelId,
      scopes: this.#scopes,
      limit: this.#batchSize + this.#unembeddable.size,
    });
    // A version tried in this pass and still listed (a store that skipped it) is not asked again until the next pass.
    const records = backlog.filter((record) => !this.#unembeddable.has(versionId(record)) && !attempted.has(versionId(record))).slice(0, this.#batchSize);
    if (records.length === 0) {
      this.#backlogWanted = false;
      return undefined;
    }
    return { records, takenKeys: [] };
  }

  async #embedAndStore(records: readonly MemoryRecord[]): Promise<void> {
    // Raced with close()'s abort: an embedder ignoring its signal cannot hold close(); its late answer is dropped.
    const vectors = await embedWithin(this.#embedder, records.map(memoryEmbeddingText), {
      signal: this.#abort.signal,
      timeoutMs: MEMORY_EMBEDDING_BATCH_TIMEOUT_MS,
    });
    if (vectors.length !== records.length) {
      throw new ModelClientError("invalid_response", `The embedder ${this.#embedder.modelId} returned ${vectors.length} vectors for ${records.length} texts.`);
    }
    const rows: MemoryVectorRow[] = [];
    records.forEach((record, index) => {
      const vector = vectors[index]!;
      if (vector.length !== this.#embedder.dimension) {
        throw new ModelClientError(
          "invalid_response",
          `The embedder ${this.#embedder.modelId} returned a vector of ${vector.length} components, not its dimension ${this.#embedder.dimension}.`,
        );
      }
      const unit = unitVector(vector);
      if (unit === undefined) {
        if (!vector.every(Number.isFinite))
          throw new ModelClientError("invalid_response", `The embedder ${this.#embedder.modelId} returned a component that is not finite.`);
        this.#unembeddable.add(versionId(record));
        this.#skipped += 1;
        return;
      }
      rows.push({
        key: { scope: record.scope, workdirHash: record.workdirHash, slug: record.slug },
        modelId: this.#embedder.modelId,
        bodyHash: record.bodyHash,
        vector: unit,
      });
    });
    if (rows.length === 0 || this.#closed) return;
    const { stored } = await this.#store.putVectors(rows);
    this.#embedded += stored;
  }

  #errorOf(error: unknown): MemoryEmbeddingError {
    const code = (error as { code?: unknown } | null)?.code;
    return { message: error instanceof Error ? error.message : String(error), ...(typeof code === "string" ? { code } : {}), at: this.#now() };
  }

  #fail(error: unknown): void {
    this.#consecutiveFailures += 1;
    this.#lastError = this.#errorOf(error);
    const wait = Math.min(MEMORY_EMBEDDING_RETRY_MAX_MS, this.#retryFirstMs * 2 ** (this.#consecutiveFailures - 1));
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#backlogWanted = true;
      this.#kick();
    }, wait);
    this.#retryTimer.unref?.();
  }
}
