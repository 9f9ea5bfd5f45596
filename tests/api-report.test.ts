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

/** The ceiling for the main entries together. */
const MAX_PUBLIC_NAMES = 350;

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
    expect(countNames(report)).toBeLessThanOrEqual(MAX_PUBLIC_NAMES);
  });

  it("exports no test fake from the sdk's main entry", () => {
    const fakes = (report["@agent-tools/sdk"] ?? []).filter((name) => /^(Scripted|Fake|Mock|Stub)/.test(name));
    expect(fakes).toEqual([]);
  });
});
