/**
 * Shared helpers of the subagent benchmark: git with a fixed identity, the
 * generated repositories, medians and the machine line.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

/** git's environment: a fixed identity, no user or system configuration. */
export const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@x",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@x",
};

/** Runs git synchronously (setup only). */
export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** Runs git as a child process, asynchronously (the bare peer of the measured paths). */
export function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

/**
 * A committed repository of `fileCount` TypeScript files (about 570 bytes
 * each) in a tree of packages / areas / folders, like a mid-sized monorepo.
 * Returns its real path.
 */
export async function makeTreeRepository(base: string, fileCount: number): Promise<string> {
  const root = path.join(base, "repo");
  await fs.mkdir(root, { recursive: true });
  gitSync(root, "init", "-q", "-b", "main");
  for (let index = 0; index < fileCount; index++) {
    const folder = path.join(root, `packages/pkg-${index % 12}/src/area-${(index >> 2) % 8}/part-${(index >> 5) % 4}`);
    await fs.mkdir(folder, { recursive: true });
    const lines = Array.from({ length: 15 }, (_, line) => `export const value${line} = ${index * 31 + line}; // line ${line}`);
    await fs.writeFile(path.join(folder, `file-${index}.ts`), `${lines.join("\n")}\n`);
  }
  await fs.writeFile(path.join(root, "README.md"), "# generated\n");
  gitSync(root, "add", "-A");
  gitSync(root, "commit", "-q", "-m", "initial");
  return fs.realpath(root);
}

/** A small committed repository for the Agent tool runs. Returns its real path. */
export async function makeSmallRepository(base: string): Promise<string> {
  const root = path.join(base, "small");
  await fs.mkdir(path.join(root, "src"), { recursive: true });
  gitSync(root, "init", "-q", "-b", "main");
  await fs.writeFile(path.join(root, "README.md"), "# demo\n\nA small repository.\n");
  for (let index = 0; index < 20; index++) await fs.writeFile(path.join(root, `src/m${index}.ts`), `export const m${index} = ${index};\n`);
  gitSync(root, "add", "-A");
  gitSync(root, "commit", "-q", "-m", "initial");
  return fs.realpath(root);
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds `run` took. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Cores, CPU model, Node and the load averages. */
export function machineLine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
  return `machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), Node ${process.version}, load 1/5/15 min ${load}`;
}

/** A number of milliseconds with a precision that suits its size. */
export function ms(value: number): string {
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 1 ? value.toFixed(1) : value.toFixed(3);
}

/** `a / b` as `1.23x`. */
export function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(2)}x` : "n/a";
}
