/**
 * Puts the real corpus into a memory index store (straight through
 * `applyBatch`, as search-latency.ts does: no files, no quota) and opens one
 * MemoryService per project scope, at the project's clock.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { InMemoryMemoryIndexStore, type MemoryIndexStore, type MemoryRecord, type MemoryService, openMemoryService } from "@agent-tools/memory";
import { indexRecord, openPostgresBackend, openSqliteBackend } from "../bench-util.js";
import type { RealCorpusEntry, RealDataset } from "./corpus-types.js";

/** Where the index lives. */
export type RetrievalBackend = "memory" | "sqlite" | "postgres";

/** Every backend name. */
export const RETRIEVAL_BACKENDS: readonly RetrievalBackend[] = ["memory", "sqlite", "postgres"];

const LOAD_BATCH = 500;
/** The type every corpus entry is stored as (all the same, so type weights do not matter). */
const ENTRY_TYPE = "user";

/** A store holding the corpus, and the services that search it. */
export interface LoadedCorpusStore {
  readonly store: MemoryIndexStore;
  /** Project name -> its scope's workdirHash. */
  readonly hashes: ReadonlyMap<string, string>;
  /** Entry key `<project>/<slug>` -> the record loaded. */
  readonly records: ReadonlyMap<string, MemoryRecord>;
  /** workdirHash -> project name. */
  readonly projectsByHash: ReadonlyMap<string, string>;
  /** Key `<project>/<slug>` of a hit. */
  keyOf(record: { readonly workdirHash: string; readonly slug: string }): string;
  /** One service per project (with `embedder` when given); the caller closes them. */
  openServices(embedder?: EmbeddingClient): Promise<Map<string, MemoryService>>;
  /** Closes the store and removes temporary files. */
  close(): Promise<void>;
}

/** The canonical workdir naming a corpus project's scope (not a real directory). */
function workdirOf(project: string): string {
  return `/real-corpus/${project}`;
}

/**
 * Opens `backend`, loads every entry of `datasets` into it and returns the
 * handle, or a note saying why the backend is not available.
 */
export async function loadCorpusStore(backend: RetrievalBackend, datasets: readonly RealDataset[]): Promise<LoadedCorpusStore | string> {
  let store: MemoryIndexStore;
  let closeBackend: () => Promise<void>;
  if (backend === "memory") {
    const inMemory = new InMemoryMemoryIndexStore();
    store = inMemory;
    closeBackend = async () => {
      await inMemory.close?.();
    };
  } else {
    const opened = backend === "postgres" ? await openPostgresBackend() : await openSqliteBackend();
    if (typeof opened === "string") return opened;
    store = opened.store;
    closeBackend = () => opened.close();
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-real-corpus-"));
  const hashes = new Map<string, string>();
  const nowOf = new Map<string, number>();
  for (const dataset of datasets) {
    for (const project of dataset.projects) {
      const probe = await openMemoryService({ dataDir, store, workdir: workdirOf(project.name), workdirIsCanonical: true, skipReconcile: true });
      hashes.set(project.name, probe.workdirHash);
      nowOf.set(project.name, project.now);
      await probe.close();
    }
  }
  const byKey = new Map<string, MemoryRecord>();
  for (const dataset of datasets) for (const entry of dataset.entries) byKey.set(entry.key, recordOf(entry, hashes));
  const records = [...byKey.values()];
  for (let start = 0; start < records.length; start += LOAD_BATCH) {
    const outcome = await store.applyBatch(
      records.slice(start, start + LOAD_BATCH).map((record) => ({ kind: "upsert" as const, record })),
      [],
    );
    if (!outcome.ok) throw new Error(`the ${backend} store refused the corpus: ${JSON.stringify(outcome.conflicts).slice(0, 500)}`);
  }
  const projectsByHash = new Map([...hashes].map(([project, hash]) => [hash, project]));
  return {
    store,
    hashes,
    records: byKey,
    projectsByHash,
    keyOf: (record) => `${projectsByHash.get(record.workdirHash) ?? record.workdirHash}/${record.slug}`,
    async openServices(embedder) {
      const services = new Map<string, MemoryService>();
      for (const [project, now] of nowOf) {
        const options = { dataDir, store, workdir: workdirOf(project), workdirIsCanonical: true, skipReconcile: true, now: () => now };
        // `embedder` is MemoryServiceOptions.embedder of issue 40's runtime; passed only when asked.
        services.set(project, await openMemoryService(embedder === undefined ? options : ({ ...options, embedder } as typeof options)));
      }
      return services;
    },
    async close() {
      await closeBackend();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

function recordOf(entry: RealCorpusEntry, hashes: ReadonlyMap<string, string>): MemoryRecord {
  return indexRecord({
    slug: entry.slug,
    scope: "project",
    workdirHash: hashes.get(entry.project)!,
    type: ENTRY_TYPE,
    description: entry.description,
    body: entry.body,
    createdAt: entry.createdAt,
    updatedAt: entry.createdAt,
  });
}

/** The text the runtime embeds for an entry: description, a newline, the body. */
export function embeddingTextOf(entry: { readonly description: string; readonly body: string }): string {
  return `${entry.description}\n${entry.body}`;
}
