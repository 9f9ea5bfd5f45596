import { describe, expect, it } from "vitest";
import { EMPTY_SUBAGENT_REPORT, truncateDiff, truncateSummary } from "./subagent-summary.js";

describe("truncateSummary", () => {
  it("returns the placeholder for a blank report", () => {
    expect(truncateSummary("")).toBe("(subagent returned an empty report)");
    expect(truncateSummary(" \n\t")).toBe(EMPTY_SUBAGENT_REPORT);
  });
  it("keeps a report of at most 8000 characters", () => {
    const text = "x".repeat(8000);
    expect(truncateSummary(text)).toBe(text);
    expect(truncateSummary("  done  ")).toBe("  done  ");
  });
  it("cuts a longer report with the total length", () => {
    expect(truncateSummary("y".repeat(8001))).toBe(`${"y".repeat(8000)}…\n... [truncated, total chars=8001]`);
  });
});

describe("truncateDiff", () => {
  it("keeps a diff within the limit", () => {
    expect(truncateDiff("abc", 3)).toEqual({ diff: "abc", diffTruncated: false });
    expect(truncateDiff("a".repeat(20_000))).toEqual({ diff: "a".repeat(20_000), diffTruncated: false });
  });
  it("cuts a longer diff with a note (default 20 000)", () => {
    expect(truncateDiff("abcdef", 4)).toEqual({ diff: "abcd\n... [diff truncated, total chars=6]", diffTruncated: true });
    expect(truncateDiff("a".repeat(20_001)).diff.startsWith(`${"a".repeat(20_000)}\n... [diff truncated`)).toBe(true);
  });
});
