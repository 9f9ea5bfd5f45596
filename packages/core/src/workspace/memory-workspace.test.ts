import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SdkError } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceErrorCode, createMemoryWorkspace, resolveInWorkspace } from "@agent-tools/core/workspace";

async function codeOf(run: () => unknown): Promise<WorkspaceErrorCode> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspaceError);
    return (error as WorkspaceError).code;
  }
  throw new Error("expected a WorkspaceError, but the call succeeded");
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("createMemoryWorkspace", () => {
  it("describes a files-only workspace: kind memory, no processes, anchored opens, no local paths", () => {
    const workspace = createMemoryWorkspace();
    expect(workspace.kind).toBe("memory");
    expect(workspace.root).toBe("/workspace");
    expect(workspace.label).toBe("memory:/workspace");
    expect(workspace.processes).toBeUndefined();
    expect(workspace.capabilities).toEqual({ localPaths: false, processes: false, ripgrep: false, git: false, pty: false, anchoredOpens: true });
  });

  it("refuses unknown options, a relative root and bad seed content with SdkError invalid_options and a suggestion", () => {
    const unknown = thrown(() => createMemoryWorkspace({ file: { "a.txt": "x" } } as never)) as SdkError;
    expect(unknown).toBeInstanceOf(SdkError);
    expect(unknown.code).toBe("invalid_options");
    expect(unknown.message).toContain("did you mean `files`?");
    expect(unknown.details).toMatchObject({ option: "file", suggestion: "files" });
    expect((thrown(() => createMemoryWorkspace({ root: "relative/dir" })) as SdkError).details).toMatchObject({ option: "root" });
    expect((thrown(() => createMemoryWorkspace({ files: { "a.txt": 42 as never } })) as SdkError).code).toBe("invalid_options");
    expect((thrown(() => createMemoryWorkspace({ files: ["a"] as never })) as SdkError).code).toBe("invalid_options");
    expect((thrown(() => createMemoryWorkspace({ symlinks: { link: "" } })) as SdkError).code).toBe("invalid_options");
  });

  it("seeds files (relative to the root or absolute, parents created) and symlinks", async () => {
    const workspace = createMemoryWorkspace({
      root: "/home/dev/repo/",
      files: { "src/a.ts": "export const a = 1;\n", "/etc/outside.conf": new Uint8Array([1, 2, 3]) },
      symlinks: { "src/link.ts": "a.ts", "docs/dangling": "../missing" },
    });
    expect(workspace.root).toBe("/home/dev/repo");
    expect((await workspace.fs.readFile("/home/dev/repo/src/a.ts")).toString()).toBe("export const a = 1;\n");
    expect([...(await workspace.fs.readFile("/etc/outside.conf"))]).toEqual([1, 2, 3]);
    expect((await workspace.fs.stat("/home/dev/repo/src/a.ts")).mode).toBe(0o644);
    expect((await workspace.fs.readFile("/home/dev/repo/src/link.ts")).toString()).toBe("export const a = 1;\n");
    expect(await workspace.fs.readlink("/home/dev/repo/docs/dangling")).toBe("../missing");
    expect((await workspace.fs.readdir("/home/dev")).map((entry) => entry.name)).toEqual(["repo"]);
    // Containment is resolveInWorkspace's job: the outside file is an ordinary path of the tree.
    expect(await codeOf(() => resolveInWorkspace(workspace.fs, workspace.root, "/home/dev/repo/../../../etc/outside.conf"))).toBe("out_of_bounds");
  });

  it("never touches the real disk, even with a root that exists there", async () => {
    const real = mkdtempSync(path.join(tmpdir(), "memory-workspace-"));
    try {
      const workspace = createMemoryWorkspace({ root: real });
      await workspace.fs.writeFileAtomic(path.join(real, "only-in-memory.txt"), Buffer.from("x"));
      await workspace.fs.mkdir(path.join(real, "dir"));
      expect(existsSync(path.join(real, "only-in-memory.txt"))).toBe(false);
      expect(existsSync(path.join(real, "dir"))).toBe(false);
      expect(await codeOf(() => workspace.fs.stat("/etc/hostname"))).toBe("not_found");
    } finally {
      rmSync(real, { recursive: true, force: true });
    }
  });

  it("a stream opened before a replace keeps reading the old bytes (as an open file descriptor would)", async () => {
    const workspace = createMemoryWorkspace();
    const file = "/workspace/data.bin";
    await workspace.fs.writeFileAtomic(file, Buffer.alloc(300_000, 1));
    const iterator = workspace.fs.readStream(file)[Symbol.asyncIterator]();
    const first = await iterator.next();
    await workspace.fs.writeFileAtomic(file, Buffer.alloc(10, 2));
    const rest: Buffer[] = [first.value as Buffer];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    const read = Buffer.concat(rest);
    expect(read.length).toBe(300_000);
    expect(read.every((byte) => byte === 1)).toBe(true);
    expect((await workspace.fs.readFile(file)).equals(Buffer.alloc(10, 2))).toBe(true);
  });

  it("rename follows POSIX rules for directories", async () => {
    const workspace = createMemoryWorkspace({ files: { "a/inner/f.txt": "f", "full/x": "x", "file.txt": "t" } });
    await workspace.fs.mkdir("/workspace/empty");
    expect(await codeOf(() => workspace.fs.rename("/workspace/a", "/workspace/a/inner/moved"))).toBe("io");
    expect(await codeOf(() => workspace.fs.rename("/workspace/a", "/workspace/full"))).toBe("not_empty");
    expect(await codeOf(() => workspace.fs.rename("/workspace/a", "/workspace/file.txt"))).toBe("not_a_directory");
    expect(await codeOf(() => workspace.fs.rename("/workspace/file.txt", "/workspace/empty"))).toBe("is_a_directory");
    await workspace.fs.rename("/workspace/a", "/workspace/empty");
    expect((await workspace.fs.readFile("/workspace/empty/inner/f.txt")).toString()).toBe("f");
    await workspace.fs.rename("/workspace/file.txt", "/workspace/file.txt");
    expect((await workspace.fs.readFile("/workspace/file.txt")).toString()).toBe("t");
  });

  it("walks .. physically after a symlink, mkdir -p goes through a symlinked directory, readlink of a file is io", async () => {
    const workspace = createMemoryWorkspace({
      files: { "deep/a/b/file.txt": "b", "deep/a/sibling.txt": "s", "plain.txt": "p" },
      symlinks: { shortcut: "deep/a/b" },
    });
    expect((await workspace.fs.readFile("/workspace/shortcut/../sibling.txt")).toString()).toBe("s");
    expect(await workspace.fs.realpath("/workspace/shortcut/..")).toBe("/workspace/deep/a");
    await workspace.fs.mkdir("/workspace/shortcut/new/deeper", { recursive: true });
    expect((await workspace.fs.stat("/workspace/deep/a/b/new/deeper")).type).toBe("directory");
    expect(await codeOf(() => workspace.fs.mkdir("/workspace/plain.txt/sub", { recursive: true }))).toBe("not_a_directory");
    expect(await codeOf(() => workspace.fs.mkdir("/workspace/plain.txt", { recursive: true }))).toBe("exists");
    expect(await codeOf(() => workspace.fs.readlink("/workspace/plain.txt"))).toBe("io");
    expect(await codeOf(() => workspace.fs.stat("relative/path"))).toBe("io");
    // A trailing slash names a directory, as on the disk.
    expect(await codeOf(() => workspace.fs.stat("/workspace/plain.txt/"))).toBe("not_a_directory");
    expect(await codeOf(() => workspace.fs.writeFileAtomic("/workspace/new-file/", Buffer.from("x")))).toBe("is_a_directory");
    expect((await workspace.fs.stat("/workspace/shortcut/")).type).toBe("directory");
  });

  it("updates mtimes on writes and on directory changes", async () => {
    const workspace = createMemoryWorkspace({ files: { "a.txt": "1" } });
    const before = (await workspace.fs.stat("/workspace/a.txt")).mtimeMs;
    const directoryBefore = (await workspace.fs.stat("/workspace")).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await workspace.fs.writeFileAtomic("/workspace/a.txt", Buffer.from("2"));
    expect((await workspace.fs.stat("/workspace/a.txt")).mtimeMs).toBeGreaterThan(before);
    expect((await workspace.fs.stat("/workspace")).mtimeMs).toBeGreaterThan(directoryBefore);
  });

  it("an exclusive write to an existing path is refused before its stream is read", async () => {
    const workspace = createMemoryWorkspace({ files: { "taken.txt": "old" } });
    let pulled = 0;
    async function* counted() {
      pulled += 1;
      yield Buffer.from("new");
    }
    expect(await codeOf(() => workspace.fs.writeFileAtomic("/workspace/taken.txt", counted(), { exclusive: true }))).toBe("exists");
    expect(pulled).toBe(0);
    expect((await workspace.fs.readFile("/workspace/taken.txt")).toString()).toBe("old");
  });

  it("refuses a mode outside 0..0o7777 with SdkError", async () => {
    const workspace = createMemoryWorkspace();
    await expect(workspace.fs.writeFileAtomic("/workspace/a", Buffer.from("x"), { mode: 0o10000 })).rejects.toMatchObject({
      name: "SdkError",
      code: "invalid_options",
    });
    expect(await codeOf(() => workspace.fs.stat("/workspace/a"))).toBe("not_found");
  });

  it("clients of one tree share files and locks; closing one fails only its own waiters and keeps the other working", async () => {
    const first = createMemoryWorkspace();
    const second = first.openClient();
    await first.fs.writeFileAtomic("/workspace/shared.txt", Buffer.from("from first"));
    expect((await second.fs.readFile("/workspace/shared.txt")).toString()).toBe("from first");
    const held = await second.fs.lock("/workspace/shared.txt");
    const firstWaiting = first.fs.lock("/workspace/shared.txt", { timeoutMs: 60_000 });
    await first.close();
    expect(await codeOf(() => firstWaiting)).toBe("closed");
    expect((await second.fs.readFile("/workspace/shared.txt")).toString()).toBe("from first");
    await held.release();
    const again = await second.fs.lock("/workspace/shared.txt", { timeoutMs: 1_000 });
    await again.release();
    expect((thrown(() => first.openClient()) as WorkspaceError).code).toBe("closed");
    expect(await codeOf(() => first.symlink("x", "/workspace/l"))).toBe("closed");
    await second.close();
  });

  it("a lock waiter is served in arrival order", async () => {
    const workspace = createMemoryWorkspace();
    const order: number[] = [];
    const held = await workspace.fs.lock("/workspace/queue");
    const waiters = [1, 2, 3].map((index) =>
      workspace.fs.lock("/workspace/queue", { timeoutMs: 60_000 }).then(async (lock) => {
        order.push(index);
        await lock.release();
      }),
    );
    await held.release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });
});
