/** The Glob figures of the file-tools benchmark (see fs-bench.ts). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchSettings, call, format, interleaved, ratio, registryFor, rgDirect, row } from "./bench-util.js";

/** Medians of one Glob figure, in milliseconds. */
export interface GlobFigure {
  /** `rg --files -g '*.ts'`. */
  rg: number;
  /** Glob (default bundle). */
  tool: number;
  /** Glob without ripgrep (pure TypeScript bundle). */
  pure: number;
}

/**
 * Glob `**\/*.ts` honouring the ignore files: the tool (the TypeScript
 * walker), against `rg --files -g '*.ts'` (interleaved run by run) and
 * globby with `gitignore: true` (after them: 1-3 runs in a child process,
 * it takes seconds and gigabytes of heap).
 */
export async function benchGlob(label: string, repository: string, settings: BenchSettings): Promise<GlobFigure> {
  const { runs, quick } = settings;
  const rg = registryFor(repository);
  const ts = registryFor(repository, false);
  let count = 0;
  const [peer, tool, pure] = (await interleaved(runs, [
    () => rgDirect(["--files", "-g", "*.ts"], repository),
    async () => {
      const result = await call(rg, "Glob", { pattern: "**/*.ts" });
      count = (result.details as { totalMatches: number }).totalMatches;
    },
    () => call(ts, "Glob", { pattern: "**/*.ts" }),
  ])) as [number, number, number];
  const { median: peerGlobby, count: globbyCount } = timeGlobby(repository, quick ? 1 : 3);
  row(
    label,
    `Glob **/*.ts (${count} files; globby ${globbyCount})`,
    `rg --files ${format(peer)}`,
    `tool ${format(tool)} ${ratio(tool, peer)}`,
    `pure-TS ${format(pure)} ${ratio(pure, peer)}`,
    `globby ${format(peerGlobby)} (tool ${(peerGlobby / tool).toFixed(1)}x faster)`,
  );
  return { rg: peer, tool, pure };
}

/**
 * The fixed cost of each side: the same Glob on an empty directory (for
 * `rg --files`, mostly the process start).
 */
export async function benchGlobFixedCost(settings: BenchSettings): Promise<GlobFigure> {
  const empty = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-empty-"));
  try {
    const rg = registryFor(empty);
    const ts = registryFor(empty, false);
    const [rgTime, tool, pure] = (await interleaved(settings.runs, [
      () => rgDirect(["--files", "-g", "*.ts"], empty),
      () => call(rg, "Glob", { pattern: "**/*.ts" }),
      () => call(ts, "Glob", { pattern: "**/*.ts" }),
    ])) as [number, number, number];
    const figure = { rg: rgTime, tool, pure };
    row("empty directory", "Glob **/*.ts (fixed cost)", `rg --files ${format(figure.rg)}`, `tool ${format(figure.tool)}`, `pure-TS ${format(figure.pure)}`);
    await rg.close();
    await ts.close();
    return figure;
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/**
 * Prints how each side's time grows from a small repository to a large one
 * (the walker must grow no faster than `rg --files`): the growth of the
 * whole time, of the time above each side's fixed cost (an empty
 * directory), which is the part that depends on the tree, and the time the
 * larger tree adds. Ratios of small times swing between runs (the tool
 * takes 10-15 ms on the small trees); the added time is the steadier
 * figure of how fast each side grows with the tree.
 */
export function printGlobGrowth(small: string, smallFigure: GlobFigure, large: string, largeFigure: GlobFigure, fixed: GlobFigure): void {
  const growth = (key: keyof GlobFigure) =>
    `${(largeFigure[key] / smallFigure[key]).toFixed(1)}x (above fixed cost ${((largeFigure[key] - fixed[key]) / (smallFigure[key] - fixed[key])).toFixed(1)}x, +${format(largeFigure[key] - smallFigure[key]).trim()})`;
  row(`${small} -> ${large}`, "Glob growth", `rg --files ${growth("rg")}`, `tool ${growth("tool")}`, `pure-TS ${growth("pure")}`);
}

/** globby's median of `runs` (after a warm-up) in a child process, so its heap is gone before the next rows. */
function timeGlobby(repository: string, runs: number): { median: number; count: number } {
  const child = path.join(path.dirname(fileURLToPath(import.meta.url)), "globby-child.mjs");
  const output = execFileSync(process.execPath, [child, repository, String(runs)], { encoding: "utf8", maxBuffer: 1024 * 1024 });
  return JSON.parse(output) as { median: number; count: number };
}
