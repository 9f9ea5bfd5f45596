/**
 * The latest occurrence of a six-field cron expression in a window, for the
 * scheduler's missed-run policy (croner, seconds first; the domain's
 * `occurrencesBetween` gives the earliest ones).
 */
import { Cron } from "croner";

const cache = new Map<string, Cron>();

function schedule(expression: string, timeZone: string | undefined): Cron {
  const key = `${timeZone ?? ""}\u0000${expression}`;
  let cron = cache.get(key);
  if (cron === undefined) {
    cron = new Cron(expression, { paused: true, ...(timeZone ? { timezone: timeZone } : {}) });
    if (cache.size > 500) cache.clear();
    cache.set(key, cron);
  }
  return cron;
}

/** The latest occurrence in `(fromExclusive, toInclusive]`, or undefined. */
export function latestOccurrence(expression: string, fromExclusive: number, toInclusive: number, timeZone: string | undefined): number | undefined {
  const [latest] = schedule(expression, timeZone).previousRuns(1, new Date(toInclusive + 1));
  if (latest === undefined) return undefined;
  const at = latest.getTime();
  return at > fromExclusive && at <= toInclusive ? at : undefined;
}
