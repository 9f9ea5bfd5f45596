import { describe, expect, it } from "vitest";
import { checkSlug, dailySlug, isDailySlug, MEMORY_SLUG_PATTERN, normalizeSlug, suggestSlug } from "./slug.js";

describe("normalizeSlug", () => {
  it("trims, lower-cases and reads _ as -", () => {
    expect(normalizeSlug("  Dark_Mode_Pref ")).toBe("dark-mode-pref");
  });
});

describe("checkSlug", () => {
  it("accepts 3-64 characters of a-z, 0-9 and - with a letter or digit at both ends", () => {
    expect(checkSlug("abc")).toEqual({ ok: true, slug: "abc" });
    expect(checkSlug("a-1")).toEqual({ ok: true, slug: "a-1" });
    expect(checkSlug("x".repeat(64))).toEqual({ ok: true, slug: "x".repeat(64) });
    expect(checkSlug("User_Name")).toEqual({ ok: true, slug: "user-name" });
  });

  it.each([
    ["ab", "at least 3"],
    ["x".repeat(65), "at most 64"],
    ["-abc", "starts and ends"],
    ["abc-", "starts and ends"],
    ["dark mode", "only lower-case"],
    ["café", "only lower-case"],
  ])("refuses %j with slug_invalid (%s)", (raw, reason) => {
    const result = checkSlug(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.error).toBe("slug_invalid");
    expect(result.error.message).toContain(reason);
  });

  it("suggests a valid slug derived from the input", () => {
    const cases: [string, string][] = [
      ["dark mode!", "dark-mode"],
      ["café  au--lait", "cafe-au-lait"],
      ["-abc-", "abc"],
      ["ab", "ab-note"],
      ["a", "a-note"],
      ["日本 notes", "notes"],
    ];
    for (const [raw, suggestion] of cases) {
      const result = checkSlug(raw);
      expect(result.ok ? undefined : result.error.suggestion, raw).toBe(suggestion);
      expect(MEMORY_SLUG_PATTERN.test(suggestion)).toBe(true);
    }
    const long = checkSlug(`${"a".repeat(63)}-bcd`);
    expect(long.ok ? undefined : long.error.suggestion).toBe("a".repeat(63));
  });

  it("leaves the suggestion out when nothing usable remains", () => {
    const result = checkSlug("!!!");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).not.toHaveProperty("suggestion");
    expect(suggestSlug("日本語")).toBeUndefined();
  });

  it("always suggests slugs that pass the check", () => {
    const alphabet = "aZ9-_ .!é日\t";
    let seed = 7;
    for (let round = 0; round < 500; round++) {
      let raw = "";
      const length = round % 80;
      for (let index = 0; index < length; index++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        raw += alphabet[seed % alphabet.length];
      }
      const suggestion = suggestSlug(raw);
      if (suggestion !== undefined) expect(checkSlug(suggestion)).toEqual({ ok: true, slug: suggestion });
    }
  });
});

describe("daily slugs", () => {
  it("are daily-YYYY-MM-DD", () => {
    expect(dailySlug("2026-03-04")).toBe("daily-2026-03-04");
    expect(isDailySlug("daily-2026-03-04")).toBe(true);
    expect(isDailySlug("daily-notes")).toBe(false);
    expect(isDailySlug("my-daily-2026-03-04")).toBe(false);
  });
});
