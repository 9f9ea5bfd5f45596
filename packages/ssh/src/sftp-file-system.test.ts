import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import { SdkError } from "@agent-tools/core";
import { type Workspace, WorkspaceError, type WorkspaceErrorCode } from "@agent-tools/core/workspace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SshConnection } from "./connection/index.js";
import { SftpFileSystem } from "./sftp-file-system.js";
import { lockFileName } from "./sftp/sidecar-names.js";
import { createSshWorkspace, type SshWorkspaceOptions } from "./ssh-workspace.js";
import { startTcpProxy, startTestSshd, type TestSshd } from "./testing/index.js";

async function codeOf(run: () => Promise<unknown>): Promise<WorkspaceErrorCode | string> {
  try {
    await run();
  } catch (error) {
    return error instanceof WorkspaceError ? error.code : `${(error as Error).name}: ${(error as Error).message}`;
  }
  return "resolved";
}

async function sh(workspace: Workspace, command: string): Promise<string> {
  const child = (workspace.processes as NonNullable<Workspace["processes"]>).spawn({ command, shell: "/bin/sh", cwd: workspace.root });
  const parts: Buffer[] = [];
  child.onOutput((chunk) => parts.push(chunk.data));
  const exit = await child.exited;
  await child.outputClosed;
  const text = Buffer.concat(parts).toString("utf8");
  if (exit.exitCode !== 0) throw new Error(`${command} exited ${exit.exitCode}: ${text}`);
  return text;
}

