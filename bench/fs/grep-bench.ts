/** The Grep figures of the file-tools benchmark (see fs-bench.ts). */
import type { ToolRegistry } from "@agent-tools/core";
import { type FsBenchSettings, call, format, interleaved, ratio, registryFor, rgDirect, rgOutput, row } from "./bench-util.js";
import { TARGETS } from "./bench-targets.js";

/** What Grep's details count. */
interface GrepDetails {
  matchCount: number;
  fileCount: number;
  returned: number;
}

/** One Grep figure: the tool's arguments and the `rg` peer's flags (before `-e pattern .`). */
interface GrepRow {
  /** The row's name (counts are appended). */
  name: string;
  args: Record<string, unknown>;
  /** The peer's flags beyond the shared ones (`-i`, `-l`, `--count`). */
  rgFlags: string[];
  /** Whether the row asks for every line uncapped (its pure-TS target is 1.5x). */
  uncapped?: boolean;
}

/** The flags every peer shares: the tool's file set (dot-files, ignore files outside git, no .git), line numbers. */
const SHARED_FLAGS = ["--no-config", "-n", "--hidden", "--no-require-git", "-g", "!.git"];
/** The common literal, the rare literal (21 matches in 5 files of gemini-cli), the regex, the all-lines regex. */
const COMMON = "return";
const RARE = "Levenshtein";
const REGEX = "function\\s+\\w+\\(";
const ALL_LINES = "(return|const)\\s";

/** The `rg` arguments of a row. */
const rgArgs = (item: GrepRow): string[] => [...SHARED_FLAGS, ...item.rgFlags, "-e", String(item.args.pattern), "."];

/** The rows through a registry with the default output cap (240,000 characters). */
function cappedRows(): GrepRow[] {
  const page = (kind: string, pattern: string): GrepRow => ({ name: `content page, ${kind} -i`, args: { pattern }, rgFlags: ["-i"] });
  return [
    page(`common literal '${COMMON}'`, COMMON),
    page(`rare literal '${RARE}'`, RARE),
    page("regex", REGEX),
    { name: `content page, common literal case-sensitive`, args: { pattern: COMMON, ignore_case: false }, rgFlags: [] },
    { name: "all lines requested, 240k-char cap", args: { pattern: ALL_LINES, head_limit: 1_000_000_000 }, rgFlags: ["-i"] },
    { name: `files page (rg -l), common literal -i`, args: { pattern: COMMON, output_mode: "files" }, rgFlags: ["-i", "-l"] },
    { name: `files page (rg -l), regex -i`, args: { pattern: REGEX, output_mode: "files" }, rgFlags: ["-i", "-l"] },
    { name: `count (rg --count), common literal -i`, args: { pattern: COMMON, output_mode: "count" }, rgFlags: ["-i", "--count"] },
  ];
}

/** The row's counts as printed beside its name. */
function counts(item: GrepRow, details: GrepDetails): string {
  if (item.args.output_mode === "files") return `${details.returned} of ${details.fileCount} files shown`;
  if (item.args.output_mode === "count") return `${details.matchCount} matches in ${details.fileCount} files`;
  return `${details.returned} of ${details.matchCount} lines shown`;
}

/** Registries of both engines with one output cap (undefined: the default). */
interface Engines {
  tool: ToolRegistry;
  pure: ToolRegistry;
}

/** A tree: its name in the table and its path. */
interface Tree {
  label: string;
  repository: string;
}

/**
 * Times one row, interleaved run by run: `rg`, Grep with ripgrep, Grep with
 * the pure TypeScript engine (and, for an uncapped row, the floor: `rg`
 * plus decoding its output into one string). Prints it and records the
 * ratios against the targets.
 */
