import { describe, expect, it } from "vitest";
import { dailyDateFromSlug, dailyDateLocal, dateLocalToEpochDay, isDailyArchived } from "./daily-dates.js";

describe("dailyDateLocal", () => {
  it("rolls over at 04:00, not at midnight", () => {
    expect(dailyDateLocal(new Date("2026-03-05T03:59:59Z"), "UTC")).toBe("2026-03-04");
    expect(dailyDateLocal(new Date("2026-03-05T04:00:00Z"), "UTC")).toBe("2026-03-05");
    expect(dailyDateLocal(new Date("2026-03-05T00:00:00Z"), "UTC")).toBe("2026-03-04");
    expect(dailyDateLocal(new Date("2026-03-05T23:59:00Z"), "UTC")).toBe("2026-03-05");
  });

  it("crosses month and year boundaries", () => {
    expect(dailyDateLocal(new Date("2026-01-01T01:00:00Z"), "UTC")).toBe("2025-12-31");
    expect(dailyDateLocal(new Date("2024-03-01T02:00:00Z"), "UTC")).toBe("2024-02-29");
  });

  it("uses the wall clock of the given zone", () => {
    // 2026-03-05T02:30Z is 11:30 in Tokyo and 21:30 the day before in New York.
    expect(dailyDateLocal(new Date("2026-03-05T02:30:00Z"), "Asia/Tokyo")).toBe("2026-03-05");
    expect(dailyDateLocal(new Date("2026-03-05T02:30:00Z"), "America/New_York")).toBe("2026-03-04");
    // 03:30 in Tokyo is still the previous journal day.
    expect(dailyDateLocal(new Date("2026-03-04T18:30:00Z"), "Asia/Tokyo")).toBe("2026-03-04");
    expect(dailyDateLocal(new Date("2026-03-04T19:00:00Z"), "Asia/Tokyo")).toBe("2026-03-05");
  });

  it("keeps the rollover at 04:00 wall time on a daylight-saving day", () => {
    // Berlin springs forward on 2026-03-29 at 02:00 -> 03:00 (UTC+2 afterwards).
    expect(dailyDateLocal(new Date("2026-03-29T01:59:00Z"), "Europe/Berlin")).toBe("2026-03-28"); // 03:59 CEST
    expect(dailyDateLocal(new Date("2026-03-29T02:00:00Z"), "Europe/Berlin")).toBe("2026-03-29"); // 04:00 CEST
  });

  it("uses the process's local time without a zone", () => {
    const now = new Date(2026, 2, 5, 3, 59);
    expect(dailyDateLocal(now)).toBe("2026-03-04");
    expect(dailyDateLocal(new Date(2026, 2, 5, 4, 0))).toBe("2026-03-05");
  });
});

describe("isDailyArchived", () => {
  const now = new Date("2026-06-30T12:00:00Z");
  it("archives journals older than 90 days", () => {
    expect(isDailyArchived("2026-04-01", now, "UTC")).toBe(false); // 90 days
    expect(isDailyArchived("2026-03-31", now, "UTC")).toBe(true); // 91 days
    expect(isDailyArchived("2026-06-30", now, "UTC")).toBe(false);
  });
  it("does not archive unreadable dates", () => {
    expect(isDailyArchived("2026-02-30", now, "UTC")).toBe(false);
    expect(isDailyArchived("yesterday", now, "UTC")).toBe(false);
  });
});

describe("dailyDateFromSlug", () => {
  it("reads real dates of daily slugs only", () => {
    expect(dailyDateFromSlug("daily-2026-03-04")).toBe("2026-03-04");
    expect(dailyDateFromSlug("daily-2026-02-30")).toBeUndefined();
    expect(dailyDateFromSlug("dark-mode")).toBeUndefined();
    expect(dateLocalToEpochDay("1970-01-02")).toBe(1);
  });
});
