import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { createToolRegistry, toolResultText } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { createLocalWorkspace } from "@agent-tools/node";
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

/**
 * The local disk seen through the port only: a local workspace reporting
 * `localPaths: false`, so the tools take their workspace paths (files
 * through `workspace.fs`, Grep's candidates from `rg` run through
 * `workspace.processes`, real processes).
 */
async function portOnlyHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const disk = await localHarness(files);
  await disk.registry.close();
  const local = await createLocalWorkspace({ root: disk.root });
  const workspace: Workspace = {
    kind: "local-through-port",
    label: local.label,
    root: local.root,
    fs: local.fs,
    processes: local.processes,
    capabilities: { ...local.capabilities, localPaths: false },
    close: () => local.close(),
  };
  const registry = createToolRegistry({
    workdir: disk.root,
    dataDir: path.join(path.dirname(disk.root), "data"),
    ports: { workspace },
    bundles: [createFsToolBundle()],
    loopBreaker: false,
  });
  return {
    ...disk,
    registry,
    close: async () => {
      await registry.close();
      await workspace.close();
      await disk.close();
    },
  };
}

// The workspace runs `rg` from its PATH, as on a remote machine: put this host's ripgrep there.
const rgDirectory = path.dirname(createRequire(import.meta.url)("@vscode/ripgrep").rgPath as string);
process.env.PATH = `${rgDirectory}${path.delimiter}${process.env.PATH ?? ""}`;

runWorkspaceBehaviourCases("file tools on the local disk", localHarness);
runWorkspaceBehaviourCases("file tools on the local disk through the Workspace port (rg through its processes)", portOnlyHarness);
runWorkspaceBehaviourCases("file tools on a memory workspace", memoryHarness);

describe("Grep's candidates on a workspace", () => {
  const files = { "a.txt": "needle here\n", "b.txt": "hay\n", "sub/c.txt": "another needle\n" };
  const grep = async (harness: BehaviourHarness) => {
    try {
      const result = await harness.registry.executeToolCall({ id: "grep-engine", name: "Grep", arguments: { pattern: "needle", output_mode: "files" } });
      return { text: toolResultText(result), details: result.details };
    } finally {
      await harness.close();
    }
  };
  const expected = "Found 2 matching lines in 2 files (files 1-2):\na.txt (1, firstLine=1)\nsub/c.txt (1, firstLine=1)";

  it("come from rg run through the workspace's processes when it has ripgrep", async () => {
    const found = await grep(await portOnlyHarness(files));
    expect(found.text).toBe(expected);
    expect(found.details).toMatchObject({ engine: "ripgrep", fileCount: 2 });
  });

  it("come from the walk through its file system when it runs no processes", async () => {
    const found = await grep(await memoryHarness(files));
    expect(found.text).toBe(expected);
    expect(found.details).toMatchObject({ engine: "typescript", fileCount: 2 });
  });
});
