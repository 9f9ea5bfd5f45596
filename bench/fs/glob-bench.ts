/** The Glob figures of the file-tools benchmark (see fs-bench.ts). */
import { globby } from "globby";
import { type BenchSettings, call, format, measure, ratio, registryFor, rgDirect, row } from "./bench-util.js";

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
 * walker), against `rg --files -g '*.ts'` and globby with `gitignore: true`.
 */
export async function benchGlob(label: string, repository: string, settings: BenchSettings): Promise<GlobFigure> {
  const { runs, quick } = settings;
  const rg = registryFor(repository);
  const ts = registryFor(repository, false);
  const peer = await measure(runs, () => rgDirect(["--files", "-g", "*.ts"], repository));
  let count = 0;
  const tool = await measure(runs, async () => {
    const result = await call(rg, "Glob", { pattern: "**/*.ts" });
    count = (result.details as { totalMatches: number }).totalMatches;
  });
  const pure = await measure(runs, () => call(ts, "Glob", { pattern: "**/*.ts" }));
  let globbyCount = 0;
  const peerGlobby = await measure(quick ? 1 : 3, async () => {
    globbyCount = (await globby("**/*.ts", { cwd: repository, gitignore: true, dot: true })).length;
  });
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
 * Prints how each side's time grows from a small repository to a large one
 * (the walker must grow no faster than `rg --files`).
 */
export function printGlobGrowth(small: string, smallFigure: GlobFigure, large: string, largeFigure: GlobFigure): void {
  const growth = (key: keyof GlobFigure) => `${(largeFigure[key] / smallFigure[key]).toFixed(1)}x`;
  row(`${small} -> ${large}`, "Glob growth", `rg --files ${growth("rg")}`, `tool ${growth("tool")}`, `pure-TS ${growth("pure")}`);
}
