import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { type BehaviourHarness, runWorkspaceBehaviourCases } from "../__fixtures__/workspace-behaviour-cases.js";
import { createFsToolBundle } from "../index.js";

/** The local disk: a temporary directory, no workspace port. */
async function localHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-behaviour-")));
  const root = path.join(base, "root");
  const put = (relative: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  };
  mkdirSync(root);
  for (const [relative, content] of Object.entries(files)) put(relative, content);
  const registry = createToolRegistry({ workdir: root, dataDir: path.join(base, "data"), bundles: [createFsToolBundle()], loopBreaker: false });
  return {
    registry,
    root,
    write: async (relative, content) => put(relative, content),
    read: async (relative) => {
      try {
        return readFileSync(path.join(root, relative));
      } catch {
        return undefined;
      }
    },
    symlink: async (target, relative) => symlinkSync(target, path.join(root, relative)),
    close: async () => {
      await registry.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** The memory workspace: the tree lives in memory; the registry's dataDir is a local temporary directory. */
async function memoryHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const root = "/srv/behaviour/root";
  const workspace = createMemoryWorkspace({ root, files });
  const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-behaviour-data-"));
  const registry = createToolRegistry({ workdir: root, dataDir: data, ports: { workspace }, bundles: [createFsToolBundle()], loopBreaker: false });
  return {
    registry,
    root,
    write: (relative, content) => workspace.fs.writeFileAtomic(`${root}/${relative}`, Buffer.from(content)),
    read: async (relative) => {
      try {
        return await workspace.fs.readFile(`${root}/${relative}`);
      } catch {
        return undefined;
      }
    },
    symlink: (target, relative) => workspace.symlink(target, `${root}/${relative}`),
    close: async () => {
      await registry.close();
      await workspace.close();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

runWorkspaceBehaviourCases("file tools on the local disk", localHarness);
runWorkspaceBehaviourCases("file tools on a memory workspace", memoryHarness);
