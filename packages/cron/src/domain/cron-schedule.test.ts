import { describe, expect, it } from "vitest";
import { CRON_SCHEDULE_EXAMPLE, isValidTimeZone, nextFireTimes, occurrencesBetween, parseCronSchedule } from "./cron-schedule.js";

const T0 = Date.UTC(2026, 0, 1, 10, 30, 0);

describe("parseCronSchedule", () => {
  it("accepts six-field schedules croner understands", () => {
    for (const expression of [
      CRON_SCHEDULE_EXAMPLE,
      "* * * * * *",
      "0 30 9 * * MON-FRI",
      "0 0 0 1 JAN *",
      "0 0 0 ? * *",
      "0 0 0 L * *",
      "  0 0 12 * * *  ",
      "0\t0\t12 * * *",
    ]) {
      expect(parseCronSchedule(expression), expression).toEqual({ ok: true });
    }
  });

  it("refuses five, seven and other field counts, naming the count and showing an example", () => {
    for (const [expression, count] of [
      ["*/5 * * * *", 5],
      ["0 0 0 * * * 2026", 7],
      ["@daily", 1],
      ["0", 1],
    ] as const) {
      const check = parseCronSchedule(expression);
      expect(check.ok, expression).toBe(false);
      if (check.ok) continue;
      expect(check.message).toContain(`has ${count} field`);
      expect(check.message).toContain("exactly six fields");
      expect(check.message).toContain(CRON_SCHEDULE_EXAMPLE);
    }
  });

  it("refuses an empty schedule and values croner rejects, with croner's reason", () => {
    const empty = parseCronSchedule("   ");
    expect(empty).toEqual({ ok: false, message: expect.stringContaining("cron is empty") });
    const second = parseCronSchedule("61 * * * * *");
    expect(second).toEqual({ ok: false, message: expect.stringContaining("Invalid value for second: 61") });
    const letters = parseCronSchedule("x y z a b c");
    expect(letters.ok).toBe(false);
    if (!letters.ok) {
      expect(letters.message).toMatch(/^cron "x y z a b c" is not a valid schedule \(/);
      expect(letters.message).not.toContain("CronPattern:");
    }
  });
});

describe("nextFireTimes", () => {
  it("lists the next fire times strictly after the given instant", () => {
    expect(nextFireTimes("0 0 * * * *", T0, 3, "UTC")).toEqual([Date.UTC(2026, 0, 1, 11), Date.UTC(2026, 0, 1, 12), Date.UTC(2026, 0, 1, 13)]);
    // An instant on a fire time is excluded.
    expect(nextFireTimes("0 30 10 * * *", T0, 1, "UTC")).toEqual([Date.UTC(2026, 0, 2, 10, 30)]);
    expect(nextFireTimes("* * * * * *", 1_000, 2, "UTC")).toEqual([2_000, 3_000]);
    expect(nextFireTimes("* * * * * *", 1_500, 2, "UTC")).toEqual([2_000, 3_000]);
  });

  it("reads the schedule in the given time zone", () => {
    expect(nextFireTimes("0 0 9 * * *", T0, 1, "Asia/Tokyo")).toEqual([Date.UTC(2026, 0, 2, 0)]);
    expect(nextFireTimes("0 0 9 * * *", T0, 1, "America/New_York")).toEqual([Date.UTC(2026, 0, 1, 14)]);
  });

  it("returns none for a schedule that never fires or a count of 0, and throws on an invalid schedule", () => {
    expect(nextFireTimes("0 0 0 31 2 *", T0, 3, "UTC")).toEqual([]);
    expect(nextFireTimes(CRON_SCHEDULE_EXAMPLE, T0, 0, "UTC")).toEqual([]);
    expect(() => nextFireTimes("*/5 * * * *", T0, 1)).toThrow(/has 5 fields/);
  });
});

describe("occurrencesBetween", () => {
  it("returns the fire times in (from, to], oldest first", () => {
    expect(occurrencesBetween("*/10 * * * * *", T0, T0 + 30_000, "UTC")).toEqual([T0 + 10_000, T0 + 20_000, T0 + 30_000]);
    expect(occurrencesBetween("*/10 * * * * *", T0 - 1, T0 + 9_999, "UTC")).toEqual([T0]);
    expect(occurrencesBetween("0 0 * * * *", T0, T0 + 60_000, "UTC")).toEqual([]);
  });

  it("returns nothing for an empty or reversed window and stops at max", () => {
    expect(occurrencesBetween("* * * * * *", T0, T0, "UTC")).toEqual([]);
    expect(occurrencesBetween("* * * * * *", T0 + 5_000, T0, "UTC")).toEqual([]);
    const capped = occurrencesBetween("* * * * * *", T0, T0 + 3_600_000, "UTC", 250);
    expect(capped).toHaveLength(250);
    expect(capped[0]).toBe(T0 + 1_000);
    expect(capped[249]).toBe(T0 + 250_000);
    expect(occurrencesBetween("* * * * * *", T0, T0 + 3_600_000, "UTC", 0)).toEqual([]);
  });

  it("enumerates a long window across batches (more than 100 occurrences)", () => {
    const all = occurrencesBetween("* * * * * *", T0, T0 + 3_600_000, "UTC", 10_000);
    expect(all).toHaveLength(3_600);
    expect(all.at(-1)).toBe(T0 + 3_600_000);
    expect(new Set(all).size).toBe(3_600);
  });
});

describe("isValidTimeZone", () => {
  it("knows IANA zones and refuses unknown or empty names", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"]) expect(isValidTimeZone(zone), zone).toBe(true);
    for (const zone of ["Not/AZone", "", " ", "Europe/Atlantis"]) expect(isValidTimeZone(zone), zone).toBe(false);
  });
});