describe("SftpFileSystem and createSshWorkspace on a real sshd", () => {
  let sshd: TestSshd;
  let workspace: Workspace;
  let dir: string;
  const opened: Array<{ close(): Promise<void> }> = [];
  const options = (): SshWorkspaceOptions => ({
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKey: sshd.hostKeyFingerprint,
    root: sshd.root,
  });

  beforeAll(async () => {
    sshd = await startTestSshd();
    workspace = await createSshWorkspace(options());
  });
  afterEach(async () => {
    await Promise.allSettled(opened.splice(0).map((item) => item.close()));
  });
  afterAll(async () => {
    await workspace?.close();
    await sshd?.stop();
  });
  const fresh = async () => {
    dir = posix.join(workspace.root, `t-${randomBytes(4).toString("hex")}`);
    await workspace.fs.mkdir(dir);
    return dir;
  };

  it("describes itself: kind ssh, label without credentials, canonical root, capabilities probed on the remote machine", async () => {
    expect(workspace.kind).toBe("ssh");
    expect(workspace.label).toBe(`ssh://${sshd.username}@127.0.0.1:${sshd.port}`);
    expect(workspace.root).toBe(sshd.root);
    const remote = await sh(workspace, "command -v rg >/dev/null && echo rg; command -v git >/dev/null && echo git; true");
    expect(workspace.capabilities).toEqual({
      localPaths: false,
      processes: true,
      ripgrep: remote.includes("rg"),
      git: remote.includes("git"),
      pty: false,
      // The test machine has /usr/bin/perl: the anchored helper runs.
      anchoredOpens: true,
    });
    expect(JSON.stringify(workspace)).not.toContain("PRIVATE KEY");
  });

  it("fails closed on its options: unknown key, relative root, a root that does not exist or is a file", async () => {
    const unknown = await createSshWorkspace({ ...options(), rot: "/tmp" } as SshWorkspaceOptions).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(SdkError);
    expect((unknown as SdkError).details).toMatchObject({ option: "options.rot", suggestion: "options.root" });
    const relative = await createSshWorkspace({ ...options(), root: "project" }).catch((error: unknown) => error);
    expect((relative as SdkError).code).toBe("invalid_options");
    const missing = await createSshWorkspace({ ...options(), root: posix.join(sshd.root, "missing") }).catch((error: unknown) => error);
    expect((missing as SdkError).code).toBe("invalid_root");
    await workspace.fs.writeFileAtomic(posix.join(workspace.root, "a-file"), Buffer.from("x"));
    const file = await createSshWorkspace({ ...options(), root: posix.join(sshd.root, "a-file") }).catch((error: unknown) => error);
    expect((file as SdkError).code).toBe("invalid_root");
    const changed = await createSshWorkspace({ ...options(), hostKey: `SHA256:${"B".repeat(43)}` }).catch((error: unknown) => error);
    expect((changed as WorkspaceError).code).toBe("host_key");
  });

  it("maps permission errors and keeps a replaced file's mode, also an executable one", async () => {
    await fresh();
    const secret = posix.join(dir, "secret.txt");
    await workspace.fs.writeFileAtomic(secret, Buffer.from("x"), { mode: 0o000 });
    expect((await workspace.fs.stat(secret)).mode).toBe(0);
    expect(await codeOf(() => workspace.fs.readFile(secret))).toBe("permission_denied");
    const closed = posix.join(dir, "closed");
    await workspace.fs.mkdir(closed);
    await sh(workspace, `chmod 000 ${closed}`);
    expect(await codeOf(() => workspace.fs.readdir(closed))).toBe("permission_denied");
    expect(await codeOf(() => workspace.fs.writeFileAtomic(posix.join(closed, "x"), Buffer.from("x")))).toBe("permission_denied");
    await sh(workspace, `chmod 755 ${closed}`);
    const script = posix.join(dir, "run.sh");
    await workspace.fs.writeFileAtomic(script, Buffer.from("#!/bin/sh\necho one\n"), { mode: 0o755 });
    await workspace.fs.writeFileAtomic(script, Buffer.from("#!/bin/sh\necho two\n"));
    expect((await workspace.fs.stat(script)).mode).toBe(0o755);
    expect((await sh(workspace, script)).trim()).toBe("two");
  });

  it("reads ranges past the end as empty, stops a stream on abort, and leaves no temporary files after writes", async () => {
    await fresh();
    const file = posix.join(dir, "data.bin");
    const bytes = randomBytes(300_000);
    await workspace.fs.writeFileAtomic(file, bytes);
    expect((await workspace.fs.readFile(file, { start: 400_000 })).length).toBe(0);
    expect((await workspace.fs.readFile(file, { start: 299_990, end: 400_000 })).equals(bytes.subarray(299_990))).toBe(true);
    const controller = new AbortController();
    const seen: number[] = [];
    const outcome = await (async () => {
      for await (const chunk of workspace.fs.readStream(file, { signal: controller.signal })) {
        seen.push(chunk.length);
        controller.abort();
      }
      return "completed";
    })().catch((error: unknown) => (error as Error).name);
    expect(outcome).toBe("AbortError");
    expect(seen.length).toBe(1);
    expect((await workspace.fs.readdir(dir)).map((entry) => entry.name)).toEqual(["data.bin"]);
  });

  it("refuses to open a FIFO (it would block the SFTP server) with unsupported, and stays usable", async () => {
    await fresh();
    const fifo = posix.join(dir, "pipe");
    await sh(workspace, `mkfifo ${fifo}`);
    expect((await workspace.fs.lstat(fifo)).type).toBe("other");
    expect(await codeOf(() => workspace.fs.readFile(fifo))).toBe("unsupported");
    expect(await codeOf(() => workspace.fs.writeFileAtomic(posix.join(dir, "after.txt"), Buffer.from("still here")))).toBe("resolved");
    expect((await workspace.fs.readFile(posix.join(dir, "after.txt"))).toString()).toBe("still here");
    expect((await workspace.fs.readdir(dir)).map((entry) => `${entry.name}:${entry.type}`).sort()).toEqual(["after.txt:file", "pipe:other"]);
  });

  it("a FIFO swapped in after the type check does not freeze the file system: the open times out as unsupported, a fresh SFTP session serves the next call", async () => {
    await fresh();
    const flip = posix.join(dir, "flip.txt");
    const other = posix.join(dir, "other.txt");
    await workspace.fs.writeFileAtomic(flip, Buffer.from("file"));
    await workspace.fs.writeFileAtomic(other, Buffer.from("still here"));
    const { root: _root, ...connectionOptions } = options();
    const connection = new SshConnection({ ...connectionOptions, sftpTimeoutMs: 1_000 });
    opened.push(connection);
    let planted = false;
    const fs = new SftpFileSystem(connection, {
      afterReadTypeCheck: async (path) => {
        if (path !== flip || planted) return;
        planted = true;
        await sh(workspace, `rm -f ${flip} && mkfifo ${flip}`);
      },
    });
    try {
      const error = await fs.readFile(flip).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WorkspaceError);
      expect((error as WorkspaceError).code).toBe("unsupported");
      expect((error as WorkspaceError).message).toMatch(/FIFO/);
      // The stuck session was abandoned: later calls, also a concurrent burst, are served by a new one.
      const texts = await Promise.all([fs.readFile(other), fs.readFile(other), fs.stat(other)]);
      expect(texts[0].toString()).toBe("still here");
      expect(texts[1].toString()).toBe("still here");
      expect((await fs.readdir(dir)).map((entry) => `${entry.name}:${entry.type}`).sort()).toEqual(["flip.txt:other", "other.txt:file"]);
      expect(connection.generation).toBe(1);
    } finally {
      // Unblock the abandoned sftp-server (a writer opens the FIFO), so the test sshd stops cleanly.
      await sh(workspace, `timeout 5 sh -c ': > ${flip}' || true`);
    }
  }, 30_000);

  it("sftpTimeoutMs is checked: not a whole number of 100 ms to an hour is invalid_options", () => {
    const { root: _root, ...connectionOptions } = options();
    for (const value of [0, 99, 1.5, "30000", 3_600_001]) {
      const error = (() => {
        try {
          new SshConnection({ ...connectionOptions, sftpTimeoutMs: value as number });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).message).toContain("sftpTimeoutMs");
    }
  });

  it("lock: the lock file holds its owner as JSON and no credential; a fresh foreign lock times out, a stale one is broken", async () => {
    await fresh();
    const target = posix.join(dir, "notes.md");
    const lockFile = posix.join(dir, lockFileName("notes.md"));
    const held = await workspace.fs.lock(target);
    const owner = JSON.parse((await workspace.fs.readFile(lockFile)).toString("utf8")) as Record<string, unknown>;
    expect(owner).toMatchObject({ agentToolsLock: 1, pid: process.pid, target });
    expect(JSON.stringify(owner)).not.toMatch(/PRIVATE KEY|password/i);
    await held.release();
    await expect(workspace.fs.stat(lockFile)).rejects.toMatchObject({ code: "not_found" });

    // A lock left by a holder on another machine that died: fresh -> waits; 60 s old by the server's clock -> broken.
    await workspace.fs.writeFileAtomic(lockFile, Buffer.from('{"agentToolsLock":1,"client":"gone"}\n'));
    expect(await codeOf(() => workspace.fs.lock(target, { timeoutMs: 300 }))).toBe("locked");
    await sh(workspace, `touch -d '-60 seconds' ${lockFile}`);
    const taken = await workspace.fs.lock(target, { timeoutMs: 5_000 });
    expect(JSON.parse((await workspace.fs.readFile(lockFile)).toString("utf8"))).toMatchObject({ pid: process.pid });
    await taken.release();
    expect((await workspace.fs.readdir(dir)).map((entry) => entry.name)).toEqual([]);
  });

  it("lock: a holder keeps its lock file fresh (rewritten every 10 s), so a waiter never takes it for stale", async () => {
    await fresh();
    const target = posix.join(dir, "long.txt");
    const lockFile = posix.join(dir, lockFileName("long.txt"));
    const held = await workspace.fs.lock(target);
    await sh(workspace, `touch -d '-60 seconds' ${lockFile}`);
    const old = (await workspace.fs.stat(lockFile)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect((await workspace.fs.stat(lockFile)).mtimeMs).toBeGreaterThan(old + 30_000);
    expect(await codeOf(() => workspace.fs.lock(target, { timeoutMs: 300 }))).toBe("locked");
    await held.release();
  }, 30_000);

  it("the first call right after a dropped connection reconnects: reads retry once, a write of bytes is replayed, nothing is reported lost", async () => {
    await fresh();
    const file = posix.join(dir, "a.txt");
    const link = posix.join(dir, "link");
    await workspace.fs.writeFileAtomic(file, Buffer.from("alpha"));
    await sh(workspace, `ln -s a.txt ${link}`);
    const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    opened.push(proxy);
    const { root: _root, ...connectionOptions } = options();
    const connection = new SshConnection({ ...connectionOptions, host: proxy.host, port: proxy.port });
    opened.push(connection);
    const fs = new SftpFileSystem(connection);
    const readStream = async (path: string) => {
      const parts: Buffer[] = [];
      for await (const chunk of fs.readStream(path)) parts.push(chunk);
      return Buffer.concat(parts).toString();
    };
    const steps: Array<[string, () => Promise<unknown>, unknown]> = [
      ["stat", async () => (await fs.stat(file)).size, 5],
      ["lstat", async () => (await fs.lstat(link)).type, "symlink"],
      ["readFile", async () => (await fs.readFile(file)).toString(), "alpha"],
      ["readStream", () => readStream(file), "alpha"],
      ["readdir", async () => (await fs.readdir(dir)).map((entry) => entry.name).sort(), ["a.txt", "link"]],
      ["realpath", () => fs.realpath(link), file],
      ["readlink", () => fs.readlink(link), "a.txt"],
      ["writeFileAtomic", async () => (await fs.writeFileAtomic(file, Buffer.from("beta"))) ?? (await workspace.fs.readFile(file)).toString(), "beta"],
    ];
    await fs.stat(dir);
    for (const [name, run, expected] of steps) {
      const before = connection.generation;
      proxy.dropAll();
      let outcome: unknown;
      try {
        outcome = await run();
      } catch (error) {
        outcome = `${name} failed: ${error instanceof WorkspaceError ? error.code : ""} ${(error as Error).message}`;
      }
      expect(outcome, name).toEqual(expected);
      expect(connection.generation, name).toBe(before + 1);
    }
    expect((await workspace.fs.readdir(dir)).map((entry) => entry.name).filter((name) => name.startsWith("."))).toEqual([]);
  }, 60_000);

  it("a dropped connection fails the running read with connection; the next call reconnects; close() releases locks and refuses later calls", async () => {
    await fresh();
    const file = posix.join(dir, "big.bin");
    await workspace.fs.writeFileAtomic(file, randomBytes(4 * 1024 * 1024));
    const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    opened.push(proxy);
    const { root: _root, ...connectionOptions } = options();
    const connection = new SshConnection({ ...connectionOptions, host: proxy.host, port: proxy.port });
    opened.push(connection);
    const fs = new SftpFileSystem(connection);
    let chunks = 0;
    const read = (async () => {
      for await (const _chunk of fs.readStream(file)) {
        chunks += 1;
        if (chunks === 2) proxy.dropAll();
      }
    })();
    expect(await codeOf(() => read)).toBe("connection");
    expect((await fs.stat(file)).size).toBe(4 * 1024 * 1024);
    expect(connection.generation).toBe(2);
    const lock = await fs.lock(posix.join(dir, "locked.txt"));
    expect((await workspace.fs.readdir(dir)).map((entry) => entry.name).sort()).toEqual([lockFileName("locked.txt"), "big.bin"].sort());
    await fs.close();
    expect((await workspace.fs.readdir(dir)).map((entry) => entry.name)).toEqual(["big.bin"]);
    expect(await codeOf(() => fs.stat(file))).toBe("closed");
    await lock.release();
  });
});
