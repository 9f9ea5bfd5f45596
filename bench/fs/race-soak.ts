/**
 * The long version of the file tools' race tests (CI runs a short one in
 * packages/tools-fs/src/hardening):
 * - the symlink race: a second process keeps swapping `sub` for a symlink to
 *   a directory outside the workspace and back while Read, Write, Edit and
 *   Delete work below it; 100,000 operations per tool and swap mode by default;
 * - concurrent Edits: rounds of 50 Edits of one file at once through one
 *   registry, and of 2 x 30 through two registries, checking that every
 *   reported success is in the final file.
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/fs/race-soak.ts [operations per tool] [edit rounds] [tools, e.g. Delete,Write] [modes, e.g. dir]
 * Exits 1 when anything escaped or a reported success was lost.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { editLines, lineLabel, numberedLines } from "../../packages/tools-fs/src/__fixtures__/edit-lines.js";
import { type RaceMode, type RaceTool, runSymlinkRace } from "../../packages/tools-fs/src/__fixtures__/symlink-race.js";

const operations = Number(process.argv[2] ?? 100_000);
const editRounds = Number(process.argv[3] ?? 200);
const tools = (process.argv[4] ?? "Read,Write,Edit,Delete").split(",") as RaceTool[];
const modes = (process.argv[5] ?? "dir,link").split(",") as RaceMode[];
let failed = false;

console.log(`symlink race: ${operations} operations per tool and mode`);
console.log("tool    mode  ops      ok       refused  swaps     escapes  seconds");
for (const mode of modes) {
  for (const tool of tools) {
    const started = performance.now();
    const report = await runSymlinkRace(tool, mode, operations);
    const refused = Object.values(report.failures).reduce((sum, count) => sum + count, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `${tool.padEnd(7)} ${mode.padEnd(5)} ${String(operations).padEnd(8)} ${String(report.succeeded).padEnd(8)} ${String(refused).padEnd(8)} ${String(report.swaps).padEnd(9)} ${String(report.escapes.length).padEnd(8)} ${seconds}`,
    );
    if (report.escapes.length > 0) {
      failed = true;
      console.log(`  escapes: ${report.escapes.slice(0, 10).join("; ")}`);
    }
    console.log(`  refusals by code: ${JSON.stringify(report.failures)}`);
  }
}

console.log(`\nconcurrent Edits: ${editRounds} rounds`);
const workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "race-soak-edits-")));
const one = createToolRegistry({ workdir, bundles: [createFsToolBundle()], loopBreaker: false });
const two = createToolRegistry({ workdir, bundles: [createFsToolBundle()], loopBreaker: false });
let reported = 0;
let lost = 0;
for (let round = 0; round < editRounds; round += 1) {
  const file = `round-${round}.txt`;
  writeFileSync(path.join(workdir, file), numberedLines(110));
  const lines = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);
  const [fifty, first, second] = await Promise.all([
    editLines(one, file, "a", lines(0, 50)),
    editLines(one, file, "b", lines(50, 30)),
    editLines(two, file, "c", lines(80, 30)),
  ]);
  const text = readFileSync(path.join(workdir, file), "utf8");
  for (const [tag, landed] of [
    ["a", fifty],
    ["b", first],
    ["c", second],
  ] as const) {
    reported += landed.length;
    for (const line of landed) if (!text.includes(`${lineLabel(line)}: ${tag}\n`)) lost += 1;
  }
}
await one.close();
await two.close();
rmSync(workdir, { recursive: true, force: true });
console.log(`reported successes ${reported}, lost ${lost}`);
if (lost > 0) failed = true;
process.exit(failed ? 1 : 0);
