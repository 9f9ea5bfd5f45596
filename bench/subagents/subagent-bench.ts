/**
 * The subagent runtime's own cost, side by side with its floors.
 *
 * 1. A worktree child's git lifecycle on a generated 3,000-file repository
 *    (about 1.7 MB in a tree of folders): GitSubagentWorktrees over
 *    GitCliClient (create, changes with one edited file, remove) against the
 *    bare commands through child_process (`git worktree add -b`, `git add -N`
 *    + `git diff --binary HEAD`, `git worktree remove --force` +
 *    `git branch -D`). isomorphic-git has no linked worktrees: its error
 *    code is printed, no figure.
 * 2. The Agent tool around a scripted model that answers at once, through a
 *    real parent registry (`registry.executeToolCall`), with an in-memory and
 *    a SQLite subagent store: (a) one agent answering with text, per call,
 *    against one direct model call; (b) one agent doing 20 Read rounds, per
 *    round, against the same 21 model calls and 20 Read calls made directly;
 *    (c) 8 agents of 3 rounds in one call against the same 8 one after
 *    another, with no model latency and with 25 ms per model turn.
 *
 * Medians; the machine line with the load averages comes first.
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/subagents/subagent-bench.ts [--runs=N] [--files=N]
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runAgentSection } from "./agent-section.js";
import { machineLine, makeSmallRepository, makeTreeRepository } from "./bench-util.js";
import { runWorktreeSection } from "./worktree-section.js";

const option = (name: string, fallback: number): number => {
  const raw = process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
};

const runs = option("runs", 5);
const files = option("files", 3000);

console.log(machineLine());
console.log(`date: ${new Date().toISOString()}`);
const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "agent-tools-subagent-bench-")));
try {
  const tree = await makeTreeRepository(base, files);
  let bytes = 0;
  for (const entry of await fs.readdir(tree, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && !entry.parentPath.includes(`${path.sep}.git`)) bytes += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  await runWorktreeSection(tree, runs, `a ${files}-file repository (${(bytes / 1_048_576).toFixed(2)} MB of files)`);
  const small = await makeSmallRepository(base);
  await runAgentSection(small, path.join(base, "data"), runs);
  console.log(
    `\nload after: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" / ")}`,
  );
} finally {
  await fs.rm(base, { recursive: true, force: true });
}
