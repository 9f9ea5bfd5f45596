/**
 * Cron schedules of six fields (second minute hour day-of-month month
 * day-of-week), parsed and enumerated with croner, a pure computation
 * library: no timers are started (`paused: true`, no callback).
 */
import { Cron } from "croner";

/** An example of a valid schedule, quoted in messages. */
export const CRON_SCHEDULE_EXAMPLE = "0 */5 * * * *";

/** Most occurrences {@link occurrencesBetween} returns by default. */
export const CRON_OCCURRENCES_MAX_DEFAULT = 1_000;

/** The outcome of {@link parseCronSchedule}. */
export type CronScheduleCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

const FIELD_HELP = `six fields "second minute hour day-of-month month day-of-week", e.g. "${CRON_SCHEDULE_EXAMPLE}" (every 5 minutes) or "0 30 9 * * MON-FRI" (09:30 on weekdays)`;

function compile(expression: string, timeZone?: string): Cron {
  return new Cron(expression.trim(), { paused: true, mode: "6-part", ...(timeZone === undefined ? {} : { timezone: timeZone }) });
}

/**
 * Checks a schedule: exactly six whitespace-separated fields that croner
 * accepts (ranges, steps, lists, names such as `MON` or `JAN`, `?`, `L`).
 * Five-field, seven-field and nickname (`@daily`) forms are refused.
 *
 * @example
 * parseCronSchedule("0 *\/5 * * * *"); // { ok: true }
 * parseCronSchedule("*\/5 * * * *"); // { ok: false, message: "cron has 5 fields; ..." }
 */
export function parseCronSchedule(expression: string): CronScheduleCheck {
  const trimmed = expression.trim();
  if (trimmed === "") return { ok: false, message: `cron is empty; give ${FIELD_HELP}.` };
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 6) {
    return { ok: false, message: `cron "${trimmed}" has ${fields.length} field${fields.length === 1 ? "" : "s"}; it needs exactly ${FIELD_HELP}.` };
  }
  try {
    compile(trimmed);
    return { ok: true };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/^CronPattern:\s*/, "");
    return { ok: false, message: `cron "${trimmed}" is not a valid schedule (${reason}); give ${FIELD_HELP}.` };
  }
}

/**
 * True when `timeZone` is an IANA zone name (or offset name) the runtime
 * knows, e.g. `Europe/Berlin` or `UTC`.
 */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Throws a plain Error when the schedule is invalid (callers validate first). */
function compileValid(expression: string, timeZone?: string): Cron {
  const check = parseCronSchedule(expression);
  if (!check.ok) throw new Error(check.message);
  return compile(expression, timeZone);
}

/**
 * The next `count` fire times strictly after `after` (epoch ms), read in
 * `timeZone` (an IANA name; default the process's local zone). Fewer when
 * the schedule ends (e.g. `0 0 0 31 2 *` never fires: none). Throws on an
 * invalid schedule or time zone; validate with {@link parseCronSchedule}.
 *
 * @example
 * nextFireTimes("0 0 * * * *", Date.UTC(2026, 0, 1, 10, 30), 2); // [11:00, 12:00] as epoch ms
 */
export function nextFireTimes(expression: string, after: number, count: number, timeZone?: string): number[] {
  if (count <= 0) return [];
  return compileValid(expression, timeZone)
    .nextRuns(count, new Date(after))
    .map((date) => date.getTime());
}

/**
 * The occurrences a scheduler tick fires: every fire time `t` with
 * `fromExclusive < t <= toInclusive`, oldest first, at most `max`
 * (default {@link CRON_OCCURRENCES_MAX_DEFAULT}; the caller decides what
 * to do with a longer gap, e.g. keep only the latest).
 *
 * @example
 * occurrencesBetween("*\/10 * * * * *", t0, t0 + 30_000); // the 10 s marks after t0 up to and including t0 + 30 s
 */
export function occurrencesBetween(
  expression: string,
  fromExclusive: number,
  toInclusive: number,
  timeZone?: string,
  max: number = CRON_OCCURRENCES_MAX_DEFAULT,
): number[] {
  if (toInclusive <= fromExclusive || max <= 0) return [];
  const cron = compileValid(expression, timeZone);
  const found: number[] = [];
  let cursor = new Date(fromExclusive);
  // In growing batches (2, 4, ... 128): usually one or two fire times are due, and asking croner for many more past
  // `toInclusive` is what costs (each one in a time zone is a few tens of microseconds); a long gap still takes few calls.
  let size = 2;
  while (found.length < max) {
    const batch = cron.nextRuns(Math.min(size, max - found.length), cursor);
    size = Math.min(size * 2, 128);
    if (batch.length === 0) break;
    for (const date of batch) {
      const time = date.getTime();
      if (time > toInclusive) return found;
      found.push(time);
    }
    cursor = batch[batch.length - 1]!;
  }
  return found;
}
