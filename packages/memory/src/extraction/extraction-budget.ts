/**
 * The budget of silent extraction, as a state machine with the time passed
 * in. Invariants: at most one run at a time; a run counts as over after 45 s
 * even if it never reports back; a new run starts no sooner than 30 s after
 * the previous one started; the model sees the last 4 turns; the last 16
 * slugs extraction wrote and the last 16 slugs the user rejected are
 * remembered (oldest dropped first; a slug seen again moves to the end).
 */

/** Limits of silent extraction (see {@link MEMORY_EXTRACTION_LIMITS}). */
export interface MemoryExtractionLimits {
  readonly timeoutMs: number;
  readonly minIntervalMs: number;
  readonly windowTurns: number;
  readonly slugRingSize: number;
}

/** The limits of silent extraction. */
export const MEMORY_EXTRACTION_LIMITS: MemoryExtractionLimits = {
  /** A run is aborted after this long. */
  timeoutMs: 45_000,
  /** Least time between the starts of two runs. */
  minIntervalMs: 30_000,
  /** Turns the model is shown. */
  windowTurns: 4,
  /** Recent written or rejected slugs remembered. */
  slugRingSize: 16,
};

/** Why a run may not start now. */
export type MemoryExtractionBlock = "running" | "too_soon";

/**
 * Budget of one conversation's extraction runs.
 *
 * @example
 * const budget = new MemoryExtractionBudget();
 * if (budget.canStart(now).ok) { budget.started(now); ...; budget.finished(later, ["dark-mode"]); }
 */
export class MemoryExtractionBudget {
  readonly #limits: MemoryExtractionLimits;
  #runningSince: number | undefined;
  #lastStartedAt: number | undefined;
  #lastFinishedAt: number | undefined;
  readonly #writtenSlugs: string[] = [];
  readonly #rejectedSlugs: string[] = [];

  constructor(limits: Partial<MemoryExtractionLimits> = {}) {
    this.#limits = { ...MEMORY_EXTRACTION_LIMITS, ...limits };
  }

  /** The limits in force. */
  get limits(): MemoryExtractionLimits {
    return this.#limits;
  }

  /** Whether a run may start at `now` (epoch ms), and if not, why and when it may. */
  canStart(now: number): { ok: true } | { ok: false; reason: MemoryExtractionBlock; retryAt: number } {
    if (this.#runningSince !== undefined && now - this.#runningSince < this.#limits.timeoutMs) {
      return { ok: false, reason: "running", retryAt: Math.max(this.#runningSince + this.#limits.timeoutMs, this.#nextAllowed()) };
    }
    const nextAllowed = this.#nextAllowed();
    if (now < nextAllowed) return { ok: false, reason: "too_soon", retryAt: nextAllowed };
    return { ok: true };
  }

  /** Records the start of a run at `now`. Call only after `canStart(now).ok`. */
  started(now: number): void {
    this.#runningSince = now;
    this.#lastStartedAt = now;
  }

  /** Deadline of the run started at `startedAt`: the time it is aborted. */
  deadline(startedAt: number): number {
    return startedAt + this.#limits.timeoutMs;
  }

  /** Records the end of a run at `now` with the slugs it wrote. */
  finished(now: number, writtenSlugs: readonly string[]): void {
    this.#runningSince = undefined;
    this.#lastFinishedAt = now;
    pushRing(this.#writtenSlugs, writtenSlugs, this.#limits.slugRingSize);
  }

  /** When the last run finished (epoch ms), if one has. */
  get lastFinishedAt(): number | undefined {
    return this.#lastFinishedAt;
  }

  /** The last turns the model is shown (the newest `windowTurns`, oldest first). */
  window<T>(turns: readonly T[]): T[] {
    return turns.slice(Math.max(0, turns.length - this.#limits.windowTurns));
  }

  /** The last slugs extraction runs wrote, oldest first (at most `slugRingSize`). */
  recentWrittenSlugs(): readonly string[] {
    return [...this.#writtenSlugs];
  }

  /** The last slugs the user rejected, oldest first (at most `slugRingSize`). */
  recentRejectedSlugs(): readonly string[] {
    return [...this.#rejectedSlugs];
  }

  /**
   * Records slugs the user rejected (e.g. deleted an extractor's entry): a
   * later plan may only write them again with `override_reject`.
   */
  rememberRejected(slugs: readonly string[]): void {
    pushRing(this.#rejectedSlugs, slugs, this.#limits.slugRingSize);
  }

  #nextAllowed(): number {
    return this.#lastStartedAt === undefined ? Number.NEGATIVE_INFINITY : this.#lastStartedAt + this.#limits.minIntervalMs;
  }
}

function pushRing(ring: string[], slugs: readonly string[], size: number): void {
  for (const slug of slugs) {
    const existing = ring.indexOf(slug);
    if (existing !== -1) ring.splice(existing, 1);
    ring.push(slug);
  }
  if (ring.length > size) ring.splice(0, ring.length - size);
}
