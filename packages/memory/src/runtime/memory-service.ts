import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { dailyDateLocal } from "../domain/daily-dates.js";
import { conflict, quotaExceeded } from "../domain/memory-errors.js";
import { MEMORY_LIMITS, type MemoryKey, type MemoryScopeQuery } from "../domain/memory-types.js";
import { checkSlug, dailySlug } from "../domain/slug.js";
import type { MemoryPlanTarget } from "../extraction/memory-plan-target.js";
import type { MemoryIndexStore, MemoryScopeRef } from "../ports/memory-index-store.js";
import { type MemoryBatchItem, type MemoryBatchResult, applyMemoryBatch } from "./memory-batch.js";
import { type CurrentEntry, commitEntryChanges, keyText, readCurrentEntry, withEntryLocks, withQuotaLocks } from "./memory-entry-io.js";
import type { MemoryHistorySearch } from "./memory-history.js";
import { canonicalWorkdir, defaultMemoryRoot, ensureProjectDirectory, type MemoryLayout, openMemoryLayout, workdirHashOf } from "./memory-layout.js";
import { type PlannedChange, planAccept, planAppendDaily, planDelete, planUpdate, planWrite } from "./memory-mutations.js";
import { type MemoryReconcileReport, reconcileMemoryIndex } from "./memory-reconcile.js";
import { readMemoryEntry } from "./memory-read.js";
import { type MemoryEmbedding, createMemoryEmbedding, searchMemoryEntries } from "./memory-embedding-runtime.js";
import type { MemoryEmbeddingStatus } from "./memory-embedding-queue.js";
import type {
  MemoryChangeResult,
  MemoryKeyRequest,
  MemoryListRequest,
  MemoryListResult,
  MemoryReadRequest,
  MemoryReadResult,
  MemoryRefusal,
  MemorySearchRequestInput,
  MemorySearchResult,
  MemoryServiceChangeOptions,
  MemoryUpdateRequest,
  MemoryWriteRequest,
} from "./memory-service-types.js";

/** Options of {@link openMemoryService}. */
export interface MemoryServiceOptions {
  /** Where the SDK keeps its files; the Markdown files go to `<dataDir>/memory` unless `root` says otherwise. */
  readonly dataDir: string;
  /** The memory root, overriding `<dataDir>/memory`. */
  readonly root?: string;
  /** The derived index. The service never closes it unless `closeStore` is true. */
  readonly store: MemoryIndexStore;
  /** Close `store` with the service (for stores the caller opened only for it). */
  readonly closeStore?: boolean;
  /** The current project's directory (its realpath names the project scope). */
  readonly workdir: string;
  /**
   * `workdir` is already canonical and is not a path of this host's disk (a
   * registry on a non-local workspace): it names the project scope as given,
   * without a local realpath.
   */
  readonly workdirIsCanonical?: boolean;
  /** Clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
  /** IANA time zone of the daily journal's date; default the process's local time. */
  readonly timeZone?: string;
  /** The host's chat-history search, for `include_history`. */
  readonly historySearch?: MemoryHistorySearch;
  /** Non-daily entries per scope; default 500. */
  readonly entriesPerScope?: number;
  /** Skip the reconcile on open (the caller runs `reconcile()` itself). */
  readonly skipReconcile?: boolean;
  /**
   * Embeds entries for search by meaning (hybrid search): changed entries in
   * the background after each write, the store's backlog on open. Without it
   * search is lexical only. Anything but an `EmbeddingClient` throws `SdkError`.
   */
  readonly embedder?: EmbeddingClient;
}

type Keyed = { ok: true; key: MemoryKey } | MemoryRefusal;

/**
 * The memory: Markdown files under one root (the truth) and a derived index.
 * Every change writes the file under the entry's cross-process lock, then
 * applies one index batch with its audit entry and a compare-and-swap on the
 * row; when the index refuses or fails, the file is put back, so no answer
 * ever leaves the two apart.
 */
export class MemoryService implements MemoryPlanTarget {
  /** Hash of the current project (its scope's `workdirHash`). */
  readonly workdirHash: string;
  readonly #layout: MemoryLayout;
  readonly #store: MemoryIndexStore;
  readonly #options: MemoryServiceOptions;
  readonly #workdir: string;
  readonly #now: () => number;
  readonly #embedding: MemoryEmbedding | undefined;
  #closed = false;

