import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { AbortGuard } from "./abort-guard.js";

/** A full garbage collection (exposed at run time; the test process is not started with --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

describe("AbortGuard", () => {
  it("watches a signal once however often it is added, fires once and then lets go of every signal", () => {
    let fired = 0;
    const guard = new AbortGuard(() => (fired += 1));
    const turn = new AbortController();
    const other = new AbortController();
    for (let index = 0; index < 100; index += 1) guard.add(turn.signal);
    guard.add(other.signal);
    guard.add(turn.signal);
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(1);
    expect(guard.size).toBe(2);
    other.abort();
    expect(fired).toBe(1);
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
    turn.abort();
    guard.add(new AbortController().signal);
    expect(fired).toBe(1);
    expect(guard.size).toBe(0);
  });

  it("fires at once for an aborted signal, and release removes its listeners", () => {
    let fired = 0;
    const aborted = new AbortController();
    aborted.abort();
    new AbortGuard(() => (fired += 1)).add(aborted.signal);
    expect(fired).toBe(1);
    const guard = new AbortGuard(() => (fired += 1));
    const signals = Array.from({ length: 40 }, () => new AbortController());
    for (const controller of signals) guard.add(controller.signal);
    guard.release();
    for (const controller of signals) controller.abort();
    expect(fired).toBe(1);
    expect(signals.every((controller) => getEventListeners(controller.signal, "abort").length === 0)).toBe(true);
  });

  it("does not keep signals alive that nobody else holds", async () => {
    const guard = new AbortGuard(() => undefined);
    const kept = new AbortController();
    guard.add(kept.signal);
    for (let index = 0; index < 500; index += 1) guard.add(new AbortController().signal);
    // WeakRef targets stay alive until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(guard.size).toBe(1);
    kept.abort();
  });
});
