/**
 * The symlink race of the hardening tests and of bench/fs/race-soak.ts: a
 * second process keeps replacing `sub` (a directory, or a symlink into the
 * workspace) with a symlink to a directory outside the workspace and back,
 * while the file tools work on paths below `sub`. Everything outside is
 * snapshotted first and compared afterwards; a Read that returns outside
 * content counts as an escape too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolRegistry, type ToolRegistry } from "@agent-tools/core";
import { createFsToolBundle } from "../fs-tool-bundle.js";

/** Which tool the race drives. */
export type RaceTool = "Read" | "Write" | "Edit" | "Delete";
/** How `sub` is swapped: its symlink target flips, or the directory itself is replaced by a symlink. */
export type RaceMode = "link" | "dir";

/** What one race run saw. */
export interface RaceReport {
  tool: RaceTool;
  mode: RaceMode;
  operations: number;
  succeeded: number;
  /** Error codes of the calls that failed, with counts. */
  failures: Record<string, number>;
  /** Outside files changed, created or removed, plus Reads that returned outside content. */
  escapes: string[];
  swaps: number;
}

const swapperScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "symlink-swapper.mjs");
const OUTSIDE_MARK = "OUTSIDE-CONTENT";
const POOL = 40;

function seed(directory: string, mark: string): void {
  mkdirSync(path.join(directory, "d"), { recursive: true });
  writeFileSync(path.join(directory, "x.txt"), `${mark} x\n`);
  writeFileSync(path.join(directory, "e.txt"), `alpha ${mark}\n`);
  for (let index = 0; index < POOL; index += 1) writeFileSync(path.join(directory, "d", `f${index}.txt`), `${mark} ${index}\n`);
}

/** Every file below `directory` with the hash of its content (symlinks by their target). */
function snapshot(directory: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        files.set(`${full}/`, "dir");
        walk(full);
      } else files.set(full, createHash("sha1").update(readFileSync(full)).digest("hex"));
    }
  };
  walk(directory);
  return files;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const found: string[] = [];
  const content = (file: string) => JSON.stringify(readFileSync(file, "utf8").slice(0, 40));
  for (const [file, hash] of before)
    if (after.get(file) !== hash) found.push(after.has(file) ? `changed ${file} (now ${hash === "dir" ? "a directory" : content(file)})` : `removed ${file}`);
  for (const file of after.keys()) if (!before.has(file)) found.push(`created ${file}`);
  return found;
}

async function startSwapper(workdir: string, outside: string, mode: RaceMode): Promise<ChildProcess & { swapsReported: Promise<number> }> {
  const child = spawn(process.execPath, [swapperScript, workdir, outside, mode], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`swapper exited early (${code})`)));
  });
  const swapsReported = new Promise<number>((resolve) => child.once("exit", () => resolve(Number(/swaps (\d+)/.exec(output)?.[1] ?? 0))));
  await ready;
  return Object.assign(child, { swapsReported });
}

/**
 * Opens the real directory that `sub` stands for, wherever the swapper has it
 * right now, without following a symlink (dir mode moves it between `sub`
 * and `sub.away`); the refill writes through the descriptor, so the harness
 * itself can never write outside.
 */
function openRealDirectory(workdir: string, mode: RaceMode): number | undefined {
  const candidates = mode === "link" ? ["real"] : ["sub.away", "sub"];
  for (const name of candidates) {
    try {
      return openSync(path.join(workdir, name), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch {
      // moved or a symlink right now: try the other place
    }
  }
  return undefined;
}

function refillPool(workdir: string, mode: RaceMode): void {
  const fd = openRealDirectory(workdir, mode);
  if (fd === undefined) return; // the next success refills
  try {
    const base = `/proc/self/fd/${fd}/d`;
    mkdirSync(base, { recursive: true });
    for (let file = 0; file < POOL; file += 1) {
      const target = `${base}/f${file}.txt`;
      if (!existsSync(target)) writeFileSync(target, `inside ${file}\n`, { flag: "wx" });
    }
  } catch {
    // the directory changed meanwhile: the next success refills
  } finally {
    closeSync(fd);
  }
}

async function operate(
  registry: ToolRegistry,
  tool: RaceTool,
  index: number,
  workdir: string,
  mode: RaceMode,
): Promise<{ ok: boolean; code?: string; text: string }> {
  let args: Record<string, unknown>;
  switch (tool) {
    case "Read":
      args = { path: "sub/x.txt" };
      break;
    case "Write":
      args = { path: index % 2 === 0 ? "sub/x.txt" : `sub/new/n${index % POOL}.txt`, content: `inside write ${index}\n` };
      break;
    case "Edit":
      args = index % 2 === 0 ? { path: "sub/e.txt", old_string: "alpha", new_string: "beta" } : { path: "sub/e.txt", old_string: "beta", new_string: "alpha" };
      break;
    case "Delete":
      args = { path: index % 10 === 9 ? "sub/d" : `sub/d/f${index % POOL}.txt` };
      break;
  }
  const result = await registry.executeToolCall({ id: `race-${index}`, name: tool, arguments: args });
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  // Put the pool back inside, through the real directory's descriptor (never through sub).
  if (tool === "Delete" && !result.isError) refillPool(workdir, mode);
  return { ok: !result.isError, code: (result.details as { code?: string } | undefined)?.code, text };
}

/**
 * Runs `operations` calls of `tool` through a fresh registry while a second
 * process swaps `sub`; returns what happened, escapes included.
 */
export async function runSymlinkRace(tool: RaceTool, mode: RaceMode, operations: number): Promise<RaceReport> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-race-")));
  const workdir = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  seed(outside, OUTSIDE_MARK);
  if (mode === "link") {
    seed(path.join(workdir, "real"), "inside");
    symlinkSync(path.join(workdir, "real"), path.join(workdir, "sub"));
  } else seed(path.join(workdir, "sub"), "inside");
  const before = snapshot(outside);
  const registry = createToolRegistry({ workdir, bundles: [createFsToolBundle({ ripgrepPath: false })], loopBreaker: false });
  const swapper = await startSwapper(workdir, outside, mode);
  const report: RaceReport = { tool, mode, operations, succeeded: 0, failures: {}, escapes: [], swaps: 0 };
  try {
    for (let index = 0; index < operations; index += 1) {
      const outcome = await operate(registry, tool, index, workdir, mode);
      if (outcome.ok) report.succeeded += 1;
      else report.failures[outcome.code ?? "unknown"] = (report.failures[outcome.code ?? "unknown"] ?? 0) + 1;
      if (outcome.text.includes(OUTSIDE_MARK)) report.escapes.push(`call ${index} returned outside content`);
    }
  } finally {
    swapper.kill("SIGTERM");
    report.swaps = await swapper.swapsReported;
    await registry.close();
  }
  report.escapes.push(...differences(before, snapshot(outside)));
  rmSync(base, { recursive: true, force: true });
  return report;
}