  /** Use {@link openMemoryService}. */
  constructor(layout: MemoryLayout, workdir: string, options: MemoryServiceOptions) {
    this.#layout = layout;
    this.#store = options.store;
    this.#options = options;
    this.#workdir = workdir;
    this.workdirHash = workdirHashOf(workdir);
    this.#now = options.now ?? Date.now;
    // A service embeds only what it can search: global and its project.
    this.#embedding = createMemoryEmbedding(options.store, options.embedder, this.#scopes("auto"), this.#now);
    // Embeds the backlog of its model id in the background (again after each reconcile); other models' vectors stay.
    this.#embedding?.queue.start();
  }

  /** The canonical memory root. */
  get root(): string {
    return this.#layout.root;
  }

  /** The index store. */
  get store(): MemoryIndexStore {
    return this.#store;
  }

  /** Brings the index up to the files (run on open unless `skipReconcile`). */
  async reconcile(): Promise<MemoryReconcileReport> {
    const report = await reconcileMemoryIndex(this.#layout, this.#store, this.#now(), this.#options.timeZone);
    this.#embedding?.queue.requestBacklog();
    return report;
  }

  /**
   * Resolves when background embedding is idle: every change embedded, or a
   * failure waiting for its retry (see {@link embeddingStatus}). At once without an embedder.
   */
  embeddingsSettled(): Promise<void> {
    return this.#embedding?.queue.settled() ?? Promise.resolve();
  }

  /** What background embedding is doing and its last failure; undefined without an embedder. */
  embeddingStatus(): MemoryEmbeddingStatus | undefined {
    return this.#embedding?.queue.status();
  }

  #scopes(scope: MemoryScopeQuery | undefined): MemoryScopeRef[] {
    const global: MemoryScopeRef = { scope: "global", workdirHash: "" };
    const project: MemoryScopeRef = { scope: "project", workdirHash: this.workdirHash };
    if (scope === "global") return [global];
    if (scope === "project") return [project];
    return [global, project];
  }

