/**
 * Red-team round on the two remote programs of an SSH workspace
 * (`createSshWorkspace` of `@agent-tools/ssh` on a real OpenSSH server from
 * `startTestSshd`), played by a model whose Bash runs on the remote machine
 * as the workspace's own Unix user:
 *
 * - the anchored file helper (`/usr/bin/perl` walking each path from `/`):
 *   a `..` (from a symlink's target) climbing out of a folder a rename loop
 *   moves outside the root mid-walk; a hard link to an outside file written
 *   and edited through the tools; the helper stopped with SIGSTOP (the
 *   workspace fails closed and recovers); requests written into the
 *   helper's stdin through `/proc/<pid>/fd/0` (refused: the helper is
 *   non-dumpable);
 * - the process supervisor started with `PERL5OPT`/`PERL5LIB` in the
 *   account's login environment (a module that runs the command
 *   unsupervised: a double-forked `env -i setsid` escapee outlived the Bash
 *   timeout before the fix);
 * - the helper started by the account's shell, whose startup file the
 *   model can write (`~/.bashrc`: Debian's bash sources it for every
 *   command sshd runs);
 * (List, Glob and Grep while a loop swaps a subfolder for a symlink to outside:
 * ssh-helpers-redteam-search.attack.test.ts.)
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTestSshd, type TestSshd } from "@agent-tools/ssh/testing";
import { describe, expect, it } from "vitest";
import { ROUNDS, asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, scene, call } = harness;

/** Pids of this server's anchored helpers (its sessions' `/usr/bin/perl` serving `agent-tools-anchored`). */
async function helperPids(sshd: TestSshd): Promise<number[]> {
  const out: number[] = [];
  for (const pid of await sshd.sessionPids()) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.startsWith("/usr/bin/perl\0-e\0") && cmdline.includes("agent-tools-anchored")) out.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Starts a Bash-like loop as the SSH user in the background; returns its stop. */
function userLoop(script: string): () => Promise<void> {
  // Its own process group: runuser forks, and the group kill ends the loop too.
  const child = spawn("runuser", ["-u", harness.sshd.username, "--", "/usr/bin/perl", "-e", script], { stdio: "ignore", detached: true });
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      process.kill(-(child.pid as number), "SIGKILL");
    });
}

