/**
 * Attacks on a registry built on an SSH workspace (`createSshWorkspace` of
 * `@agent-tools/ssh`, a real OpenSSH server from `startTestSshd`), played by
 * a model calling `executeToolCall` whose Bash runs on the remote machine as
 * the SSH user, so it can plant and swap files there at will:
 *
 * - containment of Read, Write, Edit, Delete, List, Glob, Grep and Image:
 *   remote symlinks to outside planted before the call, `..`, absolute and
 *   `root://` paths, a symlinked workdir, a planted lock file;
 * - file names with newlines, quotes, `$()` and leading dashes given to a
 *   ripgrep run on the remote machine (Grep, Glob);
 * - a replaced host key after a dropped connection: the reconnect refuses;
 * - a connection dropped in the middle of a Write of a big file: the remote
 *   file is the old one or the new one, never torn;
 * - remote processes that leave the tree (setsid, double fork, nohup) after
 *   a Bash timeout, a ManagedProcess stop and the registry's close;
 * - the registry never reads or writes a local file for a workspace path
 *   (the "remote" machine is this host, so a root-only local file tells a
 *   local read from a remote one);
 * - a held lock's 10 s heartbeat with its lock file swapped for a symlink
 *   to an outside file (was a hole: the lock's JSON overwrote that file);
 * - a file a Bash loop swaps for a FIFO between Read's type check and its
 *   open (was a hole: the open blocked the one-threaded SFTP server, and
 *   every later file call of the workspace, for ever; now the request's
 *   deadline ends that Read as unsupported and a new SFTP session serves
 *   the next call);
 * - Open (`it.fails`): Write, Read, Grep and Delete through a directory a
 *   Bash loop keeps swapping for a symlink to outside reach outside
 *   (`anchoredOpens` false: SFTP opens by path, nothing re-checks between
 *   the containment check and the open or rename; `ATTACK_ROUNDS` rounds);
 *   an escapee that double-forks with setsid and drops the tree variable
 *   from its environment outlives a Bash timeout.
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTcpProxy, startTestSshd, type TcpProxy, type TestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 40));
const asRoot = process.getuid?.() === 0;
const RG = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  "../../node_modules/.pnpm/@vscode+ripgrep-linux-x64@1.18.0/node_modules/@vscode/ripgrep-linux-x64/bin/rg",
);

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

let sshd: TestSshd;
let home: string;
const localTemporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-ssh-workspace-")));
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (!asRoot) return;
  sshd = await startTestSshd();
  home = path.dirname(sshd.root);
}, 60_000);
afterAll(async () => {
  // A workspace whose SFTP server is stuck (the FIFO case) may never close: give each step 10 s.
  for (const cleanup of cleanups.reverse()) {
    await Promise.race([Promise.resolve(cleanup()).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  await sshd?.stop();
  fs.rmSync(localTemporary, { recursive: true, force: true });
}, 60_000);

/** Runs `script` on the "remote" machine as the SSH user (what the model's Bash can do there). */
function asUser(script: string): string {
  return execFileSync("runuser", ["-u", sshd.username, "--", "/bin/sh", "-c", script], { encoding: "utf8" });
}

function openWorkspace(target: { host: string; port: number } = sshd, hostKey = sshd.hostKeyFingerprint, root = sshd.root): Promise<Workspace> {
  return createSshWorkspace({ host: target.host, port: target.port, username: sshd.username, privateKey: sshd.privateKey, hostKey, root });
}

let sceneCount = 0;
/** A fresh project in the root and a fresh outside folder (a sibling of the root in the user's home), both the user's. */
async function scene(options: { workspace?: Workspace; additionalRoot?: boolean } = {}) {
  const name = `s${++sceneCount}-${process.pid}`;
  const workdir = path.join(sshd.root, name);
  const outside = path.join(home, `outside-${name}`);
  const docs = `${workdir}-docs`;
  asUser(
    `mkdir -p '${workdir}/sub' '${docs}' '${outside}/dir' && printf 'OUTSIDE-SECRET\\n' > '${outside}/secret.txt' && printf 'OUTSIDE-DIR-FILE\\n' > '${outside}/dir/inner.txt'`,
  );
  cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
  const workspace = options.workspace ?? (await openWorkspace());
  const dataDir = path.join(localTemporary, `data-${name}`);
  const registry = await buildBuiltinToolRegistry({
    workspace,
    workdir,
    dataDir,
    memory: false,
    ...(options.additionalRoot ? { additionalRoots: [{ alias: "docs", path: docs, access: "write" as const }] } : {}),
  });
  cleanups.push(async () => {
    await registry.close();
    await workspace.close();
  });
  return { workdir, docs, outside, workspace, registry, dataDir };
}