  /** Validates the slug and a concrete scope (`global` or `project`) of a change. */
  #key(slug: string, scope: string | undefined): Keyed {
    if (scope !== "global" && scope !== "project") {
      return {
        ok: false,
        error: { error: "scope_required", message: `This action needs scope "global" or "project" (got ${JSON.stringify(scope ?? "auto")}).` },
      };
    }
    const checked = checkSlug(slug);
    if (!checked.ok) return checked;
    return { ok: true, key: { scope, workdirHash: scope === "project" ? this.workdirHash : "", slug: checked.slug } };
  }

  /** Lists entries, newest first. `auto` lists global and the current project. */
  async list(request: MemoryListRequest = {}): Promise<MemoryListResult> {
    const offset = Math.max(0, request.offset ?? 0);
    const limit = Math.min(MEMORY_LIMITS.resultLimitMax, Math.max(1, request.limit ?? MEMORY_LIMITS.resultLimitDefault));
    const includeDaily = request.includeDaily === true || request.filterType === "daily";
    const page = await this.#store.list({
      scopes: this.#scopes(request.scope),
      ...(request.filterType === undefined ? {} : { types: [request.filterType] }),
      includeDaily,
      includeArchived: request.includeArchived === true,
      offset,
      limit,
    });
    const projectSlugs = new Set<string>();
    if ((request.scope ?? "auto") === "auto") {
      const globals = page.records.filter((record) => record.scope === "global").map((record) => record.slug);
      const shadows = await Promise.all(globals.map((slug) => this.#store.get({ scope: "project", workdirHash: this.workdirHash, slug })));
      for (const record of shadows) if (record !== undefined) projectSlugs.add(record.slug);
    }
    const items = page.records.map((record) => ({ record, shadowed: record.scope === "global" && projectSlugs.has(record.slug) }));
    return { ok: true, items, total: page.total, offset, limit };
  }

  /** Reads an entry's lines. `auto` reads the project's entry, else the global one. */
  async read(request: MemoryReadRequest): Promise<MemoryReadResult | MemoryRefusal> {
    const checked = checkSlug(request.slug);
    if (!checked.ok) return checked;
    const refs =
      request.scope === "global" || request.scope === "project" ? this.#scopes(request.scope) : this.#scopes("project").concat(this.#scopes("global"));
    return readMemoryEntry(this.#layout, this.#store, refs, checked.slug, request);
  }

  /** Searches entries (and, when asked, the host's chat history). */
  async search(request: MemorySearchRequestInput): Promise<MemorySearchResult> {
    const limit = Math.min(MEMORY_LIMITS.resultLimitMax, Math.max(1, request.limit ?? MEMORY_LIMITS.resultLimitDefault));
    const outcome = await searchMemoryEntries(this.#store, this.#embedding, {
      query: request.query,
      scopes: this.#scopes(request.scope),
      ...(request.filterType === undefined ? {} : { types: [request.filterType] }),
      includeDaily: request.includeDaily === true || request.filterType === "daily",
      includeArchived: request.includeArchived === true,
      limit,
      now: this.#now(),
      currentWorkdirHash: this.workdirHash,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    const found = {
      ok: true,
      hits: outcome.hits,
      usedFallback: outcome.usedFallback,
      indexes: outcome.indexes,
      ...(outcome.vectorError === undefined ? {} : { vectorError: outcome.vectorError }),
      ...(outcome.vectorSkipped === undefined ? {} : { vectorSkipped: outcome.vectorSkipped }),
    } as const;
    if (request.includeHistory !== true) return found;
    const historySearch = this.#options.historySearch;
    if (historySearch === undefined) return { ...found, historyNote: "Chat history is not available in this context." };
    const history = await historySearch({
      query: request.query,
      limit,
      ...(request.historySince === undefined ? {} : { since: request.historySince }),
      ...(request.historyUntil === undefined ? {} : { until: request.historyUntil }),
      ...(request.historyDateLocal === undefined ? {} : { dateLocal: request.historyDateLocal }),
      ...(request.historyTimeMode === undefined ? {} : { timeMode: request.historyTimeMode }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    return { ...found, history: history.slice(0, limit) };
  }

  /**
   * Runs one change under the entry's lock: reads the file and the row,
   * plans, writes, indexes. A change the index refuses (another writer moved
   * the row on meanwhile) answers `conflict`. When `createsCounted` says the
   * change adds an entry the quota counts, the count, the plan and the commit
   * run under the scope's quota lock too, so concurrent writers (other
   * registries, other processes) cannot together pass the quota.
   */
  async #change(
    key: MemoryKey,
    options: MemoryServiceChangeOptions,
    plan: (current: CurrentEntry) => Promise<PlannedChange> | PlannedChange,
    outcomeOf: (current: CurrentEntry) => MemoryChangeResult["outcome"],
    createsCounted?: (current: CurrentEntry) => boolean,
  ): Promise<MemoryChangeResult | MemoryRefusal> {
    if (key.scope === "project") await ensureProjectDirectory(this.#layout, key.workdirHash, this.#workdir, this.#now());
    return withEntryLocks(
      this.#layout,
      [key],
      async () => {
        const current = await readCurrentEntry(this.#layout, this.#store, key);
        if (createsCounted?.(current) !== true) return this.#planAndCommit(key, current, plan, outcomeOf);
        const quota = this.#options.entriesPerScope ?? MEMORY_LIMITS.entriesPerScope;
        return withQuotaLocks(
          this.#layout,
          [key],
          async () => {
            const count = await this.#store.countEntries(key);
            if (count >= quota) return { ok: false, error: quotaExceeded(key.scope, count, quota) } satisfies MemoryRefusal;
            return this.#planAndCommit(key, current, plan, outcomeOf);
          },
          options.signal,
        );
      },
      options.signal,
    );
  }

  async #planAndCommit(
    key: MemoryKey,
    current: CurrentEntry,
    plan: (current: CurrentEntry) => Promise<PlannedChange> | PlannedChange,
    outcomeOf: (current: CurrentEntry) => MemoryChangeResult["outcome"],
  ): Promise<MemoryChangeResult | MemoryRefusal> {
    const planned = await plan(current);
    if (!planned.ok) return planned;
    const committed = await commitEntryChanges(this.#layout, this.#store, [{ change: planned.change, current }]);
    if (!committed.ok) return { ok: false, error: conflict(keyText(key)) } as MemoryRefusal;
    this.#embedding?.queue.enqueue([key]);
    const record = committed.records[0];
    return {
      ok: true,
      outcome: outcomeOf(current),
      slug: key.slug,
      scope: key.scope,
      ...(record === undefined ? {} : { record }),
      ...planned.notes,
    } satisfies MemoryChangeResult;
  }

  /** Writes a new entry or overwrites one (overwrites are exempt from the quota). */
  async write(request: MemoryWriteRequest, options: MemoryServiceChangeOptions = {}): Promise<MemoryChangeResult | MemoryRefusal> {
    const keyed = this.#key(request.slug, request.scope);
    if (!keyed.ok) return keyed;
    return this.#change(
      keyed.key,
      options,
      (current) => planWrite(current, request, options, this.#now()),
      (current) => (current.file === undefined ? "created" : "overwritten"),
      (current) => current.file === undefined && request.type !== "daily",
    );
  }

  /** Updates an existing entry: `replace` (default), `append` or `merge` the body; change description or type. */
  update(request: MemoryUpdateRequest, options: MemoryServiceChangeOptions = {}): Promise<MemoryChangeResult | MemoryRefusal> {
    const keyed = this.#key(request.slug, request.scope);
    if (!keyed.ok) return Promise.resolve(keyed);
    const mode = request.mode ?? (options.actor === "extractor" ? "merge" : "replace");
    return this.#change(
      keyed.key,
      options,
      (current) => planUpdate(current, { ...request, mode }, options, this.#now()),
      () => "updated",
    );
  }

  /** Deletes an entry (audited as the user's when it comes from the tool). */
  delete(request: MemoryKeyRequest, options: MemoryServiceChangeOptions = {}): Promise<MemoryChangeResult | MemoryRefusal> {
    const keyed = this.#key(request.slug, request.scope);
    if (!keyed.ok) return Promise.resolve(keyed);
    return this.#change(
      keyed.key,
      options,
      (current) => planDelete(current, options, this.#now()),
      () => "deleted",
    );
  }

  /** Marks an extractor's entry reviewed. */
  accept(request: MemoryKeyRequest, options: MemoryServiceChangeOptions = {}): Promise<MemoryChangeResult | MemoryRefusal> {
    const keyed = this.#key(request.slug, request.scope);
    if (!keyed.ok) return Promise.resolve(keyed);
    return this.#change(
      keyed.key,
      options,
      (current) => planAccept(current, options, this.#now()),
      () => "accepted",
    );
  }

  /**
   * Appends a line to today's journal (global, `daily-YYYY-MM-DD`, rolling
   * over at 04:00 local time; outside the quota; at most 32 KB, with a
   * warning past 28 KB).
   */
  appendDaily(text: string, options: MemoryServiceChangeOptions = {}): Promise<MemoryChangeResult | MemoryRefusal> {
    const now = this.#now();
    const dateLocal = dailyDateLocal(new Date(now), this.#options.timeZone);
    const key: MemoryKey = { scope: "global", workdirHash: "", slug: dailySlug(dateLocal) };
    return this.#change(
      key,
      options,
      (current) => planAppendDaily(current, text, dateLocal, options, now),
      () => "appended",
    );
  }

  /**
   * Applies an extractor's validated plan: every item is checked first; the
   * valid ones are written and indexed in one batch (all or nothing: if the
   * batch fails, every file is put back and every item reports the error).
   */
  async applyBatch(items: readonly MemoryBatchItem[], options: { actor: "extractor"; conversationId?: string }): Promise<MemoryBatchResult> {
    const result = await applyMemoryBatch(
      {
        layout: this.#layout,
        store: this.#store,
        now: this.#now,
        timeZone: this.#options.timeZone,
        workdir: this.#workdir,
        workdirHash: this.workdirHash,
        entriesPerScope: this.#options.entriesPerScope ?? MEMORY_LIMITS.entriesPerScope,
      },
      items,
      options,
    );
    // The batch does not list the keys it wrote: the backlog holds them.
    if (result.applied > 0) this.#embedding?.queue.requestBacklog();
    return result;
  }

  /** Stops background embedding (aborting a batch in flight), then closes the store when the service owns it. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#embedding?.queue.close();
    if (this.#options.closeStore === true) await this.#store.close?.();
  }
}

/**
 * Opens the memory: creates the layout under `<dataDir>/memory` (or `root`),
 * resolves the project's canonical workdir and reconciles the index with the
 * files.
 *
 * @example
 * const memory = await openMemoryService({ dataDir, store: new InMemoryMemoryIndexStore(), workdir: process.cwd() });
 * await memory.write({ slug: "editor-theme", scope: "global", type: "user", description: "Prefers dark mode", body: "Dark mode everywhere." });
 */
export async function openMemoryService(options: MemoryServiceOptions): Promise<MemoryService> {
  const layout = await openMemoryLayout(options.root ?? defaultMemoryRoot(options.dataDir));
  const workdir = options.workdirIsCanonical === true ? options.workdir : await canonicalWorkdir(options.workdir);
  const service = new MemoryService(layout, workdir, options);
  if (options.skipReconcile !== true) await service.reconcile();
  return service;
}
