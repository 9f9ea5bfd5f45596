import path from "node:path";
import { readJsonFile, writeJsonAtomic } from "@agent-tools/node/internal";

/** Calls whose start is remembered, per session (the newest kept). */
const REMEMBERED_CALLS = 64;

interface CursorFile {
  /** The end of the last page a call returned. */
  delivered: number;
  /** Call id -> the cursor that call read from, oldest first. */
  calls: [string, number][];
}

/**
 * The persisted read position of one durable session (`cursor.json`): where
 * the last page handed to the model ended, and where each recent call
 * started. A call that runs again after a crash (same call id) reads from
 * the same start, so it returns the same bytes first; a new call without a
 * cursor continues after the last page. Both are written (whole, by rename)
 * before the page is returned, so a host killed at any instant loses no byte
 * and repeats none.
 */
export class DurableReadCursor {
  private readonly file: string;

  constructor(directory: string) {
    this.file = path.join(directory, "cursor.json");
  }

  /** The cursor a call reads from: the given one, this call's earlier start, or the end of the last page. */
  begin(callId: string, cursor: number | undefined): number {
    if (cursor !== undefined) return cursor;
    const state = this.load();
    return state.calls.find(([id]) => id === callId)?.[1] ?? state.delivered;
  }

  /** Records that a call was handed bytes up to `end`, and (given its id) that it read from `start`. */
  end(callId: string | undefined, start: number, end: number): void {
    const state = this.load();
    const calls = state.calls.filter(([id]) => id !== callId);
    if (callId !== undefined) calls.push([callId, start]);
    writeJsonAtomic(this.file, { delivered: end, calls: calls.slice(-REMEMBERED_CALLS) } satisfies CursorFile);
  }

  /** The end of the last page handed out (0 before any). */
  get delivered(): number {
    return this.load().delivered;
  }

  private load(): CursorFile {
    const state = readJsonFile<CursorFile>(this.file);
    if (!state || typeof state.delivered !== "number" || !Array.isArray(state.calls)) return { delivered: 0, calls: [] };
    return state;
  }
}
