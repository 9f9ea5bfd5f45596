/**
 * The exports snapshot: every name of every package's main entry (and of the
 * listed `/internal` subpaths) must match api-report.json. An addition or a
 * removal that is not in the snapshot fails here; a planned one is recorded
 * with `node scripts/api-report.mjs --update` (review the diff of api-report.json).
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { buildApiReport, countNames, diffReports, snapshotPath } from "../scripts/api-report.mjs";

/**
 * The ceiling for the main entries together: 350 (an earlier issue's) for
 * the packages as they were, plus 3 for each package added since, which
 * exports its plugin factory, options type and details type and puts
 * everything else on subpaths: `@agent-tools/lsp` and
 * `@agent-tools/tools-web` (issue 38), `@agent-tools/word-vectors` (issue 40:
 * its embedder factory, options type and weighting type).
 */
const PACKAGES_ADDED_SINCE = ["@agent-tools/lsp", "@agent-tools/tools-web", "@agent-tools/word-vectors"];
const MAX_PUBLIC_NAMES = 350 + 3 * PACKAGES_ADDED_SINCE.length;

describe("API report", () => {
  const report = buildApiReport() as Record<string, string[]>;
  const expected = JSON.parse(fs.readFileSync(snapshotPath, "utf8")) as Record<string, string[]>;

  it("matches api-report.json", () => {
    const diff = diffReports(expected, report) as string[];
    if (diff.length > 0) {
      expect.fail(
        `The package entries differ from api-report.json (+ added, - removed):\n${diff.join("\n")}\n` +
          "If the change is planned, run `node scripts/api-report.mjs --update` and commit api-report.json.",
      );
    }
    console.log(`API report: ${countNames(report)} public names in the main entries`);
  }, 120_000);

  it(`keeps the main entries at ${MAX_PUBLIC_NAMES} names or fewer`, () => {
    for (const name of PACKAGES_ADDED_SINCE) expect(report[name]?.length ?? 0, name).toBeLessThanOrEqual(3);
    expect(countNames(report)).toBeLessThanOrEqual(MAX_PUBLIC_NAMES);
  });

  it("exports no test fake from the sdk's main entry", () => {
    const fakes = (report["@agent-tools/sdk"] ?? []).filter((name) => /^(Scripted|Fake|Mock|Stub)/.test(name));
    expect(fakes).toEqual([]);
  });
});
