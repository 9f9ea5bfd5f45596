/**
 * The `crashDuringWrite` hook of the workspace contract for the local
 * workspace: a child Node process writes the bytes through
 * createLocalWorkspace, round after round, and is SIGKILLed as soon as a
 * temporary file of its write shows up beside the target.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { isToolSidecarName } from "@agent-tools/file-io/internal";
import { killFixture, startFixture } from "./spawn-fixture.js";

const temporaries = (directory: string) => readdirSync(directory).filter((name) => isToolSidecarName(name) && name.endsWith(".tmp"));
const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
};

/**
 * Starts a writer of `bytes` to `file` in another process and SIGKILLs it
 * mid-write: as soon as a new temporary file shows up beside `file`, or
 * `file` itself has a size that is neither its size before nor the new one
 * (a writer that is not atomic), or after 20 s.
 */
export async function crashLocalWriteMidway(workspace: Workspace, file: string, bytes: Uint8Array): Promise<void> {
  const directory = path.dirname(file);
  const before = new Set(temporaries(directory));
  const sizes = new Set([sizeOf(file), bytes.length]);
  const writer = await startFixture("local-write-child.ts", [workspace.root, file], "writing", bytes);
  const deadline = Date.now() + 20_000;
  const midway = () => !sizes.has(sizeOf(file)) || temporaries(directory).some((name) => !before.has(name));
  try {
    while (Date.now() < deadline && !midway()) await new Promise((resolve) => setTimeout(resolve, 1));
  } finally {
    await killFixture(writer);
  }
}
