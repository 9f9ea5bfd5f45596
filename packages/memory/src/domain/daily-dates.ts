import { MEMORY_LIMITS } from "./memory-types.js";

/**
 * Dates of the daily journal. The journal day starts at 04:00 local time, so
 * work past midnight still lands in the evening's journal. All functions take
 * the time as an argument; none reads the clock.
 */

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAILY_SLUG_DATE_PATTERN = /^daily-(\d{4}-\d{2}-\d{2})$/;

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
}

function wallClock(now: Date, timeZone: string | undefined): WallClock {
  if (timeZone === undefined) {
    return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate(), hour: now.getHours() };
  }
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((entry) => entry.type === type)?.value);
  return { year: part("year"), month: part("month"), day: part("day"), hour: part("hour") % 24 };
}

function formatUtcDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` date, or undefined when it is not a
 * real calendar date.
 */
export function dateLocalToEpochDay(dateLocal: string): number | undefined {
  const match = DATE_PATTERN.exec(dateLocal);
  if (match === null) return undefined;
  const epochMs = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (formatUtcDate(epochMs) !== dateLocal) return undefined;
  return epochMs / DAY_MS;
}

/**
 * The journal date (`YYYY-MM-DD`) at `now`: the local calendar date, minus
 * one day before 04:00. With `timeZone` (an IANA name) the wall clock of that
 * zone is used, else the process's local time. Calendar arithmetic on the
 * wall clock keeps daylight-saving days right.
 *
 * @example
 * dailyDateLocal(new Date("2026-03-05T03:59:00Z"), "UTC"); // "2026-03-04"
 */
export function dailyDateLocal(now: Date, timeZone?: string): string {
  const clock = wallClock(now, timeZone);
  const shift = clock.hour < MEMORY_LIMITS.dailyRolloverHour ? 1 : 0;
  return formatUtcDate(Date.UTC(clock.year, clock.month - 1, clock.day - shift));
}

/**
 * True when the journal of `dateLocal` is more than 90 days older than the
 * journal date at `now` (archived journals leave search and list unless
 * asked for). An unreadable date is not archived.
 */
export function isDailyArchived(dateLocal: string, now: Date, timeZone?: string): boolean {
  const day = dateLocalToEpochDay(dateLocal);
  const today = dateLocalToEpochDay(dailyDateLocal(now, timeZone));
  if (day === undefined || today === undefined) return false;
  return today - day > MEMORY_LIMITS.dailyArchiveDays;
}

/** The date of a `daily-YYYY-MM-DD` slug, or undefined for any other slug or an impossible date. */
export function dailyDateFromSlug(slug: string): string | undefined {
  const date = DAILY_SLUG_DATE_PATTERN.exec(slug)?.[1];
  return date !== undefined && dateLocalToEpochDay(date) !== undefined ? date : undefined;
}
