import { describe, expect, it } from "vitest";
import { abortReason, raceWithAbort } from "./abort.js";

/** Counts the abort listeners a signal holds, through a wrapped add/remove. */
function countingSignal(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  let count = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  const remove = controller.signal.removeEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
    count += 1;
    add(...args);
  }) as typeof add;
  controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    count -= 1;
    remove(...args);
  }) as typeof remove;
  return { controller, listeners: () => count };
}

describe("abortReason", () => {
  it("is the signal's reason, an AbortError by default", () => {
    const controller = new AbortController();
    controller.abort();
    expect(abortReason(controller.signal)).toMatchObject({ name: "AbortError" });
    const custom = new AbortController();
    const reason = new Error("stop");
    custom.abort(reason);
    expect(abortReason(custom.signal)).toBe(reason);
  });

  it("makes an AbortError for a signal without a reason", () => {
    expect(abortReason({ aborted: true, reason: undefined } as AbortSignal)).toMatchObject({ name: "AbortError" });
  });
});

describe("raceWithAbort", () => {
  it("settles like the promise and removes its listener", async () => {
    const { controller, listeners } = countingSignal();
    await expect(raceWithAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceWithAbort(Promise.reject(new Error("boom")), controller.signal)).rejects.toThrow("boom");
    expect(listeners()).toBe(0);
  });

  it("rejects with the signal's reason when the signal aborts first, and the late rejection stays handled", async () => {
    const controller = new AbortController();
    let rejectLate: (error: Error) => void = () => undefined;
    const slow = new Promise<number>((_, reject) => {
      rejectLate = reject;
    });
    const raced = raceWithAbort(slow, controller.signal);
    const reason = new Error("host stopped");
    controller.abort(reason);
    await expect(raced).rejects.toBe(reason);
    rejectLate(new Error("late")); // vitest fails the run on an unhandled rejection
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("rejects at once for an already aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(raceWithAbort(new Promise<never>(() => undefined), controller.signal)).rejects.toMatchObject({ name: "AbortError" });
    await expect(raceWithAbort(Promise.reject(new Error("ignored")), controller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });

  it("onAbort runs once with the reason and its return value is the rejection", async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const raced = raceWithAbort(new Promise<never>(() => undefined), controller.signal, (reason) => {
      seen.push(reason);
      return new Error("cancelled");
    });
    controller.abort("why");
    await expect(raced).rejects.toThrow("cancelled");
    expect(seen).toEqual(["why"]);
  });

  it("without a signal returns the promise's outcome", async () => {
    await expect(raceWithAbort(Promise.resolve("ok"), undefined)).resolves.toBe("ok");
  });
});
