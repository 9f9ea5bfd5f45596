/**
 * Builds, once, the benchmark trees from a real public repository instead of
 * generated material: a checkout of google-gemini/gemini-cli at a pinned
 * commit, with an ignored `node_modules/` of about 50,000 files (hard links
 * of this workspace's pnpm store, twice), and twenty copies of its tracked
 * files in one git repository.
 *
 * The source is a git repository (bare or not) named by
 * `AGENT_TOOLS_BENCH_GEMINI_GIT`, else the local mirror
 * `/work/.mirror/google-gemini+gemini-cli/repo` when it exists, else the
 * GitHub URL. Files the source does not hold (a few large binaries of a
 * partial mirror) are left out; the bench prints the counts it got.
 */
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The commit of gemini-cli the figures were taken on. */
export const GEMINI_CLI_COMMIT = "5411f113cafae26161b4969b0237b8e1e024e2c2";
const MIRROR = "/work/.mirror/google-gemini+gemini-cli/repo";
const URL = "https://github.com/google-gemini/gemini-cli.git";
const PNPM_STORE = path.resolve(import.meta.dirname, "../../node_modules/.pnpm");

/** Paths and sizes of the real-repository trees. */
export interface RealRepositories {
  /** The checkout with its ignored node_modules. */
  checkout: string;
  /** Twenty copies of the checkout's tracked files in one repository. */
  x20: string;
  trackedFiles: number;
  ignoredFiles: number;
  ignoreFilesX20: number;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 256 * 1024 * 1024,
  });
}

function commitAll(directory: string, message: string): void {
  git(directory, "init", "-q", "-b", "main");
  git(directory, "add", "-A");
  git(directory, "commit", "-q", "-m", message);
}

function countFiles(directory: string, name?: string): number {
  let count = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    if (entry.isDirectory()) count += countFiles(path.join(directory, entry.name), name);
    else if (entry.isFile() && (name === undefined || entry.name === name)) count += 1;
  }
  return count;
}

/** Checks the pinned commit out of the source into `target` (tracked files only, no .git). */
function checkOutSource(target: string): void {
  const source = process.env.AGENT_TOOLS_BENCH_GEMINI_GIT ?? (existsSync(MIRROR) ? MIRROR : URL);
  const clone = `${target}.clone`;
  rmSync(clone, { recursive: true, force: true });
  execFileSync("git", ["clone", "-q", "--no-checkout", source, clone], { stdio: "ignore" });
  try {
    // A partial mirror lacks a few large blobs: checkout reports them and goes on.
    execFileSync("git", ["checkout", "-q", GEMINI_CLI_COMMIT], { cwd: clone, stdio: "ignore" });
  } catch {
    console.log(`(some files of ${GEMINI_CLI_COMMIT.slice(0, 10)} are missing from ${source}; left out)`);
  }
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(clone)) {
    if (entry !== ".git") execFileSync("cp", ["-a", path.join(clone, entry), target]);
  }
  rmSync(clone, { recursive: true, force: true });
}

function makeCheckout(checkout: string): void {
  checkOutSource(checkout);
  commitAll(checkout, `gemini-cli ${GEMINI_CLI_COMMIT}`);
  // The ignored dependency tree (gemini-cli's .gitignore has "node_modules"): the pnpm store, twice, as hard links.
  for (const copy of ["a", "b"]) {
    const target = path.join(checkout, "node_modules", copy);
    mkdirSync(target, { recursive: true });
    execFileSync("cp", ["-al", `${PNPM_STORE}/.`, target]);
  }
}

function makeX20(checkout: string, x20: string): void {
  mkdirSync(x20, { recursive: true });
  const tracked = git(checkout, "ls-files", "-z").split("\0").filter(Boolean);
  for (let index = 1; index <= 20; index += 1) {
    const copy = path.join(x20, `copy-${String(index).padStart(2, "0")}`);
    for (const file of tracked) {
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      linkSync(path.join(checkout, file), path.join(copy, file));
    }
  }
  commitAll(x20, "gemini-cli x20");
}

/** Creates (or reuses) the real-repository trees under os.tmpdir()/agent-tools-bench-fs. */
export function ensureRealRepositories(root = path.join(os.tmpdir(), "agent-tools-bench-fs")): RealRepositories {
  const checkout = path.join(root, "gemini-cli");
  const x20 = path.join(root, "gemini-cli-x20");
  const marker = path.join(root, "ready-gemini-v1");
  if (!existsSync(marker)) {
    rmSync(checkout, { recursive: true, force: true });
    rmSync(x20, { recursive: true, force: true });
    console.log(`building gemini-cli trees in ${root} (once) ...`);
    makeCheckout(checkout);
    makeX20(checkout, x20);
    writeFileSync(marker, "ok\n");
  }
  return {
    checkout,
    x20,
    trackedFiles: git(checkout, "ls-files", "-z").split("\0").filter(Boolean).length,
    ignoredFiles: countFiles(path.join(checkout, "node_modules")),
    ignoreFilesX20: countFiles(x20, ".gitignore"),
  };
}
