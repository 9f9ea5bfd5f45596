import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { RunningProcess } from "@agent-tools/core";
import { waitForPidFiles } from "@agent-tools/node/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SshConnection } from "../connection/index.js";
import { startTestSshd, type TestSshd } from "../testing/index.js";
import { probeRemoteSupervisor } from "./remote-supervisor-probe.js";
import { createSshProcessRunner } from "./ssh-process-runner.js";
import type { SshRunningProcess } from "./ssh-running-process.js";

let sshd: TestSshd;
let connection: SshConnection;

beforeAll(async () => {
  sshd = await startTestSshd({ maxSessions: 20 });
  connection = new SshConnection({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint });
});
afterAll(async () => {
  await connection?.close();
  await sshd?.stop();
});

/** A fresh folder the remote account owns. */
function accountDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(sshd.root, "sup-")));
  chownSync(dir, sshd.uid, -1);
  return dir;
}

/** The command line of a local pid ("" once it is gone): the test sshd runs on this machine. */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+/g, " ").trim();
  } catch {
    return "";
  }
}

function alive(pid: number): boolean {
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return "";
    }
  })();
  return stat !== "" && !/\) [ZX] /.test(stat);
}

function output(child: RunningProcess): () => string {
  let text = "";
  child.onOutput((chunk) => {
    text += chunk.data.toString("utf8");
  });
  return () => text;
}

// The supervisor needs /usr/bin/perl and Linux on the "remote" machine, which is this one.
const linuxWithPerl =
  process.platform === "linux" &&
  (() => {
    try {
      execFileSync("/usr/bin/perl", ["-e", "1"]);
      return true;
    } catch {
      return false;
    }
  })();

describe.skipIf(!linuxWithPerl)("the remote supervisor", () => {
  it("the probe finds the prctl syscall number of this machine's architecture", async () => {
    const expected = { x64: 157, arm64: 167 }[process.arch as string];
    const found = await probeRemoteSupervisor(connection);
    if (expected === undefined) expect(found === undefined || Number.isInteger(found)).toBe(true);
    else expect(found).toBe(expected);
  });

  it("runs the command below a supervisor named after its tree, keeping exit codes, stdin and the signal name", async () => {
    const runner = createSshProcessRunner(connection);
    try {
      const child = runner.spawn({ command: 'read line; echo "got $line"; echo ppid=$PPID; exit 7', shell: true, cwd: "/tmp", input: "hello\n" });
      const text = output(child);
      const exit = await child.exited;
      expect(exit).toEqual({ exitCode: 7, signal: null });
      await (child as SshRunningProcess).outputClosed;
      expect(text()).toContain("got hello");
      const supervisor = (child as SshRunningProcess).selector?.supervisorPid;
      expect(supervisor).toBeGreaterThan(1);
      expect(text()).toContain(`ppid=${supervisor}`);
      const killed = runner.spawn({ command: "kill -s TERM $$", shell: true, cwd: "/tmp" });
      expect(await killed.exited).toEqual({ exitCode: null, signal: "SIGTERM" });
    } finally {
      await runner.close();
    }
  });

  it("holds an env-cleared, double-forked setsid escapee after the main process exited, and close() ends it", async () => {
    const runner = createSshProcessRunner(connection);
    const dir = accountDir();
    const child = runner.spawn({
      command: "(env -i /usr/bin/setsid /bin/sh -c 'echo $$ > escapee.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &); exit 0",
      shell: true,
      cwd: dir,
    });
    expect(await child.exited).toEqual({ exitCode: 0, signal: null });
    const [escapee] = await waitForPidFiles(dir, 1);
    const supervisor = (child as SshRunningProcess).selector!.supervisorPid!;
    expect(cmdline(supervisor)).toBe(`agent-tools-supervisor ${(child as SshRunningProcess).tag}`);
    // Re-parented to the supervisor, not to init.
    expect(readFileSync(`/proc/${escapee}/stat`, "utf8")).toMatch(new RegExp(`\\) \\S+ ${supervisor} `));
    expect(await (child as SshRunningProcess).refresh()).toContain(escapee);
    await runner.close();
    expect(alive(escapee!)).toBe(false);
    for (let round = 0; round < 50 && alive(supervisor); round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(supervisor)).toBe(false);
  });
});