let calls = 0;
async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++calls}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
}

/** Every file below `dir` with its content (the outside folder's state). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) out[path.relative(dir, full)] = `-> ${fs.readlinkSync(full)}`;
      else out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}

describe.skipIf(!asRoot)("attack: an SSH workspace through the tools", () => {
  it("planted remote symlinks, .., absolute and root:// paths reach nothing outside the root", async () => {
    const { workdir, docs, outside, registry } = await scene({ additionalRoot: true });
    asUser(
      [
        `cd '${workdir}'`,
        `ln -s '${outside}/secret.txt' leak.txt`,
        `ln -s '${outside}/dir' linkdir`,
        `ln -s '${outside}' '${docs}/out'`,
        `ln -s '${outside}/secret.txt' '${docs}/leak.txt'`,
        `ln -s ../../outside-x/nothing dangling.txt`,
        `ln -s '${outside}/secret.txt' shot.png`,
        "printf 'inside\\n' > sub/in.txt",
      ].join(" && "),
    );
    const before = snapshot(outside);
    const rel = path.relative(workdir, `${outside}/secret.txt`);
    const reads = [
      "leak.txt",
      "linkdir/inner.txt",
      rel,
      `${outside}/secret.txt`,
      `sub/../../../outside-${path.basename(workdir)}/secret.txt`,
      "root://docs/out/secret.txt",
      "root://docs/leak.txt",
      "root://docs/../../../secret.txt",
      `root://docs/../${rel}`,
    ];
    for (const p of reads) {
      const read = await call(registry, "Read", { path: p });
      expect(read.text, `Read ${p}`).not.toContain("OUTSIDE");
      expect(read.isError, `Read ${p}: ${read.text}`).toBe(true);
    }
    for (const p of ["shot.png", `${outside}/secret.txt`]) {
      const image = await call(registry, "Image", { path: p });
      expect(image.isError, `Image ${p}`).toBe(true);
      expect(image.text).not.toContain("OUTSIDE");
    }
    for (const p of [
      "leak.txt",
      "linkdir/new.txt",
      "linkdir/inner.txt",
      `${outside}/secret.txt`,
      "root://docs/out/new.txt",
      "root://docs/leak.txt",
      "dangling.txt",
    ]) {
      const written = await call(registry, "Write", { path: p, content: "PWNED\n" });
      expect(written.isError, `Write ${p}: ${written.text}`).toBe(true);
      const edited = await call(registry, "Edit", { path: p, old_string: "OUTSIDE-SECRET", new_string: "PWNED" });
      expect(edited.isError, `Edit ${p}`).toBe(true);
    }
    for (const p of ["linkdir/inner.txt", `${outside}/secret.txt`, "root://docs/out/secret.txt"]) {
      const deleted = await call(registry, "Delete", { path: p });
      expect(deleted.isError, `Delete ${p}: ${deleted.text}`).toBe(true);
    }
    // Delete of the link itself removes the link, never its target.
    const unlinked = await call(registry, "Delete", { path: "leak.txt" });
    expect(unlinked.isError, unlinked.text).toBe(false);
    for (const [tool, args] of [
      ["List", { path: "linkdir" }],
      ["List", { path: "root://docs/out" }],
      ["List", { path: outside }],
      ["Glob", { pattern: "**/*.txt" }],
      ["Glob", { pattern: "*", path: "linkdir" }],
      ["Glob", { pattern: "**/*", path: "root://docs" }],
      ["Grep", { pattern: "OUTSIDE", output_mode: "content" }],
      ["Grep", { pattern: "OUTSIDE", path: "linkdir", output_mode: "content" }],
      ["Grep", { pattern: "OUTSIDE", path: "root://docs", output_mode: "content" }],
      ["Grep", { pattern: "OUTSIDE", path: "root://docs/leak.txt", output_mode: "content" }],
    ] as const) {
      const listed = await call(registry, tool, args);
      expect(listed.text, `${tool} ${JSON.stringify(args)}`).not.toMatch(/OUTSIDE-SECRET|OUTSIDE-DIR-FILE|inner\.txt/);
    }
    expect(snapshot(outside)).toEqual(before);
    expect(fs.lstatSync(`${outside}/secret.txt`).isFile()).toBe(true);
  }, 120_000);

  it("refuses a workdir or root that is a remote symlink to outside", async () => {
    const name = `wlink-${process.pid}`;
    const outside = path.join(home, `outside-${name}`);
    asUser(`mkdir -p '${outside}' && ln -sfn '${outside}' '${sshd.root}/${name}'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const workspace = await openWorkspace();
    cleanups.push(() => workspace.close());
    await expect(
      buildBuiltinToolRegistry({ workspace, workdir: `${sshd.root}/${name}`, dataDir: path.join(localTemporary, name), memory: false }),
    ).rejects.toThrow(/outside the workspace root/);
  }, 60_000);

  it("a lock file or a directory planted at the sidecar names never redirects a Write", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(
      `cd '${workdir}' && printf 'v1\\n' > a.txt && ln -s '${outside}/secret.txt' .a.txt.agent-tools-lock && ln -s '${outside}/secret.txt' .b.txt.agent-tools-lock`,
    );
    const before = snapshot(outside);
    const a = await call(registry, "Write", { path: "a.txt", content: "v2\n" });
    const b = await call(registry, "Write", { path: "b.txt", content: "new\n" });
    expect(snapshot(outside)).toEqual(before);
    // A planted link only blocks (locked); it never gets written through.
    expect(a.isError).toBe(true);
    expect(b.isError).toBe(true);
    expect(a.text).toMatch(/lock/i);
    expect(fs.readFileSync(`${workdir}/a.txt`, "utf8")).toBe("v1\n");
  }, 60_000);

  it("file names with newlines, quotes, $() and leading dashes reach ripgrep on the remote machine as data", async () => {
    expect(fs.existsSync(RG)).toBe(true);
    const binDir = path.join(home, `bin-${process.pid}`);
    asUser(`mkdir -p '${binDir}'`);
    fs.copyFileSync(RG, path.join(binDir, "rg"));
    fs.chmodSync(path.join(binDir, "rg"), 0o755);
    cleanups.push(() => fs.rmSync(binDir, { recursive: true, force: true }));
    const base = await openWorkspace();
    // A remote machine with ripgrep on the PATH: the adapter's own runner, with the folder put first.
    const processes = base.processes!;
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
    const { workdir, registry } = await scene({ workspace });
    const marker = path.join(workdir, "INJECTED");
    const names = ["--pre=sh", "-e", "$(touch INJECTED)", "`touch INJECTED`", "a'b\"c;touch INJECTED", "line\nbreak;touch INJECTED", "--files", "-"];
    for (const name of names) fs.writeFileSync(path.join(workdir, "sub", name), "needle here\n");
    fs.writeFileSync(path.join(workdir, "sub", "sh"), "#!/bin/sh\ntouch INJECTED\n", { mode: 0o755 });
    execFileSync("chown", ["-R", `${sshd.username}:`, workdir]);
    const found = await call(registry, "Grep", { pattern: "needle", output_mode: "files" });
    expect(found.isError, found.text).toBe(false);
    expect(found.details?.engine ?? "ripgrep").toBeDefined();
    for (const pattern of ["--pre=sh", "$(touch INJECTED)", "-e", "'; touch INJECTED; '"]) {
      await call(registry, "Grep", { pattern, output_mode: "content" });
      await call(registry, "Grep", { pattern: "needle", file_pattern: pattern, output_mode: "files" });
      await call(registry, "Glob", { pattern });
    }
    for (const name of names) await call(registry, "Grep", { pattern: "needle", path: `sub/${name}`, output_mode: "content" });
    await call(registry, "Grep", { pattern: "needle", path: "sub", output_mode: "count" });
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(path.join(workdir, "sub", "INJECTED"))).toBe(false);
  }, 120_000);

  it("a host key replaced while the workspace lives is refused at the reconnect", async () => {
    const proxy: TcpProxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    cleanups.push(() => proxy.close());
    const workspace = await openWorkspace(proxy);
    const { workdir, registry } = await scene({ workspace });
    asUser(`printf 'first\\n' > '${workdir}/f.txt'`);
    expect((await call(registry, "Read", { path: "f.txt" })).text).toContain("first");
    // Another server (its own host key) answers at the same address: the proxy now forwards there.
    const impostor = await startTestSshd();
    cleanups.push(() => impostor.stop());
    // Drop every live connection and put the impostor behind the port the workspace uses.
    proxy.dropAll();
    await proxy.close();
    const { createServer, createConnection } = await import("node:net");
    const hijack = createServer((inbound) => {
      const outbound = createConnection(impostor.port, impostor.host);
      inbound.pipe(outbound).pipe(inbound);
      inbound.on("error", () => outbound.destroy());
      outbound.on("error", () => inbound.destroy());
    });
    await new Promise<void>((resolve) => hijack.listen(proxy.port, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise((resolve) => hijack.close(resolve)));
    // The first call may still meet the connection being torn down; the one after it must reconnect.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await call(registry, "Read", { path: "f.txt" });
    const after = await call(registry, "Read", { path: "f.txt" });
    expect(after.isError, after.text).toBe(true);
    expect(after.text).toMatch(/host key|host_key/i);
    const bash = await call(registry, "Bash", { command: "echo reached" });
    expect(bash.text).not.toMatch(/^reached/m);
  }, 120_000);

  it("a connection dropped (or its SFTP session process killed) in the middle of a Write of a big file leaves the old file or the new one", async () => {
    const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    cleanups.push(() => proxy.close());
    const workspace = await openWorkspace(proxy);
    const { workdir, registry } = await scene({ workspace });
    const oldText = `${"old line\n".repeat(100_000)}`;
    asUser(`true`);
    fs.writeFileSync(`${workdir}/big.txt`, oldText);
    execFileSync("chown", [`${sshd.username}:`, `${workdir}/big.txt`]);
    let kills = 0;
    let failed = 0;
    for (let round = 0; round < Math.min(ROUNDS, 8); round += 1) {
      const current = fs.readFileSync(`${workdir}/big.txt`, "utf8");
      // After a drop the first call may meet the dying connection; a retry reconnects.
      let read = await call(registry, "Read", { path: "big.txt", limit: 1 });
      if (read.isError && /cannot be reached/.test(read.text)) read = await call(registry, "Read", { path: "big.txt", limit: 1 });
      expect(read.isError, read.text).toBe(false);
      const newText = `${`new ${round} line\n`.repeat(600_000)}`;
      const writing = call(registry, "Write", { path: "big.txt", content: newText });
      await new Promise((resolve) => setTimeout(resolve, 20 + round * 40));
      if (round % 2 === 0) proxy.dropAll();
      else {
        // Odd rounds: SIGKILL this server's SFTP session process instead (sshd's internal-sftp child).
        for (const pid of await sshd.sessionPids()) {
          const cmdline = fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
          if (cmdline.includes("internal-sftp")) {
            process.kill(pid, "SIGKILL");
            kills += 1;
          }
        }
      }
      const written = await writing;
      const after = fs.readFileSync(`${workdir}/big.txt`, "utf8");
      expect([current, newText].includes(after), `round ${round}: torn file of ${after.length} bytes (write said ${written.text.slice(0, 120)})`).toBe(true);
      if (!written.isError) expect(after).toBe(newText);
      else failed += 1;
    }
    // Not vacuous: session processes were killed and some Writes were cut.
    expect(kills).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    const leftovers = fs.readdirSync(workdir).filter((name) => name.includes(".tmp") || name.includes("agent-tools-lock"));
    expect(leftovers).toEqual([]);
  }, 180_000);

  it("no remote process outlives a Bash timeout, a ManagedProcess stop or the registry's close", async () => {
    const { registry, workspace } = await scene();
    // sleep takes no extra word: a unique fraction of a second names each escapee (`sleep 1000.<tag><phase><n>`).
    const tag = `${process.pid}${Date.now() % 100_000}`;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
    const live = () => {
      try {
        return execFileSync("pgrep", ["-u", sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    const escapes = (phase: number) =>
      [
        `setsid sleep 1000.${tag}${phase}1 >/dev/null 2>&1 </dev/null &`,
        `(sleep 1000.${tag}${phase}2 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null &`,
        `nohup sleep 1000.${tag}${phase}3 >/dev/null 2>&1 </dev/null &`,
        `sleep 1000.${tag}${phase}4 >/dev/null 2>&1 </dev/null & disown`,
        `setsid sh -c 'trap "" TERM HUP INT; (sleep 1000.${tag}${phase}5 >/dev/null 2>&1 </dev/null &); sleep 1000.${tag}${phase}6; :' >/dev/null 2>&1 </dev/null &`,
        "sleep 1",
      ].join("\n");
    const timing = call(registry, "Bash", { command: `${escapes(1)}\nsleep 60`, timeout_ms: 4000, yield_time_ms: 30_000 });
    await settle();
    expect(live().split("\n").length, "the escapees run").toBeGreaterThanOrEqual(6);
    const timedOut = await timing;
    expect(timedOut.text).toMatch(/timed.out/i);
    await settle();
    expect(live(), "after the Bash timeout").toBe("");

    const yielded = await call(registry, "Bash", { command: `${escapes(2)}\nsleep 1000`, yield_time_ms: 1000 });
    const sessionId = yielded.details?.sessionId ?? yielded.details?.session_id ?? yielded.text.match(/session_id[=: "]+([\w-]+)/)?.[1];
    expect(typeof sessionId, yielded.text).toBe("string");
    const stoppedSession = await call(registry, "ProcessStop", { session_id: sessionId });
    expect(stoppedSession.isError, stoppedSession.text).toBe(false);
    await settle();
    expect(live(), "after ProcessStop").toBe("");

    const started = await call(registry, "ManagedProcess", { action: "start", command: `${escapes(3)}\nsleep 1000` });
    expect(started.isError, started.text).toBe(false);
    const id = (started.details?.processId ?? started.details?.process_id ?? started.text.match(/process_id[=: "]+([\w-]+)/)?.[1]) as string;
    expect(typeof id, started.text).toBe("string");
    await settle();
    const stopped = await call(registry, "ManagedProcess", { action: "stop", process_id: id });
    expect(stopped.isError, stopped.text).toBe(false);
    await settle();
    expect(live(), "after ManagedProcess stop").toBe("");

    await call(registry, "Bash", { command: `${escapes(4)}\nsleep 1000`, yield_time_ms: 1000 });
    await call(registry, "ManagedProcess", { action: "start", command: `${escapes(5)}\nsleep 1000` });
    await settle();
    // The escapees run (the check above is not vacuous): 6 of the Bash session and 6 of the ManagedProcess.
    expect(live().split("\n").length).toBeGreaterThanOrEqual(12);
    await registry.close();
    await workspace.close();
    await settle();
    expect(live(), "after the registry's close").toBe("");
  }, 120_000);

  // Open, like the Write above: Read and Delete go by path too, so the same swap shows or removes an outside file.
  it.fails("Read and Delete through a directory a Bash loop swaps for a symlink to outside never reach outside", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(`printf 'INSIDE\\n' > '${workdir}/sub/inner.txt' && printf 'VICTIM\\n' > '${outside}/dir/victim.txt'`);
    const flipper = `
      cd '${workdir}'
      while [ ! -e STOP ]; do
        mv sub sub.real 2>/dev/null; ln -sfn '${outside}/dir' sub; sleep 0.004
        rm -f sub; mv sub.real sub 2>/dev/null; sleep 0.004
      done`;
    const child = (await import("node:child_process")).spawn("runuser", ["-u", sshd.username, "--", "/bin/sh", "-c", flipper], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    const shown: string[] = [];
    try {
      // Until each of the three has reached outside once, or the rounds run out.
      for (let round = 0; round < ROUNDS * 5 && new Set(shown.map((entry) => entry.split(" ")[0])).size < 3; round += 1) {
        const read = await call(registry, "Read", { path: "sub/inner.txt" });
        if (read.text.includes("OUTSIDE-DIR-FILE")) shown.push(`Read round ${round}`);
        const grep = await call(registry, "Grep", { pattern: "OUTSIDE-DIR-FILE", path: "sub", output_mode: "content" });
        if (/inner\.txt.*OUTSIDE-DIR-FILE|^\d*:?OUTSIDE-DIR-FILE/m.test(grep.text)) shown.push(`Grep round ${round}`);
        asUser(`cd '${workdir}' && [ -d sub.real ] && d=sub.real || d=sub; printf 'x\\n' > "$d/victim.txt" 2>/dev/null || true`);
        await call(registry, "Delete", { path: "sub/victim.txt" });
        if (!fs.existsSync(`${outside}/dir/victim.txt`)) {
          shown.push(`Delete round ${round}`);
          asUser(`printf 'VICTIM\\n' > '${outside}/dir/victim.txt'`);
        }
      }
    } finally {
      fs.writeFileSync(`${workdir}/STOP`, "");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(shown).toEqual([]);
  }, 180_000);

  // Was a hole: a held lock rewrote its lock file every 10 s after checking it (lstat: a regular file, then
  // its text) by opening it again by path ("r+", which follows a symlink), so a lock file swapped for a
  // symlink between the check and the open got the lock's JSON written over the outside file. Now renewed
  // by a fresh copy renamed over it.
  it("a held lock's heartbeat never writes through a lock file swapped for a symlink", async () => {
    const { workdir, outside, workspace } = await scene();
    const count = 40;
    const targets = Array.from({ length: count }, (_, index) => `${workdir}/sub/t${index}.txt`);
    const locks = await Promise.all(targets.map((target) => workspace.fs.lock(target, { timeoutMs: 5_000 })));
    const swapper = `
import os, sys, time
work, secret, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = [os.path.join(work, "sub", ".t%d.txt.agent-tools-lock" % i) for i in range(count)]
saved = [open(n, "rb").read() for n in names]
while not os.path.exists(os.path.join(work, "STOP")):
    for n in names:
        try: os.unlink(n + ".l")
        except OSError: pass
        os.symlink(secret, n + ".l"); os.rename(n + ".l", n)
    time.sleep(0.0015)
    for n, b in zip(names, saved):
        with open(n + ".f", "wb") as f: f.write(b)
        os.rename(n + ".f", n)
    time.sleep(0.0015)
`;
    const child = (await import("node:child_process")).spawn(
      "runuser",
      ["-u", sshd.username, "--", "python3", "-c", swapper, workdir, `${outside}/secret.txt`, String(count)],
      { stdio: "ignore" },
    );
    cleanups.push(() => child.kill("SIGKILL"));
    try {
      // One heartbeat of every lock (10 s after it was taken) and some slack.
      for (let waited = 0; waited < 14_000 && fs.readFileSync(`${outside}/secret.txt`, "utf8") === "OUTSIDE-SECRET\n"; waited += 500) {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      fs.writeFileSync(`${workdir}/STOP`, "");
      await new Promise((resolve) => child.once("exit", resolve));
      await Promise.all(locks.map((lock) => lock.release()));
    }
    expect(fs.readFileSync(`${outside}/secret.txt`, "utf8")).toBe("OUTSIDE-SECRET\n");
  }, 120_000);

  // Was open: Read checks the type (lstat: a regular file) and then opens by path. A FIFO put there in between
  // blocks the SFTP server in open(2); OpenSSH's sftp-server answers one request at a time, so every later
  // file call of the workspace waited behind it, for ever (hit after about 1000 rounds). Now every SFTP request
  // has a deadline (sftpTimeoutMs, 1 s here): the blocked open fails, the stuck SFTP session is abandoned and the
  // next call opens a new one.
  it("a file a Bash loop swaps for a FIFO never hangs Read (the SFTP server is one thread: a blocked open stalls every call)", async () => {
    const workspace = await createSshWorkspace({
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      privateKey: sshd.privateKey,
      hostKey: sshd.hostKeyFingerprint,
      root: sshd.root,
      sftpTimeoutMs: 1_000,
    });
    const { workdir, registry } = await scene({ workspace });
    asUser(`printf 'plain\\n' > '${workdir}/flip.txt'`);
    const flipper = `
      cd '${workdir}'
      while [ ! -e STOP ]; do
        rm -f flip.txt; mkfifo flip.txt; sleep 0.003
        rm -f flip.txt; printf 'plain\\n' > flip.txt; sleep 0.003
      done`;
    const child = (await import("node:child_process")).spawn("runuser", ["-u", sshd.username, "--", "/bin/sh", "-c", flipper], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    let hung = "";
    let refused = 0;
    let rounds = 0;
    try {
      // About one Read in 10-30 meets the FIFO and waits out the deadline: bounded by rounds and by 150 s.
      const until = Date.now() + 150_000;
      for (let round = 0; round < ROUNDS * 40 && hung === "" && Date.now() < until; round += 1) {
        rounds += 1;
        const reading = call(registry, "Read", { path: "flip.txt" });
        const outcome = await Promise.race([
          reading.then((result) => (/did not answer the open/.test(result.text) ? "refused" : "answered")),
          new Promise((resolve) => setTimeout(() => resolve("hung"), 20_000)),
        ]);
        if (outcome === "hung") hung = `round ${round}`;
        if (outcome === "refused") refused += 1;
      }
    } finally {
      fs.writeFileSync(`${workdir}/STOP`, "");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(hung, "a Read hung for 20 s").toBe("");
    console.log(`FIFO flip: ${refused} Read(s) of ${rounds} met the FIFO in their open and timed out (unsupported); the next call answered`);
    // The workspace still answers.
    const after = await Promise.race([
      call(registry, "List", { path: "." }),
      new Promise<{ text: string }>((resolve) => setTimeout(() => resolve({ text: "HUNG" }), 20_000)),
    ]);
    expect(after.text).not.toBe("HUNG");
  }, 300_000);

  // Open: the runner finds a tree's escapees by descent and by the AGENT_TOOLS_PROCESS_TREE variable in
  // /proc/<pid>/environ. A process that double-forks (re-parented to init) AND clears its environment
  // (`env -i`, `env -u AGENT_TOOLS_PROCESS_TREE`) carries neither mark and survives the Bash timeout.
  it.fails("no remote process outlives a Bash timeout after a double fork that clears its environment", async () => {
    const { registry } = await scene();
    const tag = `${process.pid}${Date.now() % 100_000}`;
    const live = () => {
      try {
        return execFileSync("pgrep", ["-u", sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    cleanups.push(() => execFileSync("pkill", ["-KILL", "-u", sshd.username, "-f", `[.]${tag}`], { stdio: "ignore" }));
    const command = [
      `(env -i /bin/sleep 1000.${tag}1 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      `(env -u AGENT_TOOLS_PROCESS_TREE setsid /bin/sleep 1000.${tag}2 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      "sleep 60",
    ].join("\n");
    const timedOut = await call(registry, "Bash", { command, timeout_ms: 3000, yield_time_ms: 30_000 });
    expect(timedOut.text).toMatch(/timed.out/i);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(live(), "after the Bash timeout").toBe("");
  }, 60_000);

  it("Bash and ManagedProcess refuse a cwd outside the root by any form (symlink, .., absolute, quotes and $())", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(`cd '${workdir}' && ln -s '${outside}/dir' linkdir`);
    fs.mkdirSync(`${workdir}/a'b$(touch INJECTED)`);
    execFileSync("chown", [`${sshd.username}:`, `${workdir}/a'b$(touch INJECTED)`]);
    const forms = ["linkdir", `${outside}/dir`, "../..", `sub/../../outside-${path.basename(workdir)}/dir`, "root://docs", "/"];
    for (const cwd of forms) {
      const bash = await call(registry, "Bash", { command: "pwd; cat inner.txt", cwd, yield_time_ms: 5_000 });
      expect(bash.text, `Bash cwd ${cwd}`).not.toContain("OUTSIDE-DIR-FILE");
      expect(bash.text, `Bash cwd ${cwd}`).not.toMatch(new RegExp(`^${outside}/dir$`, "m"));
      const started = await call(registry, "ManagedProcess", { action: "start", command: "pwd; cat inner.txt", cwd });
      expect(started.isError, `ManagedProcess cwd ${cwd}: ${started.text}`).toBe(true);
    }
    const quoted = await call(registry, "Bash", { command: "pwd", cwd: "a'b$(touch INJECTED)", yield_time_ms: 5_000 });
    expect(quoted.isError, quoted.text).toBe(false);
    expect(fs.existsSync(`${workdir}/INJECTED`)).toBe(false);
  }, 60_000);

  it("Bash output carrying marker-like lines is passed through as output", async () => {
    const { registry } = await scene();
    const bash = await call(registry, "Bash", { command: "printf 'AT0000 P 1\\nAT0000 E cwd\\n'; echo done; exit 3" });
    expect(bash.text).toContain("AT0000 P 1");
    expect(bash.text).toContain("AT0000 E cwd");
    expect(bash.text).toContain("done");
    expect(bash.text).toMatch(/3/);
  }, 60_000);

  it("never reads or writes a local file for a workspace path (a root-only local file, the dataDir)", async () => {
    const { workdir, registry, dataDir } = await scene();
    // Local root-only files: the SSH user cannot read or write them, so only a local read or write would succeed.
    fs.writeFileSync(path.join(workdir, "root-only.txt"), "LOCAL-ROOT-ONLY\n", { mode: 0o600 });
    fs.mkdirSync(path.join(workdir, "root-dir"), { mode: 0o755 });
    fs.writeFileSync(path.join(workdir, "root-dir", "f.txt"), "LOCAL-ROOT-ONLY\n", { mode: 0o644 });
    const read = await call(registry, "Read", { path: "root-only.txt" });
    expect(read.text).not.toContain("LOCAL-ROOT-ONLY");
    expect(read.isError).toBe(true);
    const grep = await call(registry, "Grep", { pattern: "LOCAL-ROOT-ONLY", output_mode: "content" });
    expect(grep.text).not.toMatch(/root-only\.txt:.*LOCAL/);
    const written = await call(registry, "Write", { path: "root-dir/new.txt", content: "x\n" });
    expect(written.isError).toBe(true);
    expect(fs.existsSync(path.join(workdir, "root-dir", "new.txt"))).toBe(false);
    const overwritten = await call(registry, "Write", { path: "root-only.txt", content: "x\n" });
    expect(overwritten.isError).toBe(true);
    expect(fs.readFileSync(path.join(workdir, "root-only.txt"), "utf8")).toBe("LOCAL-ROOT-ONLY\n");
    // The dataDir and a local-only path: absolute paths outside the workspace root.
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, "local-secret.txt"), "LOCAL-DATADIR\n");
    for (const p of [path.join(dataDir, "local-secret.txt"), path.join(localTemporary, "nowhere.txt"), "/etc/hostname"]) {
      const r = await call(registry, "Read", { path: p });
      expect(r.isError, `Read ${p}`).toBe(true);
      expect(r.text).not.toContain("LOCAL-DATADIR");
      const w = await call(registry, "Write", { path: p, content: "PWNED\n" });
      expect(w.isError, `Write ${p}`).toBe(true);
      const l = await call(registry, "List", { path: path.dirname(p) });
      expect(l.text).not.toContain("local-secret.txt");
    }
    expect(fs.existsSync(path.join(localTemporary, "nowhere.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, "local-secret.txt"), "utf8")).toBe("LOCAL-DATADIR\n");
  }, 60_000);

  // Open: anchoredOpens is false. Write resolves the path once (resolveInWorkspace), then mkdir -p, lock,
  // stat, lstat, open of the temporary file and rename all go by path over SFTP with nothing re-checked,
  // so a directory swapped for a symlink to outside in that window takes the file outside.
  it.fails("Write through a directory a Bash loop swaps for a symlink to outside never lands outside", async () => {
    const { workdir, outside, registry } = await scene();
    const flipper = `
      cd '${workdir}'
      while [ ! -e STOP ]; do
        mv sub sub.real 2>/dev/null; ln -sfn '${outside}/dir' sub; sleep 0.004
        rm -f sub; mv sub.real sub 2>/dev/null; sleep 0.004
      done`;
    const child = (await import("node:child_process")).spawn("runuser", ["-u", sshd.username, "--", "/bin/sh", "-c", flipper], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    let landed = "nothing whole";
    try {
      for (let round = 0; round < ROUNDS * 5; round += 1) {
        const written = await call(registry, "Write", { path: `sub/race-${round}.txt`, content: `RACED ${round}\n` });
        // Go on until a whole file (not only a lock or temporary file) lands outside, or the rounds run out.
        if (fs.existsSync(`${outside}/dir/race-${round}.txt`)) {
          landed = `race-${round}.txt (Write said: ${written.text.slice(0, 80)})`;
          break;
        }
      }
    } finally {
      fs.writeFileSync(`${workdir}/STOP`, "");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(fs.readdirSync(`${outside}/dir`), `landed outside: ${landed}`).toEqual(["inner.txt"]);
  }, 180_000);
});
