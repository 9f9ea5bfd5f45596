import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { openFileCheckpoints } from "./checkpoint-wiring.js";

const temporaries: string[] = [];
function dataDir(): string {
  const made = mkdtempSync(path.join(tmpdir(), "sdk-ws-checkpoints-"));
  temporaries.push(made);
  return made;
}
afterAll(() => {
  for (const made of temporaries) rmSync(made, { recursive: true, force: true });
});

const toolResultTextOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) =>
  result.content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
const text = async (workspace: Workspace, file: string) => (await workspace.fs.readFile(file)).toString("utf8");
const exists = (workspace: Workspace, file: string) =>
  workspace.fs.lstat(file).then(
    () => true,
    () => false,
  );

/**
 * The scenario on any workspace whose `base` is an empty folder inside its root: Write (new file), Edit (a 0755
 * script) and Delete (a folder) inside one checkpoint, then the host rewinds it through the workspace.
 */
async function rewindScenario(workspace: Workspace, base: string): Promise<void> {
  await workspace.fs.mkdir(`${base}/docs`, { recursive: true });
  await workspace.fs.writeFileAtomic(`${base}/run.sh`, Buffer.from("#!/bin/sh\necho one\n"), { mode: 0o755 });
  await workspace.fs.writeFileAtomic(`${base}/docs/a.md`, Buffer.from("alpha\n"), { mode: 0o640 });
  await workspace.fs.writeFileAtomic(`${base}/keep.txt`, Buffer.from("keep\n"));
  const data = dataDir();
  const registry = await buildBuiltinToolRegistry({ workspace, workdir: base, dataDir: data, memory: false, checkpoints: {} });
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>, checkpointId = "turn-1") => {
    const result = await registry.executeToolCall({ id: `c${++calls}`, name, arguments: args }, { checkpointId });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  };
  const checkpoints = openFileCheckpoints({ dataDir: data });
  try {
    await call("Write", { path: "new.txt", content: "created\n" });
    await call("Read", { path: "run.sh" });
    await call("Edit", { path: "run.sh", old_string: "echo one", new_string: "echo two" });
    await call("Delete", { path: "docs" });
    await call("Read", { path: "keep.txt" });
    await call("Edit", { path: "keep.txt", old_string: "keep", new_string: "mine" });
    // Someone else changes keep.txt after the checkpoint's change: a conflict, never overwritten.
    await workspace.fs.writeFileAtomic(`${base}/keep.txt`, Buffer.from("theirs\n"));
    expect(await exists(workspace, `${base}/docs`)).toBe(false);

    // The entries are keyed by the workspace: a rewind of this host's files touches none of them.
    const local = await checkpoints.rewindCheckpoint("turn-1");
    expect(local.restored).toEqual([]);
    expect(local.removed).toEqual([]);
    expect(local.conflicts.map((conflict) => conflict.reason)).toEqual(
      Array(5).fill(`recorded in the workspace ${workspace.label}: rewind it with that workspace as options.workspace; left alone`),
    );
    expect(await text(workspace, `${base}/new.txt`)).toBe("created\n");

    const report = await checkpoints.rewindCheckpoint("turn-1", { workspace });
    expect(report.removed).toEqual([`${base}/new.txt`]);
    expect(report.restored).toEqual([`${base}/docs`, `${base}/docs/a.md`, `${base}/run.sh`]);
    expect(report.conflicts).toEqual([{ path: `${base}/keep.txt`, reason: expect.stringMatching(/^changed after the checkpoint's last change/) }]);
    expect(await exists(workspace, `${base}/new.txt`)).toBe(false);
    expect(await text(workspace, `${base}/run.sh`)).toBe("#!/bin/sh\necho one\n");
    expect((await workspace.fs.stat(`${base}/run.sh`)).mode & 0o777).toBe(0o755);
    expect(await text(workspace, `${base}/docs/a.md`)).toBe("alpha\n");
    expect((await workspace.fs.stat(`${base}/docs/a.md`)).mode & 0o777).toBe(0o640);
    expect(await text(workspace, `${base}/keep.txt`)).toBe("theirs\n");

    // Idempotent: run again, nothing left to do but the conflict.
    const again = await checkpoints.rewindCheckpoint("turn-1", { workspace });
    expect([...again.restored, ...again.removed]).toEqual([]);
    expect(again.conflicts.map((conflict) => conflict.path)).toEqual([`${base}/keep.txt`]);
    const forced = await checkpoints.rewindCheckpoint("turn-1", { workspace, force: true });
    expect(forced.restored).toEqual([`${base}/keep.txt`]);
    expect(await text(workspace, `${base}/keep.txt`)).toBe("keep\n");
  } finally {
    await checkpoints.close();
    await registry.close();
  }
}

describe("checkpoints on a non-local workspace (buildBuiltinToolRegistry({ workspace, checkpoints }))", () => {
  it("records Write, Edit and Delete of a memory workspace and rewinds them through it (modes kept, created files removed, conflicts left)", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws" });
    try {
      await rewindScenario(workspace, "/ws/project");
    } finally {
      await workspace.close();
    }
  });

  it("keeps two workspaces apart: records are keyed by the workspace's label, and a rewind through another workspace leaves them alone", async () => {
    const first = createMemoryWorkspace({ root: "/ws" });
    const second = createMemoryWorkspace({ root: "/ws2", files: { "other.txt": "second\n" } });
    const data = dataDir();
    const one = await buildBuiltinToolRegistry({ workspace: first, dataDir: data, memory: false, checkpoints: { id: "t" } });
    const checkpoints = openFileCheckpoints({ dataDir: data });
    try {
      await one.executeToolCall({ id: "1", name: "Write", arguments: { path: "other.txt", content: "1\n" } });
      const entries = await checkpoints.listEntries("t");
      expect(entries.map((entry) => entry.path)).toEqual(["workspace:memory%3A%2Fws:/ws/other.txt"]);
      const report = await checkpoints.rewindCheckpoint("t", { workspace: second });
      expect(report.removed).toEqual([]);
      expect(report.conflicts).toEqual([
        {
          path: "workspace:memory%3A%2Fws:/ws/other.txt",
          reason: "recorded in the workspace memory:/ws: rewind it with that workspace as options.workspace; left alone",
        },
      ]);
      expect(await text(first, "/ws/other.txt")).toBe("1\n");
      expect(await text(second, "/ws2/other.txt")).toBe("second\n");
      expect((await checkpoints.rewindCheckpoint("t", { workspace: first })).removed).toEqual(["/ws/other.txt"]);
    } finally {
      await checkpoints.close();
      await one.close();
      await first.close();
      await second.close();
    }
  });
});

describe("checkpoints on a workspace: what the port cannot put back", () => {
  it("reports a deleted symlink as a conflict (the port cannot create one) and leaves the path empty", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws", files: { "target.txt": "t\n" }, symlinks: { link: "target.txt" } });
    const data = dataDir();
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, checkpoints: { id: "s" } });
    const checkpoints = openFileCheckpoints({ dataDir: data });
    try {
      const deleted = await registry.executeToolCall({ id: "1", name: "Delete", arguments: { path: "link" } });
      expect(toolResultTextOf(deleted)).toBe("Deleted symlink: link");
      const report = await checkpoints.rewindCheckpoint("s", { workspace });
      expect(report.restored).toEqual([]);
      expect(report.conflicts).toEqual([
        { path: "/ws/link", reason: 'could not be restored: the symlink to "target.txt" cannot be put back: memory:/ws offers no way to create a symlink' },
      ]);
      expect(await exists(workspace, "/ws/link")).toBe(false);
      expect(await text(workspace, "/ws/target.txt")).toBe("t\n");
    } finally {
      await checkpoints.close();
      await registry.close();
      await workspace.close();
    }
  });
});

describe("checkpoints on an SSH workspace", () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startTestSshd();
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
  });

  it("records through SFTP and rewinds through SFTP, with the store on this host", async () => {
    const workspace = await createSshWorkspace(sshd.connectOptions);
    try {
      await rewindScenario(workspace, `${sshd.root}/project-${process.pid}`);
    } finally {
      await workspace.close();
    }
  }, 60_000);
});
