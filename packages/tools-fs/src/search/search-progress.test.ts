import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROGRESS_INTERVAL_MS, SearchProgress, progressIntervalOption } from "./search-progress.js";

describe("SearchProgress", () => {
  it("reports the counts from its timer once the interval passed, never lower after a new pass, nothing after stop", async () => {
    const reports: Array<{ hits: number }> = [];
    const progress = new SearchProgress(1, { hits: 0 }, (counts) => reports.push(counts));
    progress.counts.hits = 5;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.at(-1)).toEqual({ hits: 5 });
    progress.newPass();
    expect(progress.counts.hits).toBe(0);
    progress.counts.hits = 2;
    const before = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reports.length).toBeGreaterThan(before);
    expect(reports.at(-1)).toEqual({ hits: 5 });
    progress.stop();
    const stopped = reports.length;
    for (let change = 0; change < 1000; change += 1) progress.changed();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reports.length).toBe(stopped);
  });

  it("reports nothing before the interval, however many changes", () => {
    const reports: unknown[] = [];
    const progress = new SearchProgress(600_000, { hits: 0 }, (counts) => reports.push(counts));
    for (let change = 0; change < 10_000; change += 1) {
      progress.counts.hits += 1;
      progress.changed();
    }
    progress.stop();
    expect(reports).toEqual([]);
  });

  it("checks the interval option: positive milliseconds or Infinity, else SdkError", () => {
    expect(progressIntervalOption(undefined)).toBe(DEFAULT_PROGRESS_INTERVAL_MS);
    expect(progressIntervalOption(5)).toBe(5);
    expect(progressIntervalOption(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    for (const value of [0, -1, Number.NaN, "5", true, {}]) {
      expect(() => progressIntervalOption(value)).toThrow(SdkError);
      expect(() => progressIntervalOption(value)).toThrow(/fs\.progressIntervalMs must be a positive number/);
    }
  });
});
