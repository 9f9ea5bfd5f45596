import { describe, expect, it } from "vitest";
import { MEMORY_EXTRACTION_LIMITS, MemoryExtractionBudget } from "./extraction-budget.js";

describe("MemoryExtractionBudget", () => {
  it("has the 45 s timeout, 30 s interval, 4-turn window and 16-slug rings", () => {
    expect(MEMORY_EXTRACTION_LIMITS).toEqual({ timeoutMs: 45_000, minIntervalMs: 30_000, windowTurns: 4, slugRingSize: 16 });
  });

  it("lets the first run start at once and the next one 30 s after the previous start", () => {
    const budget = new MemoryExtractionBudget();
    expect(budget.canStart(1_000)).toEqual({ ok: true });
    budget.started(1_000);
    budget.finished(5_000, []);
    expect(budget.canStart(30_999)).toEqual({ ok: false, reason: "too_soon", retryAt: 31_000 });
    expect(budget.canStart(31_000)).toEqual({ ok: true });
  });

  it("allows one run at a time until it finishes or its 45 s are up", () => {
    const budget = new MemoryExtractionBudget();
    budget.started(0);
    expect(budget.canStart(40_000)).toEqual({ ok: false, reason: "running", retryAt: 45_000 });
    expect(budget.canStart(45_000)).toEqual({ ok: true });
    expect(budget.deadline(0)).toBe(45_000);
  });

  it("shows the model the last 4 turns", () => {
    const budget = new MemoryExtractionBudget();
    expect(budget.window([1, 2, 3, 4, 5, 6])).toEqual([3, 4, 5, 6]);
    expect(budget.window([1, 2])).toEqual([1, 2]);
  });

  it("keeps the last 16 written slugs and the last 16 user-rejected slugs, a repeat moving to the end", () => {
    const budget = new MemoryExtractionBudget();
    const slugs = Array.from({ length: 20 }, (_, index) => `slug-${index}`);
    budget.started(0);
    budget.finished(1, slugs);
    expect(budget.recentWrittenSlugs()).toEqual(slugs.slice(4));
    budget.started(40_000);
    budget.finished(40_001, ["slug-5"]);
    expect(budget.recentWrittenSlugs().at(-1)).toBe("slug-5");
    expect(budget.recentWrittenSlugs()).toHaveLength(16);
    expect(budget.lastFinishedAt).toBe(40_001);
    budget.rememberRejected(slugs);
    expect(budget.recentRejectedSlugs()).toEqual(slugs.slice(4));
  });

  it("takes other limits", () => {
    const budget = new MemoryExtractionBudget({ minIntervalMs: 0, windowTurns: 1 });
    budget.started(0);
    budget.finished(1, []);
    expect(budget.canStart(1)).toEqual({ ok: true });
    expect(budget.window([1, 2])).toEqual([2]);
  });
});
