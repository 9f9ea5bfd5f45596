import { describe, expect, it } from "vitest";
import { ManualCronClock, systemCronClock } from "./cron-clock.js";

describe("ManualCronClock", () => {
  it("stands still until advanced, then wakes sleepers in wake-up order with time at each one's wake-up", async () => {
    const clock = new ManualCronClock(1_000);
    const woke: Array<[string, number]> = [];
    void clock.sleep(300).then(() => woke.push(["c", clock.now()]));
    void clock.sleep(100).then(() => woke.push(["a", clock.now()]));
    void clock.sleep(100).then(() => woke.push(["b", clock.now()]));
    void clock.sleep(5_000).then(() => woke.push(["late", clock.now()]));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(woke).toEqual([]);
    expect(clock.now()).toBe(1_000);
    await clock.advance(500);
    expect(woke).toEqual([
      ["a", 1_100],
      ["b", 1_100],
      ["c", 1_300],
    ]);
    expect(clock.now()).toBe(1_500);
    expect(clock.sleeping).toBe(1);
  });

  it("wakes sleepers that went to sleep during the advance when they fall due within it", async () => {
    const clock = new ManualCronClock(0);
    const ticks: number[] = [];
    const loop = (async () => {
      while (clock.now() < 1_000) {
        await clock.sleep(250);
        ticks.push(clock.now());
      }
    })();
    await clock.advance(1_000);
    await loop;
    expect(ticks).toEqual([250, 500, 750, 1_000]);
  });

  it("resolves a sleep at once when its signal aborts, and forgets the sleeper", async () => {
    const clock = new ManualCronClock(0);
    const controller = new AbortController();
    const slept = clock.sleep(10_000, controller.signal);
    controller.abort();
    await slept;
    expect(clock.sleeping).toBe(0);
    await clock.sleep(1, controller.signal); // already aborted: resolves without advancing
  });
});

describe("systemCronClock", () => {
  it("sleeps in real time and stops early on abort", async () => {
    const started = Date.now();
    await systemCronClock.sleep(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    const controller = new AbortController();
    const before = Date.now();
    const slept = systemCronClock.sleep(10_000, controller.signal);
    controller.abort();
    await slept;
    expect(Date.now() - before).toBeLessThan(1_000);
    expect(Math.abs(systemCronClock.now() - Date.now())).toBeLessThan(50);
  });
});
