/**
 * Attacks on a registry built on an SSH workspace (`createSshWorkspace` of
 * `@agent-tools/ssh`, a real OpenSSH server from `startTestSshd`), played by
 * a model whose Bash runs on the remote machine as the SSH user and swaps
 * files there while the tools run:
 *
 * - a held lock's 10 s heartbeat with its lock file swapped for a symlink
 *   to an outside file (was a hole: the lock's JSON overwrote that file);
 * - a file a Bash loop swaps for a FIFO between Read's type check and its
 *   open (was a hole: the open blocked the one-threaded SFTP server, and
 *   every later file call of the workspace, for ever; now the request's
 *   deadline ends that Read as unsupported and a new SFTP session serves
 *   the next call);
 * - Write, Read, Grep and Delete through a directory a Bash loop keeps
 *   swapping for a symlink to outside (was a hole while SFTP opened by path:
 *   nothing re-checked between the containment check and the open or
 *   rename; now the anchored helper walks each path on the remote side and
 *   Grep's ripgrep refuses a folder that led elsewhere; `ATTACK_ROUNDS` rounds).
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import fs from "node:fs";
import { createSshWorkspace } from "@agent-tools/ssh";
import type { TestSshd } from "@agent-tools/ssh/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUNDS, asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, scene, call } = harness;
let sshd: TestSshd;
beforeAll(() => {
  if (!asRoot) return;
  sshd = harness.sshd;
});

describe.skipIf(!asRoot)("attack: an SSH workspace through the tools", () => {
  // Was a hole (SFTP by path): about one Read, Grep or Delete in 10-30 reached the outside folder. Now the anchored
  // helper walks the path component by component on the remote side and ripgrep's start checks the folder it entered.
  it("Read and Delete through a directory a Bash loop swaps for a symlink to outside never reach outside", async () => {
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
      // The SFTP read path (the anchored helper never opens a FIFO: ssh-anchored-helper.attack.test.ts).
      anchoredOpens: false,
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

  // Was a hole (SFTP by path): about one Write in 10-15 (its lock file, temporary file or the file itself) landed in
  // the outside folder. Now the write, its lock file and their renames run in the directory the anchored walk reached.
  it("Write through a directory a Bash loop swaps for a symlink to outside never lands outside", async () => {
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
