import { type Dirent, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { DurableProcessLauncher } from "@agent-tools/node/internal";

/** Names a session directory may have (a session id, or `managed-<process_id>`). */
export const DURABLE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** What {@link surveyDurableSessions} found. */
export interface DurableSessionSurvey {
  /** Sessions whose supervisor is alive (their command or what it left still runs). */
  readonly running: number;
  /** Directories removed. */
  readonly removed: readonly string[];
}

/**
 * One pass over the sessions directory: counts the sessions still
 * supervised, and with `retentionMs` removes the directories of sessions
 * that are over, last touched longer ago than that: whose whole tree ended,
 * or (lost) whose supervisor and processes are all gone. Entries that are not
 * plain directories with a session name are left alone; removal never
 * follows a symlink.
 */
export function surveyDurableSessions(dir: string, launcher: DurableProcessLauncher, retentionMs: number | undefined, now = Date.now()): DurableSessionSurvey {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { running: 0, removed: [] };
  }
  let running = 0;
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !DURABLE_ID_PATTERN.test(entry.name)) continue;
    const directory = path.join(dir, entry.name);
    const view = launcher.inspect(directory);
    if (view.supervisorAlive) {
      running += 1;
      continue;
    }
    if (retentionMs === undefined) continue;
    const touched = view.state?.updatedAt ?? launcher.readSpec(directory)?.createdAt;
    if (touched === undefined || now - touched < retentionMs) continue;
    const over = view.state?.treeEnded === true || (!view.processAlive && launcher.treeMembers(directory).length === 0);
    if (!over) continue;
    rmSync(directory, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return { running, removed };
}
