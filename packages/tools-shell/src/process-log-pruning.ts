import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

/** How many finished ManagedProcess entries `<dataDir>/process-logs` keeps by default. */
export const PROCESS_LOG_MAX_ENTRIES = 200;
/** How old (by last write) a finished entry may get by default: 30 days. */
export const PROCESS_LOG_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1_000;

/** Limits of {@link pruneProcessLogs}. */
export interface ProcessLogRetention {
  /** Finished entries kept, newest first; default {@link PROCESS_LOG_MAX_ENTRIES}. */
  maxEntries?: number;
  /** Finished entries last written longer ago than this are removed; default {@link PROCESS_LOG_MAX_AGE_MS}. */
  maxAgeMs?: number;
}

const ENTRY_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(json|log)$/i;

/**
 * Removes finished ManagedProcess entries (`<id>.json` with its `<id>.log`)
 * from `directory`: every one last written more than `maxAgeMs` ago, then
 * the oldest beyond `maxEntries`. An entry whose process `isRunning` says is
 * alive is never touched, whatever its age. Only files named `<uuid>.json` /
 * `<uuid>.log` are considered; anything else in the directory stays.
 * Best effort: a file that cannot be read or removed is left for next time.
 *
 * @returns the ids removed.
 * @example
 * pruneProcessLogs(path.join(dataDir, "process-logs"), { maxEntries: 200 }, (id) => manager.isRunning(dataDir, id));
 */
export function pruneProcessLogs(directory: string, retention: ProcessLogRetention, isRunning: (processId: string) => boolean, now = Date.now()): string[] {
  const maxEntries = retention.maxEntries ?? PROCESS_LOG_MAX_ENTRIES;
  const maxAgeMs = retention.maxAgeMs ?? PROCESS_LOG_MAX_AGE_MS;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  // An entry's age is its newest file: the log is written until the process ends.
  const lastWrite = new Map<string, number>();
  for (const name of names) {
    const match = ENTRY_FILE.exec(name);
    if (!match) continue;
    const id = match[1]!;
    try {
      lastWrite.set(id, Math.max(lastWrite.get(id) ?? 0, statSync(path.join(directory, name)).mtimeMs));
    } catch {
      // removed meanwhile (another host pruning)
    }
  }
  const finished = [...lastWrite.entries()].filter(([id]) => !isRunning(id)).sort((a, b) => b[1] - a[1]);
  const removed: string[] = [];
  finished.forEach(([id, mtimeMs], index) => {
    if (index < maxEntries && now - mtimeMs <= maxAgeMs) return;
    try {
      // The record goes first: without it the entry no longer counts as a process.
      rmSync(path.join(directory, `${id}.json`), { force: true });
      rmSync(path.join(directory, `${id}.log`), { force: true });
      removed.push(id);
    } catch {
      // permissions or a busy file: try again at the next prune
    }
  });
  return removed;
}
