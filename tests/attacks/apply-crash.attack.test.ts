/**
 * Attack on the apply of worktree subagents (issue 29, item 9): the host is
 * killed with SIGKILL in the middle of applying a child's changes to 50
 * tracked files, inside a file checkpoint.
 *
 * Before the fix, `git apply` removed the parent's files before writing the
 * new ones: a kill in between deleted them, and the checkpoint could not
 * restore them without `force`. Now, once the next registry on the workspace
 * has started (it rolls back what the killed apply left), every file holds
 * its state before the apply or all hold the applied one, nothing else is
 * left in the workspace (no temporary or lock files), and rewinding the
 * checkpoint without `force` gives back the state before the apply.
 *
 * `ATTACK_ROUNDS` (default 5) sets how many hosts are killed, at points
 * spread from the plan to after the last write; the rounds run side by side.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry, openFileCheckpoints } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { git, initRepository } from "./apply-repository.js";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 5));
const FILES = 50;
const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../..");
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-apply-crash-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const names = Array.from({ length: FILES }, (_, index) => `f${String(index).padStart(2, "0")}.txt`);
const pre = (name: string) => `original ${name}\n`;
const post = (name: string) => `${pre(name)}changed by the subagent\n`;
const KILL_POINTS = [
  { onSettling: true, delayMs: 40 },
  { onSettling: false, delayMs: 0 },
  { onSettling: false, delayMs: 20 },
  { onSettling: false, delayMs: 60 },
  { onSettling: false, delayMs: 1_500 },
];

/** Starts the host, and kills it with SIGKILL `delayMs` after its apply began writing (or, with `onSettling`, after the child finished). */
async function killHostMidApply(workdir: string, dataDir: string, checkpointId: string, delayMs: number, onSettling: boolean): Promise<void> {
  const host = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "apply-crash-host.mjs"), workdir, dataDir, checkpointId],
    { cwd: repositoryRoot, stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => host.on("exit", (_code, signal) => resolve(signal)));
  let output = "";
  let stderr = "";
  host.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let armed = false;
  const kill = () => {
    if (armed) return;
    armed = true;
    setTimeout(() => host.kill("SIGKILL"), delayMs);
  };
  // The apply's first write in the workspace (a lock or temporary file beside the first file) arms the kill.
  const watcher = onSettling ? undefined : fs.watch(workdir, kill);
  host.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (onSettling && output.includes('"settling":true')) kill();
  });
  const signal = await exited;
  watcher?.close();
  expect(output, stderr).toContain('"settling":true');
  if (signal !== "SIGKILL") expect(output, stderr).toContain('"result"');
}

/** One round: a host killed at a point set by `round`; then the next host's start, the checks, and the rewind. Resolves the state at the kill. */
async function round(index: number): Promise<string> {
  const base = path.join(temporary, `round-${index}`);
  const workdir = path.join(base, "project");
  const dataDir = path.join(base, "data");
  initRepository(workdir, Object.fromEntries(names.map((name) => [name, pre(name)])));
  const checkpointId = `crash-${index}`;
  // Kill points spread over the apply: after the child finished (plan, recording), 0, 20 and 60 ms into the writes, and
  // 1.5 s in (usually after the last write: the post-images recorded, the journal removed or about to be).
  const point = KILL_POINTS[index % KILL_POINTS.length]!;
  await killHostMidApply(workdir, dataDir, checkpointId, point.delayMs, point.onSettling);
  const read = () => names.map((name) => (fs.existsSync(path.join(workdir, name)) ? fs.readFileSync(path.join(workdir, name), "utf8") : "<missing>"));
  const atKill = read();
  const state = atKill.every((text, at) => text === post(names[at]!)) ? "applied" : atKill.every((text, at) => text === pre(names[at]!)) ? "untouched" : "half";

  // The next host on the workspace starts: it rolls back what the killed apply left.
  const next = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model: new ScriptedModelClient({ respond: () => "idle" }) } });
  await next.close();
  const after = read();
  const allPre = after.every((text, at) => text === pre(names[at]!));
  const allPost = after.every((text, at) => text === post(names[at]!));
  expect(allPre || allPost, `round ${index}: ${after.filter((text, at) => text !== pre(names[at]!)).length} of ${FILES} files changed`).toBe(true);
  expect(fs.readdirSync(workdir).sort()).toEqual([".git", ...names]);
  expect(git(workdir, "status", "--porcelain", "--untracked-files=all")).toBe(allPre ? "" : names.map((name) => ` M ${name}\n`).join(""));

  const checkpoints = openFileCheckpoints({ dataDir });
  try {
    const report = await checkpoints.rewindCheckpoint(checkpointId);
    expect(report.conflicts, `round ${index}`).toEqual([]);
  } finally {
    await checkpoints.close();
  }
  for (const name of names) expect(fs.readFileSync(path.join(workdir, name), "utf8")).toBe(pre(name));
  return state;
}

describe("attack: SIGKILL of the host in the middle of a worktree apply", () => {
  it(`leaves the workspace as it was or fully applied, and the checkpoint rewinds it without force (${ROUNDS} rounds)`, async () => {
    // The rounds run side by side: each host spends most of its time starting.
    const states = await Promise.all(Array.from({ length: ROUNDS }, (_, index) => round(index)));
    if (process.env.ATTACK_VERBOSE) console.info(`apply crash rounds, the workspace at the kill: ${states.join(", ")}`);
  }, 300_000);
});
