/** The Grep figures of the file-tools benchmark (see fs-bench.ts). */
import { type BenchSettings, call, format, measure, ratio, registryFor, rgDirect, rgOutput, row } from "./bench-util.js";

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
 * "Grep all lines": a regex matching many lines with a head_limit past its
 * match count, against `rg` printing the same lines. Two figures:
 * - "requested": through a registry with the default output cap (240,000
 *   characters), as a host runs it: Grep renders up to the cap and says
 *   where to continue (target: within 1.3x of rg);
 * - "rendered, no cap": every line rendered into the answer (a registry
 *   with no practical cap). Its floor is rg plus decoding rg's output into a
 *   string, printed beside it.
 */
export async function benchGrepAllLines(label: string, repository: string, settings: BenchSettings): Promise<void> {
  const { runs } = settings;
  const pattern = "(return|const)\\s";
  const rgArgs = ["--no-config", "-i", "-n", "--hidden", "--no-require-git", "-g", "!.git", "-e", pattern, "."];
  const peer = await measure(runs, () => rgDirect(rgArgs, repository));
  const everything = { pattern, head_limit: 1_000_000_000 };
  for (const cap of ["default", "none"] as const) {
    const maxOutputChars = cap === "none" ? 2 ** 30 : undefined;
    const rg = registryFor(repository, undefined, maxOutputChars);
    const ts = registryFor(repository, false, maxOutputChars);
    let matches = 0;
    let returned = 0;
    const tool = await measure(runs, async () => {
      const result = await call(rg, "Grep", everything);
      ({ matchCount: matches, returned } = result.details as { matchCount: number; returned: number });
    });
    if (cap === "none" && returned !== matches) throw new Error(`Grep all lines rendered: ${returned} of ${matches} lines rendered`);
    const pure = await measure(runs, () => call(ts, "Grep", everything));
    const cells = [
      label,
      cap === "none" ? `Grep all lines rendered, no cap (${matches} lines)` : `Grep all lines requested, 240k-char cap (${returned} of ${matches} lines shown)`,
      `rg ${format(peer)}`,
      `tool ${format(tool)} ${ratio(tool, peer)}`,
      `pure-TS ${format(pure)} ${ratio(pure, peer)}`,
    ];
    if (cap === "none") {
      const output = await rgOutput(rgArgs, repository);
      const decode = await measure(runs, async () => output.toString("utf8"));
      cells.push(`floor rg + decode ${format(peer + decode)} ${ratio(peer + decode, peer)}`);
    }
    row(...cells);
    await rg.close();
    await ts.close();
  }
}
