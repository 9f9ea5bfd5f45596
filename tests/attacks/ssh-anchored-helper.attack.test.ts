/**
 * Attacks on the anchored helper of an SSH workspace (`createSshWorkspace`
 * of `@agent-tools/ssh` on a real OpenSSH server from `startTestSshd`: the
 * remote `/usr/bin/perl` program that walks each path component by
 * component and acts relative to its working directory), played by a model
 * whose Bash runs on the remote machine as the SSH user:
 *
 * - names with a newline, quotes, a leading dash, dots; a `..` after a
 *   symlink to outside;
 * - a FIFO, a device and a symlink to a device as the file read;
 * - a symlink as the last component of a write and of an unlink;
 * - paths longer than PATH_MAX and names longer than NAME_MAX;
 * - a 64 MiB read and 64 requests at once;
 * - the helper killed in the middle of a write;
 * - a fake `perl` first on the account's PATH;
 * - locks released right after the connection dropped;
 * - Grep with ripgrep on the remote machine in a folder a Bash loop keeps
 *   swapping for a symlink to outside (rg is given its folder by path: its
 *   start checks with `pwd -P` where it really is).
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Workspace, WorkspaceError } from "@agent-tools/core/workspace";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTcpProxy, startTestSshd } from "@agent-tools/ssh/testing";
import { describe, expect, it } from "vitest";
import { RG, ROUNDS, asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, scene, call } = harness;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof WorkspaceError ? error.code : `not a WorkspaceError: ${String(error)}`),
  );
}

/** The pid of the process that has `file` open (scanned in /proc, as root). */
function holderOf(file: string): number | undefined {
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return Number(pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return undefined;
}

describe.skipIf(!asRoot)("attack: the anchored helper of an SSH workspace", () => {
  it("names with a newline, quotes, a leading dash and dots round-trip; a .. after a symlink to outside never leads out", async () => {
    const { workdir, outside, workspace, registry } = await scene();
    expect(workspace.capabilities.anchoredOpens).toBe(true);
    for (const name of ["new\nline.txt", 'it\'s "quoted".txt', "-dash.txt", "...", "a..b", "tab\there.txt"]) {
      const written = await call(registry, "Write", { path: `sub/${name}`, content: `BODY ${name}\n` });
      expect(written.isError, written.text).toBe(false);
      expect(fs.readFileSync(path.join(workdir, "sub", name), "utf8")).toBe(`BODY ${name}\n`);
      const read = await call(registry, "Read", { path: `sub/${name}` });
      expect(read.isError, read.text).toBe(false);
      expect(read.text).toContain(`BODY ${name.split("\n")[0]}`);
      await workspace.fs.unlink(path.join(workdir, "sub", name));
      expect(fs.existsSync(path.join(workdir, "sub", name))).toBe(false);
    }
    // Below the root by its letters, outside by the link: refused, nothing made or read there.
    asUser(`ln -s '${outside}/dir' '${workdir}/out'`);
    // Not path.join: it would fold the `..` away before the workspace sees it.
    const through = `${workdir}/out/../secret.txt`;
    expect(await codeOf(workspace.fs.readFile(through))).toBe("out_of_bounds");
    expect(await codeOf(workspace.fs.writeFileAtomic(through, Buffer.from("x")))).toBe("out_of_bounds");
    expect(await codeOf(workspace.fs.unlink(through))).toBe("out_of_bounds");
    expect(await codeOf(workspace.fs.rename(path.join(workdir, "sub/inner-none"), through))).toBe("not_found");
    asUser(`printf 'mine\\n' > '${workdir}/mine.txt'`);
    expect(await codeOf(workspace.fs.rename(path.join(workdir, "mine.txt"), through))).toBe("out_of_bounds");
    expect(await codeOf(workspace.fs.mkdir(`${workdir}/out/../made`, { recursive: true }))).toBe("out_of_bounds");
    // A recursive mkdir makes no missing folder on the way outside either.
    expect(await codeOf(workspace.fs.mkdir(`${workdir}/out/../made/deeper/deepest`, { recursive: true }))).toBe("out_of_bounds");
    expect(fs.readFileSync(`${outside}/secret.txt`, "utf8")).toBe("OUTSIDE-SECRET\n");
    expect(fs.readdirSync(outside).sort()).toEqual(["dir", "secret.txt"]);
    // A symlink that stays inside the root is followed.
    asUser(`mkdir '${workdir}/real' && ln -s real '${workdir}/alias'`);
    await workspace.fs.writeFileAtomic(path.join(workdir, "alias/in.txt"), Buffer.from("in\n"));
    expect(fs.readFileSync(path.join(workdir, "real/in.txt"), "utf8")).toBe("in\n");
    expect((await workspace.fs.readFile(path.join(workdir, "alias/in.txt"))).toString()).toBe("in\n");
  }, 120_000);

  it("a FIFO, a device or a symlink to a device as the file read is refused at once, never opened", async () => {
    const { workdir, workspace, registry } = await scene();
    asUser(`mkfifo '${workdir}/pipe' && ln -s /dev/zero '${workdir}/zero' && ln -s pipe '${workdir}/to-pipe'`);
    const started = Date.now();
    expect(await codeOf(workspace.fs.readFile(path.join(workdir, "pipe")))).toBe("unsupported");
    expect(await codeOf(workspace.fs.readFile(path.join(workdir, "to-pipe")))).toBe("unsupported");
    expect(await codeOf(workspace.fs.readFile(path.join(workdir, "zero")))).toBe("out_of_bounds");
    // Not below the root (the port's own caller decides): still never opened, as it is no regular file.
    expect(await codeOf(workspace.fs.readFile("/dev/zero"))).toBe("unsupported");
    const read = await call(registry, "Read", { path: "pipe" });
    expect(read.isError).toBe(true);
    // Generous: an open of the FIFO would have blocked until the helper's 30 s deadline.
    expect(Date.now() - started).toBeLessThan(20_000);
    // The helper still answers.
    asUser(`printf 'after\\n' > '${workdir}/after.txt'`);
    expect((await workspace.fs.readFile(path.join(workdir, "after.txt"))).toString()).toBe("after\n");
  }, 120_000);

  it("a symlink as the last component: unlink removes the link only, a write replaces the link, the outside file stays", async () => {
    const { workdir, outside, workspace, registry } = await scene();
    asUser(`ln -s '${outside}/secret.txt' '${workdir}/link-a' && ln -s '${outside}/secret.txt' '${workdir}/link-b'`);
    await workspace.fs.unlink(path.join(workdir, "link-a"));
    expect(fs.existsSync(path.join(workdir, "link-a"))).toBe(false);
    await workspace.fs.writeFileAtomic(path.join(workdir, "link-b"), Buffer.from("replaced\n"));
    expect(fs.lstatSync(path.join(workdir, "link-b")).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(workdir, "link-b"), "utf8")).toBe("replaced\n");
    asUser(`ln -s '${outside}/secret.txt' '${workdir}/link-c'`);
    const written = await call(registry, "Write", { path: "link-c", content: "through the tool\n" });
    expect(fs.readFileSync(`${outside}/secret.txt`, "utf8"), written.text).toBe("OUTSIDE-SECRET\n");
    expect(fs.readdirSync(outside).sort()).toEqual(["dir", "secret.txt"]);
  }, 120_000);

  it("paths longer than PATH_MAX work; a name longer than NAME_MAX fails cleanly and the helper goes on", async () => {
    const { workdir, workspace } = await scene();
    const deep = path.join(workdir, ...Array.from({ length: 24 }, (_, index) => `${String(index).padStart(3, "0")}-${"d".repeat(200)}`));
    expect(deep.length).toBeGreaterThan(4_096);
    await workspace.fs.mkdir(deep, { recursive: true });
    const file = path.join(deep, "deep.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("deep\n"));
    expect((await workspace.fs.readFile(file)).toString()).toBe("deep\n");
    await workspace.fs.rename(file, path.join(deep, "moved.txt"));
    await workspace.fs.unlink(path.join(deep, "moved.txt"));
    await workspace.fs.rmdir(deep);
    // rm -rf walks by descriptor (a path this long is beyond the host's own unlink).
    asUser(`rm -rf '${workdir}/000-${"d".repeat(200)}'`);
    const code = await codeOf(workspace.fs.writeFileAtomic(path.join(workdir, "n".repeat(300)), Buffer.from("x")));
    expect(code).not.toBe("resolved");
    expect(code.startsWith("not a WorkspaceError")).toBe(false);
    await workspace.fs.writeFileAtomic(path.join(workdir, "fine.txt"), Buffer.from("fine\n"));
    expect(fs.readFileSync(path.join(workdir, "fine.txt"), "utf8")).toBe("fine\n");
  }, 120_000);

  it("a 64 MiB read streams whole, and 64 requests at once all answer right", async () => {
    const { workdir, workspace } = await scene();
    asUser(`head -c 67108864 /dev/urandom > '${workdir}/big.bin'`);
    const expected = createHash("sha256")
      .update(fs.readFileSync(path.join(workdir, "big.bin")))
      .digest("hex");
    const hash = createHash("sha256");
    let chunks = 0;
    for await (const chunk of workspace.fs.readStream(path.join(workdir, "big.bin"))) {
      hash.update(chunk);
      chunks += 1;
    }
    expect(hash.digest("hex")).toBe(expected);
    expect(chunks).toBeGreaterThan(1);
    const tail = await workspace.fs.readFile(path.join(workdir, "big.bin"), { start: 67_108_864 - 10, end: 67_108_864 + 100 });
    expect(tail.length).toBe(10);
    // Stopping a stream early leaves the helper usable, also after a slow reader let the channel fill (paused).
    for await (const _chunk of workspace.fs.readStream(path.join(workdir, "big.bin"))) break;
    let slow = 0;
    for await (const _chunk of workspace.fs.readStream(path.join(workdir, "big.bin"))) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      if (++slow >= 60) break;
    }
    expect((await workspace.fs.readFile(path.join(workdir, "big.bin"), { start: 0, end: 4 })).length).toBe(4);
    const jobs = Array.from({ length: 64 }, async (_, index) => {
      const file = path.join(workdir, `c${index}.txt`);
      const body = `${index}:${randomBytes(8).toString("hex")}\n`.repeat(index + 1);
      await workspace.fs.writeFileAtomic(file, Buffer.from(body));
      return (await workspace.fs.readFile(file)).toString() === body;
    });
    expect(await Promise.all(jobs)).toEqual(Array.from({ length: 64 }, () => true));
  }, 180_000);

  it("the helper killed in the middle of a write leaves the old file whole, and the next write starts a new helper", async () => {
    const { workdir, workspace } = await scene();
    const target = path.join(workdir, "kept.txt");
    asUser(`printf 'OLD CONTENT\\n' > '${target}'`);
    let killed: number | undefined;
    async function* slowly() {
      for (let index = 0; index < 200; index += 1) {
        yield Buffer.alloc(256 * 1024, 0x41 + (index % 26));
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (killed === undefined && index >= 4) {
          const temporary = fs.readdirSync(workdir).find((name) => name.startsWith(".kept.txt.") && name.endsWith(".tmp"));
          const holder = temporary === undefined ? undefined : holderOf(path.join(workdir, temporary));
          if (holder !== undefined) {
            killed = holder;
            process.kill(holder, "SIGKILL");
          }
        }
      }
    }
    const outcome = await codeOf(workspace.fs.writeFileAtomic(target, slowly()));
    expect(killed, "the helper holding the temporary file was found").toBeTypeOf("number");
    expect(outcome).not.toBe("resolved");
    expect(fs.readFileSync(target, "utf8")).toBe("OLD CONTENT\n");
    await workspace.fs.writeFileAtomic(target, Buffer.from("NEW CONTENT\n"));
    expect(fs.readFileSync(target, "utf8")).toBe("NEW CONTENT\n");
    // At most the dead helper's dotted temporary file is left beside it.
    expect(
      fs
        .readdirSync(workdir)
        .filter((name) => !name.startsWith("."))
        .sort(),
    ).toEqual(["kept.txt", "sub"]);
  }, 120_000);

  it("a fake perl first on the account's PATH is never run: the helper is /usr/bin/perl", async () => {
    const marker = `/tmp/agent-tools-fake-perl-${randomBytes(6).toString("hex")}`;
    const fakeBin = path.join(harness.home, `fakebin-${randomBytes(4).toString("hex")}`);
    asUser(`mkdir -p '${fakeBin}' && printf '#!/bin/sh\\ntouch ${marker}\\nexec /usr/bin/perl "$@"\\n' > '${fakeBin}/perl' && chmod 755 '${fakeBin}/perl'`);
    cleanups.push(() => fs.rmSync(fakeBin, { recursive: true, force: true }));
    cleanups.push(() => fs.rmSync(marker, { force: true }));
    const sshd = await startTestSshd({ environment: { PATH: `${fakeBin}:/usr/local/bin:/usr/bin:/bin` } });
    cleanups.push(() => sshd.stop());
    const workspace = await createSshWorkspace(sshd.connectOptions);
    cleanups.push(() => workspace.close());
    // The account's PATH really puts the fake first.
    const probe = workspace.processes?.spawn({ command: "/bin/sh", args: ["-c", "command -v perl"], cwd: workspace.root });
    let seen = "";
    probe?.onOutput((chunk) => {
      seen += chunk.data.toString("utf8");
    });
    await probe?.exited;
    await probe?.outputClosed;
    expect(seen.trim()).toBe(`${fakeBin}/perl`);
    expect(workspace.capabilities.anchoredOpens).toBe(true);
    await workspace.fs.writeFileAtomic(path.join(workspace.root, "p.txt"), Buffer.from("p\n"));
    expect((await workspace.fs.readFile(path.join(workspace.root, "p.txt"))).toString()).toBe("p\n");
    expect(fs.existsSync(marker), "the fake perl ran").toBe(false);
  }, 120_000);

  it("Grep with ripgrep on the remote machine in a folder a Bash loop swaps for a symlink to outside never shows outside lines", async () => {
    expect(fs.existsSync(RG)).toBe(true);
    const binDir = path.join(harness.home, `rgbin-${process.pid}`);
    asUser(`mkdir -p '${binDir}'`);
    fs.copyFileSync(RG, path.join(binDir, "rg"));
    fs.chmodSync(path.join(binDir, "rg"), 0o755);
    cleanups.push(() => fs.rmSync(binDir, { recursive: true, force: true }));
    const base = await harness.openWorkspace();
    // A remote machine with ripgrep on the PATH: the adapter's own runner, with the folder put first.
    const processes = base.processes as NonNullable<Workspace["processes"]>;
    const workspace: Workspace = {
      ...base,
      capabilities: { ...base.capabilities, ripgrep: true },
      processes: {
        ...processes,
        spawn: (options) => processes.spawn({ ...options, env: { ...(options.env ?? {}), PATH: `${binDir}:/usr/bin:/bin` } }),
        close: () => processes.close(),
      } as typeof processes,
      close: () => base.close(),
    };
    const { workdir, outside, registry } = await scene({ workspace });
    asUser(`printf 'INSIDE-LINE\\n' > '${workdir}/sub/inner.txt'`);
    const first = await call(registry, "Grep", { pattern: "INSIDE-LINE", path: "sub", output_mode: "content" });
    expect(first.text).toContain("INSIDE-LINE");
    expect(first.details?.engine).toBe("ripgrep");
    const flipper = `
      cd '${workdir}'
      while [ ! -e STOP ]; do
        mv sub sub.real 2>/dev/null; ln -sfn '${outside}/dir' sub; sleep 0.004
        rm -f sub; mv sub.real sub 2>/dev/null; sleep 0.004
      done`;
    const child = (await import("node:child_process")).spawn("runuser", ["-u", harness.sshd.username, "--", "/bin/sh", "-c", flipper], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    const shown: string[] = [];
    try {
      for (let round = 0; round < ROUNDS * 5 && shown.length === 0; round += 1) {
        const grep = await call(registry, "Grep", { pattern: "(OUT|IN)SIDE-(DIR-FILE|LINE)", path: "sub", output_mode: "content" });
        if (grep.text.includes("OUTSIDE-DIR-FILE")) shown.push(`round ${round}: ${grep.text.slice(0, 200)}`);
      }
    } finally {
      fs.writeFileSync(`${workdir}/STOP`, "");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(shown).toEqual([]);
  }, 240_000);

  it("locks released right after the connection dropped leave no lock file (the helper restarts on the new connection)", async () => {
    const proxy = await startTcpProxy({ host: harness.sshd.host, port: harness.sshd.port });
    cleanups.push(() => proxy.close());
    const workspace = await harness.openWorkspace(proxy);
    const { workdir } = await scene({ workspace });
    expect(workspace.capabilities.anchoredOpens).toBe(true);
    for (let round = 0; round < 6; round += 1) {
      const locks = await Promise.all([0, 1, 2].map((index) => workspace.fs.lock(path.join(workdir, `l${index}.txt`))));
      proxy.dropAll();
      await Promise.all(locks.map((lock) => lock.release()));
      expect(
        fs.readdirSync(workdir).filter((name) => name.includes("agent-tools-lock")),
        `round ${round}`,
      ).toEqual([]);
    }
  }, 120_000);
});
