/**
 * The sample project the offline demo works on: a tiny shopping-cart library
 * with one bug, shipped in `examples/cli/sample-project` and copied to a
 * temporary directory for every run, so the demo never touches the example.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The shipped sample (works from `src/demo` and from `dist/demo`). */
export const SAMPLE_PROJECT_DIR = fileURLToPath(new URL("../../sample-project/", import.meta.url));

/** The file with the bug; it uses CRLF line endings on purpose. */
export const SAMPLE_BUGGY_FILE = "src/pricing.js";

/** The buggy line of {@link SAMPLE_BUGGY_FILE}, which the demo's fix removes. */
export const SAMPLE_BUGGY_LINE = "return amount - percent;";

/** The line the demo's fix puts in its place. */
export const SAMPLE_FIXED_LINE = "return amount - (amount * percent) / 100;";

/** The sample's own test command. */
export const SAMPLE_TEST_COMMAND = "node --test --test-reporter=spec";

/** A temporary copy of the sample project. */
export interface DemoProject {
  /** Absolute, canonical path of the copy. */
  readonly workdir: string;
  /** Deletes the copy. */
  remove(): void;
}

/**
 * Copies the sample project into a new temporary directory and makes sure the
 * buggy file has CRLF line endings (a checkout may have normalised them).
 *
 * @example
 * const project = prepareDemoProject();
 * try { ... } finally { project.remove(); }
 */
export function prepareDemoProject(): DemoProject {
  const parent = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-demo-")));
  const workdir = path.join(parent, "sample-shop");
  cpSync(SAMPLE_PROJECT_DIR, workdir, { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
  const buggy = path.join(workdir, SAMPLE_BUGGY_FILE);
  const text = readFileSync(buggy, "utf8");
  writeFileSync(buggy, text.replace(/\r?\n/g, "\r\n"));
  return { workdir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** What running the sample's tests showed. */
export interface SampleTestRun {
  passed: boolean;
  /** The reporter's summary lines (`ℹ pass 7`, `ℹ fail 0`, ...). */
  summary: string;
}

/**
 * Runs the sample's own tests in `workdir`: how the host checks a real
 * model's work on the demo task.
 */
export function runSampleTests(workdir: string): SampleTestRun {
  const run = spawnSync(process.execPath, ["--test", "--test-reporter=spec"], { cwd: workdir, encoding: "utf8", timeout: 120_000 });
  const summary = `${run.stdout ?? ""}`
    .split("\n")
    .filter((line) => /^ℹ (tests|pass|fail) /.test(line))
    .map((line) => line.slice(2))
    .join(", ");
  return { passed: run.status === 0, summary: summary || (run.error?.message ?? `exit ${run.status}`) };
}

/** What the buggy file of a copy looks like after a fix. */
export interface SampleFixState {
  /** {@link SAMPLE_FIXED_LINE} is there and {@link SAMPLE_BUGGY_LINE} is gone. */
  fixed: boolean;
  /** Every line still ends in CRLF (an Edit must keep the file's line endings). */
  crlfKept: boolean;
}

/**
 * Reads {@link SAMPLE_BUGGY_FILE} of a copy in `workdir`: whether the fix is
 * in and the CRLF line endings survived it.
 *
 * @example
 * readSampleFixState(project.workdir); // { fixed: true, crlfKept: true } after the demo
 */
export function readSampleFixState(workdir: string): SampleFixState {
  const text = readFileSync(path.join(workdir, SAMPLE_BUGGY_FILE), "utf8");
  const lines = text.split("\n").slice(0, -1);
  return {
    fixed: text.includes(SAMPLE_FIXED_LINE) && !text.includes(SAMPLE_BUGGY_LINE),
    crlfKept: lines.length > 0 && lines.every((line) => line.endsWith("\r")),
  };
}
