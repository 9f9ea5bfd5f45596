/**
 * The multi-edit cases (see __fixtures__/multi-edit-cases.ts) on the local
 * disk and on the memory workspace; the SSH workspace runs them in
 * packages/sdk/src/edit-multi-ssh.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import type { BehaviourHarness } from "../__fixtures__/workspace-behaviour-cases.js";
import { createFsToolBundle } from "../index.js";
import { runMultiEditCases } from "./__fixtures__/multi-edit-cases.js";

async function localHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-multi-edit-")));
  const root = path.join(base, "root");
  const put = async (relative: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  };
  mkdirSync(root);
  for (const [relative, content] of Object.entries(files)) await put(relative, content);
  const registry = createToolRegistry({ workdir: root, dataDir: path.join(base, "data"), bundles: [createFsToolBundle()], loopBreaker: false });
  return {
    registry,
    root,
    write: put,
    read: async (relative) => {
      try {
        return readFileSync(path.join(root, relative));
      } catch {
        return undefined;
      }
    },
    symlink: async () => {
      throw new Error("not used by these cases");
    },
    close: async () => {
      await registry.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

async function memoryHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const root = "/srv/multi-edit/root";
  const workspace = createMemoryWorkspace({ root, files });
  const data = mkdtempSync(path.join(os.tmpdir(), "tools-fs-multi-edit-data-"));
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

runMultiEditCases("the local disk", localHarness);
runMultiEditCases("the memory workspace", memoryHarness);
