import { describe, expect, it } from "vitest";
import { type RaceMode, type RaceTool, runSymlinkRace } from "../__fixtures__/symlink-race.js";

/**
 * The short CI version of the symlink race (bench/fs/race-soak.ts runs the
 * same race with 100,000 operations per tool). AGENT_TOOLS_RACE_OPS sets
 * the operations per tool and mode.
 */
const OPERATIONS = Number(process.env.AGENT_TOOLS_RACE_OPS ?? 500);
const TOOLS: RaceTool[] = ["Read", "Write", "Edit", "Delete"];
const MODES: RaceMode[] = ["link", "dir"];

describe.skipIf(process.platform !== "linux")("file tools under a racing symlink swap (real second process)", () => {
  for (const mode of MODES) {
    for (const tool of TOOLS) {
      it(`${tool} never reaches outside the workspace while sub flips (${mode} mode)`, async () => {
        const report = await runSymlinkRace(tool, mode, OPERATIONS);
        expect(report.swaps).toBeGreaterThan(0);
        expect(report.escapes).toEqual([]);
        // The race is real: some calls land inside, some are refused.
        expect(report.succeeded).toBeGreaterThan(0);
        expect(report.succeeded + Object.values(report.failures).reduce((sum, count) => sum + count, 0)).toBe(OPERATIONS);
      });
    }
  }
});