async function timeRow(tree: Tree, item: GrepRow, engines: Engines, settings: FsBenchSettings): Promise<void> {
  const { label, repository } = tree;
  const args = rgArgs(item);
  let details: GrepDetails = { matchCount: 0, fileCount: 0, returned: 0 };
  // A Grep that answers with an error (e.g. the regex time budget under load) is counted, not fatal.
  const failures = { tool: "", toolRuns: 0, pure: "", pureRuns: 0 };
  const sides: Array<() => Promise<unknown>> = [
    () => rgDirect(args, repository),
    async () => {
      try {
        details = (await call(engines.tool, "Grep", item.args)).details as GrepDetails;
      } catch (error) {
        failures.tool = String(error).slice(0, 160);
        failures.toolRuns += 1;
      }
    },
    async () => {
      try {
        await call(engines.pure, "Grep", item.args);
      } catch (error) {
        failures.pure = String(error).slice(0, 160);
        failures.pureRuns += 1;
      }
    },
  ];
  if (item.uncapped) sides.push(async () => (await rgOutput(args, repository)).toString("utf8"));
  // A files page states every file's count and the total (pre-pagination totals): `rg --count` computes that much, `rg -l` stops at a file's first match.
  const files = item.args.output_mode === "files";
  if (files)
    sides.push(() =>
      rgDirect(
        args.map((arg) => (arg === "-l" ? "--count" : arg)),
        repository,
      ),
    );
  const [peer, tool, pure, floor] = (await interleaved(settings.runs, sides)) as [number, number, number, number?];
  if (item.uncapped && failures.toolRuns === 0 && details.returned !== details.matchCount) {
    throw new Error(`Grep ${item.name}: ${details.returned} of ${details.matchCount} lines rendered`);
  }
  const where = `${label}, ${item.name}`;
  const failed = (runs: number) => (runs > 0 ? ` (FAILED in ${runs} of ${settings.runs + 1} runs)` : "");
  settings.targets.add(TARGETS.grepRipgrep, failures.toolRuns > 0 ? Number.POSITIVE_INFINITY : tool / peer, where);
  const pureTarget = item.uncapped ? TARGETS.grepPureUncapped : TARGETS.grepPureDefault;
  settings.targets.add(pureTarget, failures.pureRuns > 0 ? Number.POSITIVE_INFINITY : pure / peer, where);
  if (floor !== undefined && files) settings.targets.add(TARGETS.grepRipgrepFilesCount, failures.toolRuns > 0 ? Number.POSITIVE_INFINITY : tool / floor, where);
  else if (floor !== undefined) {
    settings.targets.add(TARGETS.grepRipgrepUncappedString, failures.toolRuns > 0 ? Number.POSITIVE_INFINITY : tool / floor, where);
    settings.targets.add(TARGETS.grepPureUncappedString, failures.pureRuns > 0 ? Number.POSITIVE_INFINITY : pure / floor, where);
  }
  const cells = [
    label,
    `Grep ${item.name} (${counts(item, details)})`,
    `rg ${format(peer)}`,
    `tool ${format(tool)} ${ratio(tool, peer)}${failed(failures.toolRuns)}`,
    `pure-TS ${format(pure)} ${ratio(pure, peer)}${failed(failures.pureRuns)}`,
  ];
  if (floor !== undefined && files) cells.push(`rg --count ${format(floor)} ${ratio(floor, peer)} (tool ${ratio(tool, floor)} of it)`);
  else if (floor !== undefined)
    cells.push(`floor rg + decode ${format(floor)} ${ratio(floor, peer)} (tool ${ratio(tool, floor)}, pure-TS ${ratio(pure, floor)} of it)`);
  row(...cells);
  for (const message of [failures.tool, failures.pure]) if (message) console.log(`  last error: ${message}`);
}

/**
 * Grep on one tree, each row beside `rg` of the same binary on the same file
 * set (`--no-config -n --hidden --no-require-git -g '!.git'`, `-i` where
 * Grep is case-insensitive, its default): content pages (default
 * head_limit) of a common literal, a rare literal, a regex and the common
 * literal case-sensitive; every line requested under the default
 * 240,000-character cap; files pages against `rg -l`; count against
 * `rg --count`; and every line uncapped (a registry whose cap is 1 Gi
 * characters) beside the floor `rg` + decode.
 */
export async function benchGrep(label: string, repository: string, settings: FsBenchSettings): Promise<void> {
  const capped: Engines = { tool: registryFor(repository), pure: registryFor(repository, false) };
  const uncapped: Engines = { tool: registryFor(repository, undefined, 2 ** 30), pure: registryFor(repository, false, 2 ** 30) };
  try {
    for (const item of cappedRows()) await timeRow({ label, repository }, item, capped, settings);
    const everything: GrepRow = {
      name: "all lines rendered, no cap",
      args: { pattern: ALL_LINES, head_limit: 1_000_000_000 },
      rgFlags: ["-i"],
      uncapped: true,
    };
    await timeRow({ label, repository }, everything, uncapped, settings);
  } finally {
    for (const registry of [capped.tool, capped.pure, uncapped.tool, uncapped.pure]) await registry.close();
  }
}
