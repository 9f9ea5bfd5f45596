/**
 * The targets of issue 34 and the worst figure measured against each in one
 * run of the file-tools benchmark, printed as a summary at the end.
 */

/** One target: a ratio (tool / peer) or a time in milliseconds, at most `limit`. */
export interface BenchTarget {
  /** How the summary names it. */
  name: string;
  /** The bound (inclusive). */
  limit: number;
  /** "x" for a ratio, "ms" for a time. */
  unit: "x" | "ms";
}

/** The targets. */
export const TARGETS = {
  grepRipgrep: { name: "Grep with ripgrep, every mode and page <= 1.1x rg", limit: 1.1, unit: "x" },
  grepPureDefault: { name: "pure-TS Grep, every default page <= 1.3x rg", limit: 1.3, unit: "x" },
  grepPureUncapped: { name: "pure-TS Grep, all lines uncapped <= 1.5x rg", limit: 1.5, unit: "x" },
  // The uncapped rows again against `rg` whose output is taken as a string (what any Node caller of rg gets; see README).
  grepRipgrepUncappedString: { name: "Grep with ripgrep, all lines uncapped <= 1.1x rg + its output as a string", limit: 1.1, unit: "x" },
  // The files pages again against `rg --count`, which computes what a files page states (see README).
  grepRipgrepFilesCount: { name: "Grep with ripgrep, files page <= 1.1x rg --count (every file's count and the total)", limit: 1.1, unit: "x" },
  grepPureUncappedString: { name: "pure-TS Grep, all lines uncapped <= 1.5x rg + its output as a string", limit: 1.5, unit: "x" },
  read1g: { name: "Read first page of a 1 GB file <= 20 ms", limit: 20, unit: "ms" },
  read5m: { name: "Read first page of a 5 MB file <= 5 ms", limit: 5, unit: "ms" },
  edit10m: { name: "Edit, every pass at 10 MB <= 1.1x read+write", limit: 1.1, unit: "x" },
} satisfies Record<string, BenchTarget>;

interface Worst {
  value: number;
  where: string;
  count: number;
}

/** Collects, per target, the worst figure of a run and where it was measured. */
export class TargetLog {
  readonly #worst = new Map<BenchTarget, Worst>();

  /** Records one figure (`where`: tree and row) against `target`; infinity for a figure whose tool call failed. */
  add(target: BenchTarget, value: number, where: string): void {
    const worst = this.#worst.get(target);
    if (!worst) this.#worst.set(target, { value, where, count: 1 });
    else {
      worst.count += 1;
      if (value > worst.value) Object.assign(worst, { value, where });
    }
  }

  /** Prints each target of the issue with its worst figure, or "not measured". */
  print(): void {
    console.log("\nTargets (issue 34): worst figure of this run");
    for (const target of Object.values(TARGETS) as BenchTarget[]) {
      const worst = this.#worst.get(target);
      if (!worst) {
        console.log(`- ${target.name}: not measured in this run`);
        continue;
      }
      const shown = target.unit === "x" ? `${worst.value.toFixed(2)}x` : `${worst.value.toFixed(1)} ms`;
      const value = Number.isFinite(worst.value) ? shown : "an error (Grep failed)";
      const verdict = worst.value <= target.limit ? "within" : "NOT within";
      console.log(`- ${target.name}: worst ${value} (${worst.where}; ${worst.count} figures) -> ${verdict}`);
    }
  }
}
