/** Progress of a long Grep or Glob: counts kept as the search goes, reported at most once an interval. */
import { SdkError } from "@agent-tools/core";

/** Milliseconds a Grep or Glob runs before its first progress update, and between two updates (see `FsToolBundleOptions.progressIntervalMs`). */
export const DEFAULT_PROGRESS_INTERVAL_MS = 1000;

/** Count changes between two looks at the clock: a search counts thousands of files a millisecond. */
const CHANGES_PER_CLOCK_CHECK = 64;

/** Longest delay `setTimeout` takes (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The interval option, checked: a positive number of milliseconds
 * (`Infinity` turns updates off); undefined gives the default. Anything
 * else throws `SdkError` (`invalid_options`).
 */
export function progressIntervalOption(value: unknown): number {
  if (value === undefined) return DEFAULT_PROGRESS_INTERVAL_MS;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
    throw new SdkError(
      "invalid_options",
      `fs.progressIntervalMs must be a positive number of milliseconds (got ${shown}); use e.g. ${DEFAULT_PROGRESS_INTERVAL_MS} (the default), or Infinity for no progress updates.`,
      { option: "fs.progressIntervalMs" },
    );
  }
  return value;
}

/**
 * Counts of a running search and when to report them. Nothing is reported
 * before `intervalMs` has passed, then at most once per `intervalMs`:
 * from a timer (a search waiting on ripgrep) or, when the counts change, at
 * most every 64 changes after a look at the clock (a search busy on the main
 * thread, where no timer runs). Reported counts never go down, even when a
 * search counts a second pass from zero ({@link newPass}). {@link stop}
 * ends the reports; the timer never keeps the process alive.
 *
 * @example
 * const progress = new SearchProgress(1000, { matches: 0 }, (counts) => context.onUpdate({ data: counts }));
 * try { progress.counts.matches += 1; progress.changed(); } finally { progress.stop(); }
 */
export class SearchProgress<Counts extends Record<string, number>> {
  /** The counts so far: add to them, then call {@link changed}. */
  readonly counts: Counts;
  private reported: Counts;
  private readonly startedAt = performance.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private changes = 0;
  private nextDue: number;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    initial: Counts,
    private readonly report: (counts: Counts, elapsedMs: number) => void,
  ) {
    this.counts = { ...initial };
    this.reported = { ...initial };
    this.nextDue = this.startedAt + intervalMs;
    this.schedule();
  }

  /** Call after changing {@link counts}: reports them when an interval has passed (looking at the clock every 64 calls). */
  changed(): void {
    if (++this.changes < CHANGES_PER_CLOCK_CHECK) return;
    this.changes = 0;
    if (!this.stopped && performance.now() >= this.nextDue) this.emit();
  }

  /** A new pass over the same files starts counting from zero; reports keep at least what was reported. */
  newPass(): void {
    for (const key of Object.keys(this.counts) as Array<keyof Counts>) {
      if (this.counts[key] > this.reported[key]) this.reported[key] = this.counts[key];
      (this.counts as Record<keyof Counts, number>)[key] = 0;
    }
  }

  /** Ends the reports (call when the search ends, however it ends). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private emit(): void {
    const now = performance.now();
    const counts = { ...this.counts };
    for (const key of Object.keys(counts) as Array<keyof Counts>) {
      if (this.reported[key] > counts[key]) (counts as Record<keyof Counts, number>)[key] = this.reported[key];
    }
    this.reported = { ...counts };
    this.nextDue = now + this.intervalMs;
    this.schedule();
    try {
      this.report(counts, Math.round(now - this.startedAt));
    } catch {
      // Progress never changes a search's outcome: a failing receiver is its own affair.
    }
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped || !Number.isFinite(this.intervalMs)) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (this.stopped) return;
        // A timer may fire a fraction of a millisecond early, and a long interval is waited for in pieces.
        if (performance.now() >= this.nextDue - 1) this.emit();
        else this.schedule();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, this.nextDue - performance.now())),
    );
    this.timer.unref?.();
  }
}

/** The `data` of a Grep progress update (`onUpdate`); the counts never go down and never pass the result's. */
export interface GrepProgress {
  kind: "grep_progress";
  /** Matching lines found so far (the result's `matchCount` is the total). */
  matchCount: number;
  /** Files with a match found so far (the result's `fileCount` is the total). */
  fileCount: number;
  /**
   * Files the walk has handed to the search so far: only with the pure
   * TypeScript engine (ripgrep tells only of the files that match).
   */
  filesScanned?: number;
  /** Milliseconds since the search started. */
  elapsedMs: number;
  /** The counts in one line, e.g. "Grep: searching, 1,204 matching lines in 87 files so far (3 s)". */
  message: string;
}

/** The `data` of a Glob progress update (`onUpdate`); the counts never go down. */
export interface GlobProgress {
  kind: "glob_progress";
  /** Files matching the pattern so far (the result's `totalMatches` is the total). */
  totalMatches: number;
  /** Files the walk has seen so far (ignored ones not included). */
  filesWalked: number;
  /** Directories the walk has read so far. */
  directoriesWalked: number;
  /** Milliseconds since the walk started. */
  elapsedMs: number;
  /** The counts in one line, e.g. "Glob: walking, 40,112 files in 3,020 directories so far, 212 matching (2 s)". */
  message: string;
}

function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

function formatSeconds(elapsedMs: number): string {
  return `${Math.round(elapsedMs / 1000)} s`;
}

/** Grep's progress counter: reports {@link GrepProgress} through `onUpdate`; `filesScanned` only when `scans` (the TypeScript engine). */
export function grepProgress(
  intervalMs: number,
  scans: boolean,
  onUpdate: (update: { data: GrepProgress }) => void,
): SearchProgress<{ matchCount: number; fileCount: number; filesScanned: number }> {
  return new SearchProgress(intervalMs, { matchCount: 0, fileCount: 0, filesScanned: 0 }, (counts, elapsedMs) => {
    const scanned = scans ? `${formatCount(counts.filesScanned)} files to search, ` : "";
    const message = `Grep: searching, ${formatCount(counts.matchCount)} matching lines in ${formatCount(counts.fileCount)} files so far (${scanned}${formatSeconds(elapsedMs)})`;
    const data: GrepProgress = { kind: "grep_progress", matchCount: counts.matchCount, fileCount: counts.fileCount, elapsedMs, message };
    if (scans) data.filesScanned = counts.filesScanned;
    onUpdate({ data });
  });
}

/** Glob's progress counter: reports {@link GlobProgress} through `onUpdate`. */
export function globProgress(
  intervalMs: number,
  onUpdate: (update: { data: GlobProgress }) => void,
): SearchProgress<{ totalMatches: number; filesWalked: number; directoriesWalked: number }> {
  return new SearchProgress(intervalMs, { totalMatches: 0, filesWalked: 0, directoriesWalked: 0 }, (counts, elapsedMs) => {
    const message = `Glob: walking, ${formatCount(counts.filesWalked)} files in ${formatCount(counts.directoriesWalked)} directories so far, ${formatCount(counts.totalMatches)} matching (${formatSeconds(elapsedMs)})`;
    onUpdate({ data: { kind: "glob_progress", ...counts, elapsedMs, message } });
  });
}