describe.skipIf(!asRoot)("attack: the SSH workspace's remote helpers (red team)", () => {
  it("a .. climbing out of a folder a rename loop moves outside mid-walk never reaches the outside folder", async () => {
    const { workdir, outside, workspace } = await scene();
    expect(workspace.capabilities.anchoredOpens).toBe(true);
    // W/a/d1/.../d12 and W/y (inside); O/y (outside, a sibling of the root on the same file system).
    const depth = 12;
    const chain = Array.from({ length: depth }, (_, index) => `d${index}`).join("/");
    const up = "../".repeat(depth + 1);
    asUser(
      `mkdir -p '${workdir}/a/${chain}' '${workdir}/y' '${outside}/y' && printf 'INSIDE\\n' > '${workdir}/y/f.txt' && printf 'OUTSIDE-Y\\n' > '${outside}/y/f.txt' && ln -s 'a/${chain}/${up}y' '${workdir}/l'`,
    );
    // Statically the link leads to W/y: the helper follows it.
    expect((await workspace.fs.readFile(`${workdir}/l/f.txt`)).toString()).toBe("INSIDE\n");
    // The model's loop: W/a moved to O/a and back (rename keeps the inode, so the walk's dev/ino check never sees it).
    const stop = userLoop(`while (1) { rename "${workdir}/a", "${outside}/a"; rename "${outside}/a", "${workdir}/a"; }`);
    const seen = new Set<string>();
    try {
      for (let round = 0; round < ROUNDS * 10; round += 1) {
        const read = await workspace.fs.readFile(`${workdir}/l/f.txt`).then(
          (buffer) => buffer.toString(),
          (error: { code?: string }) => `error ${error.code}`,
        );
        seen.add(read);
        await workspace.fs.writeFileAtomic(`${workdir}/l/w${round}.txt`, Buffer.from("written\n")).catch(() => undefined);
        if (seen.has("OUTSIDE-Y\n")) break;
      }
    } finally {
      await stop();
    }
    asUser(`[ -d '${workdir}/a' ] || mv '${outside}/a' '${workdir}/a'`);
    expect([...seen], "Read showed the outside folder's file").not.toContain("OUTSIDE-Y\n");
    expect(fs.readdirSync(`${outside}/y`), "a write landed in the outside folder").toEqual(["f.txt"]);
    // Not only refusals: the link still reads when nothing moves.
    expect(seen.has("INSIDE\n")).toBe(true);
  }, 180_000);

  it("a hard link to an outside file is replaced by Write and Edit, never written through", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(`ln '${outside}/secret.txt' '${workdir}/hard.txt' && ln '${outside}/secret.txt' '${workdir}/hard2.txt'`);
    const read = await call(registry, "Read", { path: "hard.txt" });
    expect(read.text).toContain("OUTSIDE-SECRET");
    const written = await call(registry, "Write", { path: "hard.txt", content: "written over\n" });
    expect(written.isError, written.text).toBe(false);
    await call(registry, "Read", { path: "hard2.txt" });
    const edited = await call(registry, "Edit", { path: "hard2.txt", old_string: "OUTSIDE", new_string: "EDITED" });
    expect(edited.isError, edited.text).toBe(false);
    expect(fs.readFileSync(`${outside}/secret.txt`, "utf8")).toBe("OUTSIDE-SECRET\n");
    expect(fs.statSync(`${outside}/secret.txt`).nlink).toBe(1);
    expect(fs.readFileSync(`${workdir}/hard.txt`, "utf8")).toBe("written over\n");
    expect(fs.readFileSync(`${workdir}/hard2.txt`, "utf8")).toBe("EDITED-SECRET\n");
  }, 120_000);

  it("a helper stopped with SIGSTOP fails the call closed; the next call starts a new helper; the old one continued changes nothing", async () => {
    const sshd = await startTestSshd();
    cleanups.push(() => sshd.stop());
    const workspace = await createSshWorkspace({ ...sshd.connectOptions, sftpTimeoutMs: 2_000 });
    cleanups.push(() => workspace.close());
    const file = path.join(sshd.root, "kept.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("OLD\n"));
    const [helper] = await helperPids(sshd);
    expect(helper, "the helper runs").toBeTypeOf("number");
    // The model's Bash: kill -STOP <helper> (same user).
    asUser(`kill -STOP ${helper}`);
    const stalled = await workspace.fs.writeFileAtomic(file, Buffer.from("NEW-1\n")).then(
      () => "resolved",
      (error: { code?: string }) => String(error.code),
    );
    expect(stalled).not.toBe("resolved");
    expect(fs.readFileSync(file, "utf8")).toBe("OLD\n");
    await workspace.fs.writeFileAtomic(file, Buffer.from("NEW-2\n"));
    expect(fs.readFileSync(file, "utf8")).toBe("NEW-2\n");
    asUser(`kill -CONT ${helper}`);
    for (let round = 0; round < 50 && fs.existsSync(`/proc/${helper}`); round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fs.readFileSync(file, "utf8")).toBe("NEW-2\n");
    expect((await workspace.fs.readFile(file)).toString()).toBe("NEW-2\n");
  }, 120_000);

  // Was open: the helper's stdin is a pipe, and the model's Bash (same uid) opened /proc/<helper>/fd/0 and wrote
  // frames into it; a request written there was answered to the host as if it were the answer to the host's next
  // request (Read of an inside file showed the outside file). Fixed: the helper makes itself non-dumpable at start
  // (prctl PR_SET_DUMPABLE 0), so /proc/<pid>/fd of it is closed to the same account (EACCES).
  it("requests written into the helper's stdin (/proc/<pid>/fd/0) never answer a tool's Read", async () => {
    const sshd = await startTestSshd();
    cleanups.push(() => sshd.stop());
    const workspace = await createSshWorkspace(sshd.connectOptions);
    cleanups.push(() => workspace.close());
    const workdir = sshd.root;
    const outside = path.join(path.dirname(workdir), `outside-fd-${randomBytes(4).toString("hex")}`);
    execFileSync("runuser", [
      "-u",
      sshd.username,
      "--",
      "/bin/sh",
      "-c",
      `mkdir -p '${outside}' && printf 'OUTSIDE-SECRET\\n' > '${outside}/secret.txt' && printf 'inside\\n' > '${workdir}/in.txt'`,
    ]);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir: path.join(harness.localTemporary, "fd"), memory: false });
    cleanups.push(() => registry.close());
    expect((await call(registry, "Read", { path: "in.txt" })).text).toContain("inside");
    const [helper] = await helperPids(sshd);
    expect(fs.readlinkSync(`/proc/${helper}/fd/0`)).toMatch(/^pipe:/);
    const request = `read\\0${outside}/secret.txt\\0\\x000\\0`;
    const written = execFileSync(
      "runuser",
      [
        "-u",
        sshd.username,
        "--",
        "/usr/bin/perl",
        "-e",
        `open(my $f, ">", "/proc/${helper}/fd/0") or do { print "refused: $!"; exit 0 }; my $r = "${request}"; syswrite $f, pack("N", length $r) . $r; print "written";`,
      ],
      { encoding: "utf8" },
    );
    expect(written, "the account opened the helper's stdin").toMatch(/^refused: Permission denied/);
    const read = await call(registry, "Read", { path: "in.txt" });
    // The host asked for in.txt (7 bytes by its SFTP stat): it got the first 7 bytes of the outside file.
    expect(read.text).not.toContain("OUTSIDE");
  }, 120_000);

  /** A Perl module the model wrote in its home, and the marker file it appends to when a perl loads it. */
  const plantModule = (body: string) => {
    const dir = path.join(harness.home, `perl5-${randomBytes(4).toString("hex")}`);
    const marker = path.join(dir, "loaded");
    asUser(`mkdir -p '${dir}'`);
    fs.writeFileSync(path.join(dir, "Evil.pm"), `package Evil;\nopen(my $m, ">>", "${marker}"); print $m "$$ $0 @ARGV[0..1]\\n"; close $m;\n${body}\n1;\n`);
    execFileSync("chown", ["-R", `${harness.sshd.uid}`, dir]);
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return { dir, marker };
  };

  it("PERL5OPT/PERL5LIB in the account's login environment load nothing into the process supervisor (a double-forked env -i escapee still dies)", async () => {
    // The model's way there: ~/.ssh/environment on a server with PermitUserEnvironment, or an export in a
    // startup file; here sshd's SetEnv gives every session the variables (the shared account's files stay as they are).
    // The module runs the command without the supervisor (only the group, descent and tag sweep is left).
    const { dir, marker } = plantModule(`if (@ARGV == 4 && $ARGV[2] =~ /^agent-tools-supervisor/) { exec { "/bin/sh" } "/bin/sh", "-c", $ARGV[3]; }`);
    const sshd = await startTestSshd({ environment: { PERL5LIB: dir, PERL5OPT: "-MEvil" } });
    cleanups.push(() => sshd.stop());
    const workspace = await createSshWorkspace(sshd.connectOptions);
    cleanups.push(() => workspace.close());
    const registry = await buildBuiltinToolRegistry({ workspace, workdir: sshd.root, dataDir: path.join(harness.localTemporary, "perl5opt"), memory: false });
    cleanups.push(() => registry.close());
    const tag = `${process.pid}${Math.floor(Math.random() * 1_000_000)}`;
    const live = () => {
      try {
        return execFileSync("pgrep", ["-u", sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    cleanups.push(() => {
      for (const pid of live().split("\n").filter(Boolean)) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // Gone.
        }
      }
    });
    const command = [`(env -i /usr/bin/setsid /bin/sleep 1000.${tag} >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`, "sleep 60"].join("\n");
    const running = call(registry, "Bash", { command, timeout_ms: 3000, yield_time_ms: 30_000 });
    for (let round = 0; round < 50 && live() === ""; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(live(), "the escapee runs").not.toBe("");
    expect((await running).text).toMatch(/timed.out/i);
    for (let round = 0; round < 50 && live() !== ""; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(live(), "after the Bash timeout").toBe("");
    const loaded = fs.existsSync(marker) ? fs.readFileSync(marker, "utf8") : "";
    expect(loaded, "a perl of the SDK loaded the model's module").toBe("");
  }, 120_000);

  // Works (open; not fixable by the SDK): the account's shell runs its startup file before the command sshd hands
  // it (Debian's bash sources ~/.bashrc for every command run by sshd), so the model can redefine the shell's
  // `unset` (a function wins over a builtin) and export PERL5OPT, or replace the command altogether. The helper
  // (and the supervisor) then run the model's code: they confine the tools against races in the tree and keep
  // the commands' processes below them, not against the account they run as. docs/workspaces.md says so.
  // The lines are put first in the shared account's ~/.bashrc for this file's own server only (its port), and
  // the file is put back afterwards.
  it.fails("a startup file of the account's shell loads nothing into the anchored helper", async () => {
    const { dir, marker } = plantModule("");
    const sshd = await startTestSshd();
    cleanups.push(() => sshd.stop());
    const bashrc = path.join(harness.home, ".bashrc");
    const original = fs.existsSync(bashrc) ? fs.readFileSync(bashrc) : undefined;
    const lines = `case "$SSH_CONNECTION" in *" ${sshd.port}") unset() { :; }; export PERL5LIB='${dir}' PERL5OPT=-MEvil;; esac\n`;
    const swap = (content: Buffer) => {
      const temporary = `${bashrc}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, content);
      fs.chownSync(temporary, sshd.uid, fs.statSync(harness.home).gid);
      fs.renameSync(temporary, bashrc);
    };
    swap(Buffer.concat([Buffer.from(lines), original ?? Buffer.alloc(0)]));
    try {
      const workspace = await createSshWorkspace(sshd.connectOptions);
      cleanups.push(() => workspace.close());
      expect(workspace.capabilities.anchoredOpens).toBe(true);
      await workspace.fs.writeFileAtomic(path.join(sshd.root, "x.txt"), Buffer.from("x\n"));
    } finally {
      if (original === undefined) fs.rmSync(bashrc, { force: true });
      else swap(original);
    }
    const loaded = fs.existsSync(marker) ? fs.readFileSync(marker, "utf8") : "";
    expect(loaded, "the helper loaded the model's module").toBe("");
  }, 120_000);
});
