/** Default and maximum timeout of a synchronous command, in milliseconds. */
export interface TimeoutLimits {
  defaultMs: number;
  maxMs: number;
}

/** The per-provider table of the synchronous Bash path. */
export const PROVIDER_TIMEOUTS: Readonly<Record<string, TimeoutLimits>> = {
  claude_code: { defaultMs: 120_000, maxMs: 600_000 },
  codex: { defaultMs: 30_000, maxMs: 30_000 },
  gemini: { defaultMs: 30_000, maxMs: 30_000 },
  xai: { defaultMs: 30_000, maxMs: 30_000 },
  deepseek: { defaultMs: 30_000, maxMs: 30_000 },
};

/** Limits for providers not in the table. */
export const DEFAULT_TIMEOUT_LIMITS: TimeoutLimits = { defaultMs: 120_000, maxMs: 600_000 };

/** The lowest timeout any path accepts. */
export const MIN_TIMEOUT_MS = 1_000;
/** The highest timeout any path accepts (also the sessions' `max_timeout_ms`). */
export const MAX_TIMEOUT_MS = 600_000;

/** Resumable sessions: the initial wait (default 10 s, 250..30000). */
export const SESSION_YIELD = { defaultMs: 10_000, minMs: 250, maxMs: 30_000 } as const;
/** ProcessWait and ManagedProcess wait: default 30 s, 5000..300000. */
export const WAIT_YIELD = { defaultMs: 30_000, minMs: 5_000, maxMs: 300_000 } as const;

/** Limits for a provider id (unknown ids get the defaults). */
export function timeoutLimitsFor(providerId: string | undefined): TimeoutLimits {
  return (providerId && PROVIDER_TIMEOUTS[providerId]) || DEFAULT_TIMEOUT_LIMITS;
}

/** Clamps `value` (floored) to `[min, max]`; undefined or not finite gives `fallback`. */
export function clampInteger(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

/** The synchronous timeout: `min(max, max(1000, floor(v)))`, then within [1000, 600000]. */
export function resolveSyncTimeout(value: number | undefined, providerId: string | undefined): number {
  const limits = timeoutLimitsFor(providerId);
  const chosen = value === undefined || !Number.isFinite(value) ? limits.defaultMs : Math.min(limits.maxMs, Math.max(MIN_TIMEOUT_MS, Math.floor(value)));
  return clampInteger(chosen, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_LIMITS.defaultMs);
}

/** The resumable hard timeout: none by default, else clamped to [1000, 600000]; the provider cap does not apply. */
export function resolveSessionTimeout(value: number | undefined): number | undefined {
  if (value === undefined || !Number.isFinite(value)) return undefined;
  return clampInteger(value, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, MAX_TIMEOUT_MS);
}
