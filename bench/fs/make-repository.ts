/**
 * Builds the benchmark repositories from local material (the package sources
 * under node_modules/.pnpm), once, and reuses them on later runs:
 * - base: a git repository with >= 3,000 tracked files and an ignored
 *   node_modules/ of >= 20,000 files (hard links, cheap to make);
 * - x20: twenty copies of base in one git repository;
 * - rules-3k and rules-60k: trees with ignore files of every rule shape
 *   (see make-rules-corpus.ts).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureRulesRepositories, type RulesRepositories } from "./make-rules-corpus.js";

const PNPM_STORE = path.resolve(import.meta.dirname, "../../node_modules/.pnpm");
const TRACKED_PACKAGES = [
  "kysely@0.28.19",
  "zod@4.6.7",
  "@modelcontextprotocol+sdk@1.32.2_zod@4.6.7",
  "hono@4.13.19",
  "ai@6.0.326_zod@4.6.7",
  "ajv@8.20.0",
  "@opentelemetry+api@1.10.0",
  "yaml@2.9.1",
  "typedoc@0.28.20_typescript@5.9.3",
  "undici@6.29.1",
  "execa@9.6.1",
  "diff@9.0.0",
];

/** Paths of the benchmark repositories. */
export interface BenchRepositories {
  base: string;
  x20: string;
  trackedFiles: number;
  ignoredFiles: number;
  /** The rules-3k and rules-60k repositories (ignore files of every rule shape). */
  rules: RulesRepositories;
}

function countFiles(directory: string): number {
  let count = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) count += countFiles(path.join(directory, entry.name));
    else if (entry.isFile()) count += 1;
  }
  return count;
}

function _copyRealFiles(from: string, to: string, hardLink: boolean): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      mkdirSync(target, { recursive: true });
      _copyRealFiles(source, target, hardLink);
    } else if (entry.isFile()) {
      if (hardLink) execFileSync("ln", [source, target]);
      else cpSync(source, target);
    }
  }
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, stdio: "ignore" });
}

function makeBase(base: string): void {
  mkdirSync(base, { recursive: true });
  for (const name of TRACKED_PACKAGES) {
    const source = path.join(PNPM_STORE, name, "node_modules");
    if (!existsSync(source)) continue;
    const target = path.join(base, "packages", name.replace(/[@+]/g, "_"));
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(source)) {
      const full = path.join(source, entry);
      if (lstatSync(full).isSymbolicLink()) continue;
      cpSync(full, path.join(target, entry), { recursive: true, dereference: false, filter: (item) => !lstatSync(item).isSymbolicLink() });
    }
  }
  writeFileSync(path.join(base, ".gitignore"), "node_modules/\n*.log\n.cache/\n");
  writeFileSync(path.join(base, "README.md"), "# bench repository\n");
  // The ignored dependency tree: every real file of the pnpm store, twice, as hard links.
  for (const copy of ["a", "b"]) {
    const target = path.join(base, "node_modules", copy);
    mkdirSync(target, { recursive: true });
    execFileSync("cp", ["-al", `${PNPM_STORE}/.`, target]);
  }
  git(base, "init", "-q", "-b", "main");
  git(base, "add", "-A");
  git(base, "commit", "-q", "-m", "bench repository");
}

function makeX20(base: string, x20: string): void {
  mkdirSync(x20, { recursive: true });
  for (let index = 1; index <= 20; index += 1) {
    const target = path.join(x20, `copy-${String(index).padStart(2, "0")}`);
    mkdirSync(target);
    for (const entry of readdirSync(base)) {
      if (entry === ".git") continue;
      execFileSync("cp", ["-al", path.join(base, entry), target]);
    }
  }
  git(x20, "init", "-q", "-b", "main");
  git(x20, "add", "-A");
  git(x20, "commit", "-q", "-m", "bench repository x20");
}

/** Creates (or reuses) the repositories under os.tmpdir()/agent-tools-bench-fs. */
export function ensureBenchRepositories(root = path.join(os.tmpdir(), "agent-tools-bench-fs")): BenchRepositories {
  const base = path.join(root, "base");
  const x20 = path.join(root, "x20");
  const marker = path.join(root, "ready-v1");
  if (!existsSync(marker)) {
    // Only the generated trees: the root also holds the real ones (make-real-repository.ts).
    rmSync(base, { recursive: true, force: true });
    rmSync(x20, { recursive: true, force: true });
    console.log(`building benchmark repositories in ${root} (once) ...`);
    makeBase(base);
    makeX20(base, x20);
    writeFileSync(marker, "ok\n");
  }
  const tracked = execFileSync("git", ["ls-files"], { cwd: base, maxBuffer: 1 << 28 })
    .toString()
    .split("\n")
    .filter(Boolean).length;
  const rules = ensureRulesRepositories(root);
  return { base, x20, trackedFiles: tracked, ignoredFiles: countFiles(path.join(base, "node_modules")), rules };
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const repositories = ensureBenchRepositories();
  console.log(repositories);
}
