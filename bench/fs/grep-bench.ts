/** The Grep figures of the file-tools benchmark (see fs-bench.ts). */
import { type BenchSettings, call, format, measure, ratio, registryFor, rgDirect, row } from "./bench-util.js";

/**
 * Grep of a common literal, a rare literal and a regex, case-insensitive,
 * every match counted: the tool with ripgrep, the pure TypeScript engine,
 * and `rg` itself on the same file set.
 */
export async function benchGrep(label: string, repository: string, settings: BenchSettings): Promise<void> {
  const { runs } = settings;
  const rg = registryFor(repository);
  const ts = registryFor(repository, false);
  const queries: Array<[string, string]> = [
    ["common literal", "return"],
    ["rare literal", "Levenshtein"],
    ["regex", "function\\s+\\w+\\("],
  ];
  for (const [kind, pattern] of queries) {
    // The same query and file set as the tool: case-insensitive, dot-files, ignore files outside git, no .git.
    const peer = await measure(runs, () =>
      rgDirect(["--no-config", "-i", "-n", "--hidden", "--no-require-git", "-g", "!.git", "-e", pattern, "."], repository),
    );
    let matches = 0;
    const tool = await measure(runs, async () => {
      const result = await call(rg, "Grep", { pattern });
      matches = (result.details as { matchCount: number }).matchCount;
    });
    const pure = await measure(runs, () => call(ts, "Grep", { pattern }));
    row(
      label,
      `Grep ${kind} (${matches} matches)`,
      `rg ${format(peer)}`,
      `tool ${format(tool)} ${ratio(tool, peer)}`,
      `pure-TS ${format(pure)} ${ratio(pure, peer)}`,
    );
  }
  await benchGrepAllLines(label, repository, settings);
}

/**
 * "Grep all lines rendered": a regex matching many lines, with a head_limit
 * past its match count so that every line is rendered, against `rg`
 * printing the same lines (target: the tool within 1.3x).
 */
export async function benchGrepAllLines(label: string, repository: string, settings: BenchSettings): Promise<void> {
  const { runs } = settings;
  const pattern = "(return|const)\\s";
  const rg = registryFor(repository);
  const ts = registryFor(repository, false);
  const peer = await measure(runs, () => rgDirect(["--no-config", "-i", "-n", "--hidden", "--no-require-git", "-g", "!.git", "-e", pattern, "."], repository));
  let matches = 0;
  let returned = 0;
  const everything = { pattern, head_limit: 1_000_000_000 };
  const tool = await measure(runs, async () => {
    const result = await call(rg, "Grep", everything);
    ({ matchCount: matches, returned } = result.details as { matchCount: number; returned: number });
  });
  if (returned !== matches) throw new Error(`Grep all lines rendered: ${returned} of ${matches} lines rendered`);
  const pure = await measure(runs, () => call(ts, "Grep", everything));
  row(
    label,
    `Grep all lines rendered (${matches} lines)`,
    `rg ${format(peer)}`,
    `tool ${format(tool)} ${ratio(tool, peer)}`,
    `pure-TS ${format(pure)} ${ratio(pure, peer)}`,
  );
}
