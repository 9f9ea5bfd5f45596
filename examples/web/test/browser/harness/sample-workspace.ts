/**
 * A temp workspace per test: a copy of the CLI example's sample project (the
 * shopping cart with the discount bug that the scripted demo fixes), with the
 * buggy file in CRLF line endings as the demo expects.
 */
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPOSITORY_DIR } from "./paths.js";

/** The sample project shipped with the CLI example. */
export const SAMPLE_PROJECT_DIR = path.join(REPOSITORY_DIR, "examples/cli/sample-project");

/** The file with the bug, relative to the workspace. */
export const SAMPLE_BUGGY_FILE = "src/pricing.js";

/** The buggy line of {@link SAMPLE_BUGGY_FILE}, which the demo's Edit removes. */
export const SAMPLE_BUGGY_LINE = "return amount - percent;";

/** The line the demo's Edit puts in its place. */
export const SAMPLE_FIXED_LINE = "return amount - (amount * percent) / 100;";

/** A workspace of one test. */
export interface SampleWorkspace {
  /** Canonical absolute path of the project copy. */
  readonly workdir: string;
  /** Reads a file of the workspace as UTF-8. */
  read(relativePath: string): string;
  /** Deletes the workspace. */
  remove(): void;
}

/**
 * Copies the sample project into a new temp directory.
 *
 * @example
 * const workspace = createSampleWorkspace();
 * try { ... } finally { workspace.remove(); }
 */
export function createSampleWorkspace(): SampleWorkspace {
  const parent = realpathSync(mkdtempSync(path.join(os.tmpdir(), "web-browser-test-")));
  const workdir = path.join(parent, "sample-shop");
  cpSync(SAMPLE_PROJECT_DIR, workdir, { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
  const buggy = path.join(workdir, SAMPLE_BUGGY_FILE);
  writeFileSync(buggy, readFileSync(buggy, "utf8").replace(/\r?\n/g, "\r\n"));
  return {
    workdir,
    read: (relativePath) => readFileSync(path.join(workdir, relativePath), "utf8"),
    remove: () => rmSync(parent, { recursive: true, force: true }),
  };
}
