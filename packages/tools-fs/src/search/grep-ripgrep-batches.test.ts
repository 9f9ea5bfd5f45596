import { describe, expect, it } from "vitest";
import { argumentBytes, batchFileArguments, runBatches } from "./grep-ripgrep-batches.js";

describe("batchFileArguments", () => {
  it("keeps the order and every batch within the byte budget", () => {
    const files = Array.from({ length: 1_000 }, (_, index) => `./dir-${index % 7}/file-${index}.ts`);
    const budget = 2_000;
    const batches = batchFileArguments(files, budget);
    expect(batches.flat()).toEqual(files);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) expect(batch.reduce((sum, file) => sum + argumentBytes(file), 0)).toBeLessThanOrEqual(budget);
  });

  it("counts UTF-8 bytes, a NUL and a pointer per argument", () => {
    expect(argumentBytes("./é")).toBe(4 + 1 + 8);
    expect(batchFileArguments(["./a", "./b", "./c"], 24)).toEqual([["./a", "./b"], ["./c"]]);
  });

  it("gives an argument longer than the budget a batch of its own; no files, no batch", () => {
    expect(batchFileArguments(["./short", `./${"x".repeat(100)}`, "./end"], 32)).toEqual([["./short"], [`./${"x".repeat(100)}`], ["./end"]]);
    expect(batchFileArguments([], 32)).toEqual([]);
  });
});

describe("runBatches", () => {
  it("returns results in item order with at most `concurrency` running", async () => {
    let running = 0;
    let most = 0;
    const results = await runBatches([5, 1, 4, 2, 3], 2, undefined, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, item * 3));
      running -= 1;
      return item * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it("on a failure starts nothing more, aborts the running item and rejects with the failure", async () => {
    const started: number[] = [];
    let abortedOther = false;
    const promise = runBatches([1, 2, 3, 4], 2, undefined, async (item, signal) => {
      started.push(item);
      if (item === 1) throw new Error("batch 1 failed");
      await new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => {
          abortedOther = true;
          resolve();
        });
      });
      throw signal.reason;
    });
    await expect(promise).rejects.toThrow("batch 1 failed");
    expect(started).toEqual([1, 2]);
    expect(abortedOther).toBe(true);
  });

  it("rejects with the caller's abort reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(runBatches([1], 2, controller.signal, async () => 1)).rejects.toThrow("stop");
  });
});
