/**
 * A temp workspace per test: a copy of the CLI example's sample project (the
 * shopping cart with the discount bug that the scripted demo fixes), made by
 * the CLI's own `prepareDemoProject` (the buggy file in CRLF line endings, as
 * the demo expects).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { prepareDemoProject } from "@agent-tools/example-cli/demo/sample-project";

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
  const project = prepareDemoProject();
  return {
    workdir: project.workdir,
    read: (relativePath) => readFileSync(path.join(project.workdir, relativePath), "utf8"),
    remove: () => project.remove(),
  };
}
