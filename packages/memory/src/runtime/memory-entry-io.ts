import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { type MemoryDocument, parseMemoryMarkdown, renderMemoryMarkdown } from "../domain/memory-markdown.js";
import type { MemoryAuditEntry, MemoryKey, MemoryRecord } from "../domain/memory-types.js";
import type { MemoryBatchConflict, MemoryIndexChange, MemoryIndexStore } from "../ports/memory-index-store.js";
import { type MemoryFileSnapshot, readMemoryFile, removeMemoryFile, withEntryLock, writeMemoryFile } from "./memory-files.js";
import {
  type MemoryEntryLocation,
  type MemoryLayout,
  candidateLocations,
  entryLocation,
  fallbackTypeOf,
  globalDirectory,
  projectDirectory,
} from "./memory-layout.js";

/** An entry as found under its lock: the file (the truth) and the index row. */
export interface CurrentEntry {
  readonly key: MemoryKey;
  /** The index row, if any (its `updatedAt` is the compare-and-swap expectation). */
  readonly record?: MemoryRecord;
  /** The file, if it exists. */
  readonly file?: { readonly location: MemoryEntryLocation; readonly snapshot: MemoryFileSnapshot; readonly document: MemoryDocument };
  /**
   * Older files of the same key in another directory (a global slug in both
   * `global/` and `global/user/`, left by a process killed while it moved
   * the entry on a type change). Every change removes them.
   */
  readonly stale?: readonly { readonly location: MemoryEntryLocation; readonly text: string }[];
}

/** What to do with one entry. */
export type EntryChange =
  | { readonly kind: "upsert"; readonly key: MemoryKey; readonly document: MemoryDocument; readonly archived?: boolean; readonly audit: MemoryAuditEntry }
  | { readonly kind: "delete"; readonly key: MemoryKey; readonly audit: MemoryAuditEntry };

/** Outcome of {@link commitEntryChanges}. */
export type CommitOutcome =
  | { readonly ok: true; readonly records: readonly (MemoryRecord | undefined)[] }
  | { readonly ok: false; readonly conflicts: readonly MemoryBatchConflict[] };

/** Text identity of a key, as answers and locks name it. */
export function keyText(key: MemoryKey): string {
  return key.scope === "global" ? `global/${key.slug}` : `project/${key.slug}`;
}

function filePath(location: MemoryEntryLocation): string {
  return path.join(location.directory, location.fileName);
}

/**
 * Reads an entry's current state: its file (for a global slug, in
 * `global/` or `global/user/`; when both exist, the newer, the other is
 * `stale`) and its index row.
 */
export async function readCurrentEntry(layout: MemoryLayout, store: MemoryIndexStore, key: MemoryKey): Promise<CurrentEntry> {
  const [record, ...files] = await Promise.all([
    store.get(key),
    ...candidateLocations(layout, key).map(async (location) => ({ location, snapshot: await readMemoryFile(filePath(location)) })),
  ]);
  const existing = (files as { location: MemoryEntryLocation; snapshot: MemoryFileSnapshot | undefined }[]).filter(
    (file): file is { location: MemoryEntryLocation; snapshot: MemoryFileSnapshot } => file.snapshot !== undefined,
  );
  existing.sort((a, b) => b.snapshot.mtimeMs - a.snapshot.mtimeMs);
  const [found, ...older] = existing;
  const rowRecord = record as MemoryRecord | undefined;
  if (found === undefined) return { key, record: rowRecord };
  const directory =
    key.scope === "project"
      ? "project"
      : found.location.directory.endsWith(`${path.sep}user`)
        ? "user"
        : found.location.directory.endsWith(`${path.sep}daily`)
          ? "daily"
          : "global";
  // Whole milliseconds: the index keeps times as integers (PostgreSQL bigint); stat's mtime has a fraction.
  const mtimeMs = Math.floor(found.snapshot.mtimeMs);
  const parsed = parseMemoryMarkdown(found.snapshot.text, { type: fallbackTypeOf(key.scope, directory), slug: key.slug, mtimeMs });
  const wholeMs = (value: number) => (Number.isFinite(value) ? Math.floor(value) : mtimeMs);
  const document: MemoryDocument = { ...parsed, createdAt: wholeMs(parsed.createdAt), updatedAt: wholeMs(parsed.updatedAt) };
  const stale = older.map((file) => ({ location: file.location, text: file.snapshot.text }));
  return { key, record: rowRecord, file: { location: found.location, snapshot: found.snapshot, document }, ...(stale.length === 0 ? {} : { stale }) };
}

/** The lock location of a key (independent of its type, see {@link entryLocation}). */
export function lockLocationOf(layout: MemoryLayout, key: MemoryKey): MemoryEntryLocation {
  return candidateLocations(layout, key)[0]!;
}

/**
 * Runs `action` holding the locks of every key (taken in one sorted order,
 * so two batches over the same keys cannot deadlock).
 */
export function withEntryLocks<T>(layout: MemoryLayout, keys: readonly MemoryKey[], action: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return withLocks(
    keys.map((key) => lockLocationOf(layout, key)),
    action,
    signal,
  );
}

