import { describe, expect, it } from "vitest";
import { SdkError } from "../errors.js";
import { createToolCallScheduler } from "./tool-call-scheduler.js";

const cancelled = () => new Error("cancelled");
const live = () => new AbortController().signal;

describe("createToolCallScheduler", () => {
  it("refuses an unknown option (a limit given without limits: would otherwise limit nothing)", () => {
    expect(() => createToolCallScheduler({ Bash: 1 } as never)).toThrow(/concurrency has no option "Bash".*limits: \{ "Bash": 1 \}/);
    expect(() => createToolCallScheduler({ limit: { Bash: 1 } } as never)).toThrow(/did you mean `limits`/);
    expect(() => createToolCallScheduler({ limits: { Bash: 1 }, defaultLimit: 2 })).not.toThrow();
  });

  it("grants up to the limit, queues the rest in FIFO order, and forgets idle names", async () => {
    const scheduler = createToolCallScheduler({ limits: { A: 2 } });
    const first = await scheduler.acquire("A", live(), cancelled);
    const second = await scheduler.acquire("A", live(), cancelled);
    const order: string[] = [];
    const third = scheduler.acquire("A", live(), cancelled).then((release) => {
      order.push("third");
      return release;
    });
    const fourth = scheduler.acquire("A", live(), cancelled).then((release) => {
      order.push("fourth");
      return release;
    });
    expect(scheduler.running("A")).toBe(2);
    expect(scheduler.queued("A")).toBe(2);
    first();
    first(); // a second release of the same slot gives nothing back
    const releaseThird = await third;
    expect(order).toEqual(["third"]);
    expect(scheduler.running("A")).toBe(2);
    expect(scheduler.queued("A")).toBe(1);
    second();
    const releaseFourth = await fourth;
    expect(order).toEqual(["third", "fourth"]);
    releaseThird();
    releaseFourth();
    expect(scheduler.running("A")).toBe(0);
    expect(scheduler.queued("A")).toBe(0);
  });

  it("removes an aborted waiter from the queue and rejects it; an aborted signal never waits", async () => {
    const scheduler = createToolCallScheduler({ defaultLimit: 1 });
    const held = await scheduler.acquire("B", live(), cancelled);
    const controller = new AbortController();
    const waiting = scheduler.acquire("B", controller.signal, cancelled);
    controller.abort();
    await expect(waiting).rejects.toThrow("cancelled");
    expect(scheduler.queued("B")).toBe(0);
    await expect(scheduler.acquire("B", controller.signal, cancelled)).rejects.toThrow("cancelled");
    held();
    expect(scheduler.running("B")).toBe(0);
  });

  it("has no limits for false, undefined and Infinity", async () => {
    for (const scheduler of [
      createToolCallScheduler(false),
      createToolCallScheduler(undefined),
      createToolCallScheduler({ limits: { C: Number.POSITIVE_INFINITY } }),
    ]) {
      const releases = await Promise.all(Array.from({ length: 50 }, () => scheduler.acquire("C", live(), cancelled)));
      expect(releases).toHaveLength(50);
      for (const release of releases) release();
    }
  });

  it("throws SdkError for limits that are not whole numbers of at least 1", () => {
    expect(() => createToolCallScheduler({ defaultLimit: -1 })).toThrow(SdkError);
    expect(() => createToolCallScheduler({ limits: { D: Number.NaN } })).toThrow("concurrency.limits.D must be a whole number of at least 1");
  });
});
