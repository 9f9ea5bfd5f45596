/**
 * Timing of the workspace benchmark: every side of a figure runs once as a
 * warm-up, then the sides take turns run by run (their order rotating), so
 * machine noise hits them alike; each side's figure is the median of its
 * runs. An untimed `prepare` may run before each timed call (the Read an
 * Edit needs first).
 */
import os from "node:os";
import { median } from "../fs/bench-util.js";

/** One side of a figure. */
export interface Side {
  /** The label printed for the side. */
  readonly name: string;
  /** The timed work. */
  readonly run: () => Promise<unknown>;
  /** Untimed work before each timed call. */
  readonly prepare?: () => Promise<unknown>;
}

/** What {@link measureSides} measured: each side's times run by run, and their median. */
export interface SideTimes {
  readonly medians: Map<string, number>;
  readonly times: Map<string, number[]>;
}

/**
 * The median over runs of `side` / `base` within each run (the two sides
 * ran back to back): steadier than the quotient of the medians when the
 * machine's load drifts during a figure.
 */
export function pairedRatio(measured: SideTimes, side: string, base: string): number {
  const over = measured.times.get(side)!;
  const under = measured.times.get(base)!;
  return median(over.map((value, index) => value / under[index]!));
}

/** Times per side, in the order given, after one warm-up each; sides interleaved run by run (their order rotating). */
export async function measureSides(runs: number, sides: readonly Side[]): Promise<SideTimes> {
  const times = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  for (const side of sides) {
    await side.prepare?.();
    await side.run();
  }
  for (let index = 0; index < runs; index += 1) {
    for (let turn = 0; turn < sides.length; turn += 1) {
      const side = sides[(index + turn) % sides.length]!;
      await side.prepare?.();
      const start = performance.now();
      await side.run();
      times.get(side.name)!.push(performance.now() - start);
    }
  }
  return { medians: new Map([...times].map(([name, values]) => [name, median(values)])), times };
}

/** The 1, 5 and 15 minute load averages, as printed. */
export function loads(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}