/** The lock name of a scope's quota: no slug can take it (slugs are `[a-z0-9-]`). */
const QUOTA_LOCK_NAME = "_quota";

/**
 * Runs `action` holding the quota lock of every scope of `keys`: the
 * cross-process lock under which a new entry of the scope is counted and
 * committed, so writers in separate registries or processes cannot all see
 * room for one more and together go past the quota. Taken only while holding
 * the entries' own locks (never the other way round), so it cannot deadlock.
 */
export function withQuotaLocks<T>(layout: MemoryLayout, keys: readonly MemoryKey[], action: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return withLocks(
    keys.map((key) => {
      const directory = key.scope === "project" ? projectDirectory(layout, key.workdirHash) : globalDirectory(layout);
      return { directory, fileName: QUOTA_LOCK_NAME, lockDirectory: directory, lockName: QUOTA_LOCK_NAME };
    }),
    action,
    signal,
  );
}

/** Takes the locks of `locations` (each once) in one sorted order, then runs `action`. */
function withLocks<T>(locations: readonly MemoryEntryLocation[], action: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const unique = new Map<string, MemoryEntryLocation>();
  for (const location of locations) unique.set(path.join(location.lockDirectory, location.lockName), location);
  const ordered = [...unique.keys()].sort().map((name) => unique.get(name)!);
  const run = (index: number): Promise<T> => (index === ordered.length ? action() : withEntryLock(ordered[index]!, () => run(index + 1), signal));
  return run(0);
}

/** A timestamp later than both `now` and what the entry last had, so compare-and-swap expectations always move. */
export function nextUpdatedAt(now: number, current: CurrentEntry): number {
  return Math.max(now, (current.record?.updatedAt ?? 0) + 1, (current.file?.document.updatedAt ?? 0) + 1);
}

interface Undo {
  readonly location: MemoryEntryLocation;
  /** The text to put back; undefined to remove the file. */
  readonly previous?: string;
}

/**
 * Applies changes to entries whose locks the caller holds: writes (or
 * removes) every file, then applies one index batch with a compare-and-swap
 * on each row's `updatedAt` as it was read. When the batch fails or
 * conflicts, every file is put back as it was, so the files and the index
 * never disagree after an answer (a process killed in between leaves files
 * the next open's reconcile brings the index up to).
 */
export async function commitEntryChanges(
  layout: MemoryLayout,
  store: MemoryIndexStore,
  changes: readonly { change: EntryChange; current: CurrentEntry }[],
): Promise<CommitOutcome> {
  const undo: Undo[] = [];
  const indexChanges: MemoryIndexChange[] = [];
  const records: (MemoryRecord | undefined)[] = [];
  try {
    for (const { change, current } of changes) {
      const expectedUpdatedAt = current.record?.updatedAt ?? null;
      for (const stale of current.stale ?? []) {
        undo.push({ location: stale.location, previous: stale.text });
        await removeMemoryFile(filePath(stale.location));
      }
      if (change.kind === "delete") {
        if (current.file !== undefined) {
          undo.push({ location: current.file.location, previous: current.file.snapshot.text });
          await removeMemoryFile(filePath(current.file.location));
        }
        indexChanges.push({ kind: "delete", key: change.key, ...(expectedUpdatedAt === null ? {} : { expectedUpdatedAt }) });
        records.push(undefined);
        continue;
      }
      const location = entryLocation(layout, change.key, change.document.type);
      const moved = current.file !== undefined && filePath(current.file.location) !== filePath(location);
      undo.push({ location, previous: moved ? undefined : current.file?.snapshot.text });
      const written = await writeMemoryFile(location.directory, location.fileName, renderMemoryMarkdown(change.document));
      if (moved && current.file !== undefined) {
        undo.push({ location: current.file.location, previous: current.file.snapshot.text });
        await removeMemoryFile(filePath(current.file.location));
      }
      const record: MemoryRecord = {
        ...change.key,
        ...change.document,
        archived: change.archived ?? false,
        bodyHash: written.hash,
        fileMtimeMs: written.mtimeMs,
        fileSize: written.size,
      };
      indexChanges.push({ kind: "upsert", record, expectedUpdatedAt });
      records.push(record);
    }
    const result = await store.applyBatch(
      indexChanges,
      changes.map(({ change }) => change.audit),
    );
    if (!result.ok) {
      await rollBack(undo);
      return { ok: false, conflicts: result.conflicts };
    }
    return { ok: true, records };
  } catch (error) {
    await rollBack(undo);
    if (error instanceof ToolError) throw error;
    throw new ToolError("io", `The memory change was not saved: ${error instanceof Error ? error.message : String(error)}. Retry later.`, { cause: error });
  }
}

async function rollBack(undo: readonly Undo[]): Promise<void> {
  for (const step of [...undo].reverse()) {
    try {
      if (step.previous === undefined) await removeMemoryFile(filePath(step.location));
      else await writeMemoryFile(step.location.directory, step.location.fileName, step.previous);
    } catch {
      // The next open's reconcile brings the index up to whatever the file holds.
    }
  }
}
