import path from "node:path";
import { isDailyArchived } from "../domain/daily-dates.js";
import type { MemoryAuditEntry, MemoryKey, MemoryRecord } from "../domain/memory-types.js";
import type { MemoryIndexChange, MemoryIndexStore } from "../ports/memory-index-store.js";
import { type CurrentEntry, readCurrentEntry, withEntryLocks } from "./memory-entry-io.js";
import { listMemoryFiles, removeMemoryFile } from "./memory-files.js";
import type { MemoryLayout } from "./memory-layout.js";

/** What a reconcile changed in the index. */
export interface MemoryReconcileReport {
  /** Files new to the index, or changed since it last saw them. */
  readonly upserted: number;
  /** Rows whose file is gone. */
  readonly deleted: number;
  /** Daily journals newly archived. */
  readonly archived: number;
  /** Files left out: names that are not entry slugs. */
  readonly skipped: readonly string[];
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;
const DATE = /^daily-\d{4}-\d{2}-\d{2}$/;

/** Files reconciled per lock set and index transaction. */
const RECONCILE_BATCH_SIZE = 200;
/** Entries of one chunk read at the same time. */
const READ_CONCURRENCY = 32;

const keyId = (key: MemoryKey) => `${key.scope}\u0000${key.workdirHash}\u0000${key.slug}`;

/**
 * Brings the index up to the Markdown files: a file the index does not know,
 * or whose mtime or size differ from what the index recorded and whose hash
 * differs too, is parsed and upserted; a row whose file is gone is deleted;
 * a daily journal older than 90 days is marked archived. Entries are taken
 * 200 at a time: their locks are held while each is re-read and the changes
 * go to the index in one batch, so a reconcile beside a writer of another
 * process never undoes that writer's change, and a full reindex costs one
 * transaction per 200 files rather than one per file. Audited as op
 * `reconcile`, actor `reconcile`.
 */
export async function reconcileMemoryIndex(layout: MemoryLayout, store: MemoryIndexStore, now: number, timeZone?: string): Promise<MemoryReconcileReport> {
  const [files, states] = await Promise.all([listMemoryFiles(layout), store.fileStates()]);
  const known = new Map(states.map((state) => [keyId(state), state]));
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  const suspects: MemoryKey[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    // A journal-like name outside daily/ would collide with the journal of that date.
    const valid = file.directory === "daily" ? DATE.test(file.slug) : SLUG.test(file.slug) && !DATE.test(file.slug);
    if (!valid) {
      skipped.push(file.path);
      continue;
    }
    const key: MemoryKey = { scope: file.scope, workdirHash: file.workdirHash, slug: file.slug };
    const id = keyId(key);
    if (seen.has(id)) {
      // The same global slug in global/ and global/user/: the newer wins, the other is removed.
      duplicated.add(id);
      continue;
    }
    seen.add(id);
    const state = known.get(id);
    if (state === undefined || state.fileMtimeMs !== file.mtimeMs || state.fileSize !== file.size) suspects.push(key);
  }
  for (const state of states) if (!seen.has(keyId(state))) suspects.push(state);
  for (const file of files) {
    const key: MemoryKey = { scope: file.scope, workdirHash: file.workdirHash, slug: file.slug };
    if (duplicated.has(keyId(key)) && !suspects.some((suspect) => keyId(suspect) === keyId(key))) suspects.push(key);
  }
  let upserted = 0;
  let deleted = 0;
  let archived = 0;
  for (let start = 0; start < suspects.length; start += RECONCILE_BATCH_SIZE) {
    const chunk = suspects.slice(start, start + RECONCILE_BATCH_SIZE);
    const kinds = await withEntryLocks(layout, chunk, () => reconcileChunk(layout, store, chunk, now, timeZone));
    for (const kind of kinds) {
      if (kind === "upsert") upserted += 1;
      else deleted += 1;
    }
  }
  // Journals that aged past the archive limit since the last open.
  const daily = await store.list({
    scopes: [{ scope: "global", workdirHash: "" }],
    types: ["daily"],
    includeDaily: true,
    includeArchived: false,
    offset: 0,
    limit: 10_000,
  });
  for (const record of daily.records) {
    if (record.dateLocal === undefined || !isDailyArchived(record.dateLocal, new Date(now), timeZone)) continue;
    const done = await withEntryLocks(layout, [record], async () => {
      const current = await readCurrentEntry(layout, store, record);
      if (current.file === undefined || current.record === undefined || current.record.archived) return false;
      const result = await store.applyBatch(
        [{ kind: "upsert", record: { ...current.record, archived: true }, expectedUpdatedAt: current.record.updatedAt }],
        [reconcileAudit(record, now, { archived: true })],
      );
      return result.ok;
    });
    if (done) archived += 1;
  }
  return { upserted, deleted, archived, skipped };
}

/**
 * Reconciles entries whose locks the caller holds: each is re-read under its
 * lock, and every change goes to the index in one batch. When that batch
 * conflicts (a row changed by a writer that does not take the locks), the
 * changes are applied one by one so the others still land; the one that
 * conflicts is left for the next reconcile.
 */
async function reconcileChunk(
  layout: MemoryLayout,
  store: MemoryIndexStore,
  keys: readonly MemoryKey[],
  now: number,
  timeZone?: string,
): Promise<MemoryIndexChange["kind"][]> {
  const currents: CurrentEntry[] = new Array(keys.length);
  let next = 0;
  const reader = async () => {
    while (next < keys.length) {
      const index = next++;
      currents[index] = await readCurrentEntry(layout, store, keys[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, keys.length) }, reader));
  const changes: { change: MemoryIndexChange; audit: MemoryAuditEntry }[] = [];
  for (const current of currents) {
    for (const stale of current.stale ?? []) await removeMemoryFile(path.join(stale.location.directory, stale.location.fileName));
    const change = reconcileChange(current, now, timeZone);
    if (change !== undefined) changes.push(change);
  }
  if (changes.length === 0) return [];
  const result = await store.applyBatch(
    changes.map((change) => change.change),
    changes.map((change) => change.audit),
  );
  if (result.ok) return changes.map((change) => change.change.kind);
  const kinds: MemoryIndexChange["kind"][] = [];
  for (const change of changes) {
    const single = await store.applyBatch([change.change], [change.audit]);
    if (single.ok) kinds.push(change.change.kind);
  }
  return kinds;
}

function reconcileAudit(key: MemoryKey, now: number, detail: Record<string, unknown>): MemoryAuditEntry {
  return { at: now, op: "reconcile", actor: "reconcile", scope: key.scope, workdirHash: key.workdirHash, slug: key.slug, detail };
}

/**
 * The index change that makes the row match the file, or undefined when it
 * already does. The file is left exactly as it is (a hand edit stays
 * verbatim); the row takes its parsed content and its hash, mtime and size.
 */
function reconcileChange(current: CurrentEntry, now: number, timeZone?: string): { change: MemoryIndexChange; audit: MemoryAuditEntry } | undefined {
  const expected = current.record === undefined ? null : current.record.updatedAt;
  if (current.file === undefined) {
    if (current.record === undefined) return undefined;
    return {
      change: { kind: "delete", key: current.key, expectedUpdatedAt: current.record.updatedAt },
      audit: reconcileAudit(current.key, now, { reason: "file_gone" }),
    };
  }
  const { snapshot, document } = current.file;
  if (current.record !== undefined && current.record.bodyHash === snapshot.hash) {
    if (current.record.fileMtimeMs === snapshot.mtimeMs && current.record.fileSize === snapshot.size) return undefined;
  }
  const archived = document.type === "daily" && document.dateLocal !== undefined && isDailyArchived(document.dateLocal, new Date(now), timeZone);
  const changed = current.record?.bodyHash !== snapshot.hash;
  const record: MemoryRecord = {
    ...current.key,
    ...document,
    updatedAt: changed ? Math.max(document.updatedAt, (current.record?.updatedAt ?? 0) + 1) : (current.record?.updatedAt ?? document.updatedAt),
    archived,
    bodyHash: snapshot.hash,
    fileMtimeMs: snapshot.mtimeMs,
    fileSize: snapshot.size,
  };
  return {
    change: { kind: "upsert", record, expectedUpdatedAt: expected },
    audit: reconcileAudit(current.key, now, {
      reason: current.record === undefined ? "new_file" : changed ? "file_changed" : "file_touched",
      hash: snapshot.hash,
    }),
  };
}
