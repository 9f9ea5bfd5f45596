/**
 * The `crashDuringWrite` hook of the workspace contract for the local
 * workspace: a child Node process writes the bytes through
 * createLocalWorkspace, round after round, and is SIGKILLed as soon as a
 * temporary file of its write shows up beside the target.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { isToolSidecarName } from "@agent-tools/file-io";
import { killFixture, startFixture } from "./spawn-fixture.js";

const temporaries = (directory: string) => readdirSync(directory).filter((name) => isToolSidecarName(name) && name.endsWith(".tmp"));

/** Starts a writer of `bytes` to `file` in another process and kills it mid-write. */
export async function crashLocalWriteMidway(workspace: Workspace, file: string, bytes: Uint8Array): Promise<void> {
  const directory = path.dirname(file);
  const before = new Set(temporaries(directory));
  const writer = await startFixture("local-write-child.ts", [workspace.root, file], "writing", bytes);
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline && !temporaries(directory).some((name) => !before.has(name))) await new Promise((resolve) => setTimeout(resolve, 1));
  } finally {
    await killFixture(writer);
  }
}
