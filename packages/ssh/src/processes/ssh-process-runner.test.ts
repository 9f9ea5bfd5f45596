import { chownSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { SdkError, type ProcessOutputChunk, type RunningProcess } from "@agent-tools/core";
import { runProcessRunnerContract, waitForPidFiles } from "@agent-tools/node/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SshConnection } from "../connection/index.js";
import { startTcpProxy, startTestSshd, type TcpProxy, type TestSshd } from "../testing/index.js";
import { createSshProcessRunner } from "./ssh-process-runner.js";
import type { SshRunningProcess } from "./ssh-running-process.js";

let sshd: TestSshd;
let connection: SshConnection;
const connections: SshConnection[] = [];

beforeAll(async () => {
  sshd = await startTestSshd({ maxSessions: 20 });
  connection = connect(sshd.host, sshd.port);
});
afterAll(async () => {
  await Promise.all(connections.map((each) => each.close()));
  await sshd?.stop();
});

function connect(host: string, port: number, maxChannels = 16): SshConnection {
  const made = new SshConnection({ host, port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint, maxChannels });
  connections.push(made);
  return made;
}

/** A fresh folder the remote account owns (the contract's cwd, pid and log folders). */
function accountDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(sshd.root, "proc-")));
  chownSync(dir, sshd.uid, -1);
  return dir;
}

function collect(child: RunningProcess): { text: (stream: "stdout" | "stderr") => string; chunks: ProcessOutputChunk[] } {
  const chunks: ProcessOutputChunk[] = [];
  child.onOutput((chunk) => chunks.push(chunk));
  return {
    chunks,
    text: (stream) => Buffer.concat(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data)).toString("utf8"),
  };
}

/** Pids alive on the server, asked on a separate exec channel with `ps` (not through the runner). */
async function remoteAlive(pids: readonly number[]): Promise<number[]> {
  if (pids.length === 0) return [];
  // ps -p 0 is a usage error that prints nothing: it would read as "nothing alive".
  if (pids.some((pid) => !(pid > 1))) throw new Error(`remoteAlive: not a pid in ${pids.join(",")}`);
  const { channel } = await connection.exec(`ps -o pid=,stat= -p ${pids.join(",")} || true`);
  let out = "";
  channel.on("data", (data: Buffer) => {
    out += data.toString();
  });
  channel.stderr.resume();
  await new Promise((resolve) => channel.once("close", resolve));
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 2 && !fields[1]!.startsWith("Z"))
    .map((fields) => Number(fields[0]));
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

runProcessRunnerContract("ssh", () => createSshProcessRunner(connection), {
  tree: true,
  // The remote processes run as the test account: the contract's folders must be its own.
  makeTempDir: accountDir,
  // livePids() is a cached picture of the remote process table: take a fresh one first.
  beforeTreeQuery: async (child) => {
    // The pid files can be seen on this machine before the pid's marker line arrived over SSH.
    await (child as SshRunningProcess).started;
    await (child as SshRunningProcess).refresh();
  },
});

describe("createSshProcessRunner", () => {
  const runners: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.close()));
  });
  const runner = (on = connection) => {
    const made = createSshProcessRunner(on);
    runners.push(made);
    return made;
  };

  it("runs on the remote machine as its own process group, with the marker line stripped and raw bytes kept", async () => {
    const dir = accountDir();
    const child = runner().spawn({
      command: "ps -o pid=,pgid= -p $$; id -un; printf '\\377\\000x'",
      shell: true,
      cwd: dir,
    });
    const output = collect(child);
    expect(await child.exited).toEqual({ exitCode: 0, signal: null });
    await child.outputClosed;
    const stdout = Buffer.concat(output.chunks.filter((chunk) => chunk.stream === "stdout").map((chunk) => chunk.data));
    const [pidLine, user] = stdout.toString("latin1").split("\n");
    const [pid, pgid] = pidLine!.trim().split(/\s+/).map(Number);
    expect(pid).toBe(child.pid);
    expect(pgid).toBe(child.pid);
    expect(user).toBe(sshd.username);
    expect(stdout.subarray(stdout.length - 3)).toEqual(Buffer.from([0xff, 0x00, 0x78]));
    expect(stdout.includes("AT_")).toBe(false);
    expect(output.text("stderr")).toBe("");
  });

  it("passes env values with quotes, spaces and newlines unchanged, args without a shell, and refuses bad names", async () => {
    const value = `it's "quoted" $HOME \`x\` \\ \n line2`;
    const child = runner().spawn({ command: "printf", args: ["%s|%s|%s", "a b", "$HOME", "ignored"], cwd: "/tmp" });
    const output = collect(child);
    await child.exited;
    await child.outputClosed;
    expect(output.text("stdout")).toBe("a b|$HOME|ignored");
    const env = runner().spawn({ command: 'printf "%s" "$V"', shell: true, cwd: "/tmp", env: { V: value } });
    const envOutput = collect(env);
    await env.exited;
    await env.outputClosed;
    expect(envOutput.text("stdout")).toBe(value);
    const long = `${"x".repeat(60_000)}'"'"'${"y".repeat(100)}`;
    const echo = runner().spawn({ command: "printf", args: ["%s", long], cwd: "/tmp" });
    const echoed = collect(echo);
    await echo.exited;
    await echo.outputClosed;
    expect(echoed.text("stdout")).toBe(long);
    expect(() => runner().spawn({ command: "true", cwd: "/tmp", env: { "A;rm -rf /": "x" } })).toThrow(SdkError);
    expect(() => runner().spawn({ command: "true", cwd: "/tmp", extendEnv: false, env: { "1A": "x" } })).toThrow(/Environment variable name/);
    expect(() => runner().spawn({ command: "true", cwd: "/tmp", logfile: "/tmp/x" } as never)).toThrow(/did you mean "logFile"/);
    expect(() => runner().spawn({ command: "true", cwd: "relative" })).toThrow(/absolute cwd/);
  });

  it("extendEnv false runs with only the given environment (and the tree tag)", async () => {
    const child = runner().spawn({ command: "/usr/bin/env", cwd: "/tmp", extendEnv: false, env: { ONLY: "1" } });
    const output = collect(child);
    await child.exited;
    await child.outputClosed;
    const names = output
      .text("stdout")
      .trim()
      .split("\n")
      .map((line) => line.split("=")[0])
      .sort();
    expect(names).toEqual(["AGENT_TOOLS_PROCESS_TREE", "ONLY"]);
  });

  it("a missing cwd or executable exits 127 with the local runner's error words", async () => {
    const missingCwd = await runner().spawn({ command: "true", shell: true, cwd: "/nonexistent/agent-tools" }).exited;
    expect(missingCwd.exitCode).toBe(127);
    expect(missingCwd.error).toMatch(/^spawn \/bin\/bash ENOENT: the working directory "\/nonexistent\/agent-tools" does not exist/);
    const missingBinary = await runner().spawn({ command: "agent-tools-no-such-binary", cwd: "/tmp" }).exited;
    expect(missingBinary).toEqual({ exitCode: 127, signal: null, error: "spawn agent-tools-no-such-binary ENOENT" });
    const notExecutable = await runner().spawn({ command: "/etc/passwd", cwd: "/tmp" }).exited;
    expect(notExecutable).toEqual({ exitCode: 127, signal: null, error: "spawn /etc/passwd EACCES" });
  });

  it("reports the signal that ended the process by name", async () => {
    const child = runner().spawn({ command: "kill -TERM $$; sleep 5", shell: "/bin/sh", cwd: "/tmp" });
    expect(await child.exited).toEqual({ exitCode: null, signal: "SIGTERM" });
  });

  it("kill() ends sh -c 'sleep 300 & sleep 300 & wait' entirely, checked with a separate ps", async () => {
    const dir = accountDir();
    const child = runner().spawn({ command: "sh -c 'sleep 300 & sleep 300 & wait' & echo $! > inner.pid; wait", shell: true, cwd: dir });
    await waitForPidFiles(dir, 1);
    await until(async () => (await (child as SshRunningProcess).refresh()).length >= 4, "the four processes");
    const pids = child.livePids();
    expect(pids).toContain(child.pid);
    expect(pids).toContain(Number(readFileSync(path.join(dir, "inner.pid"), "utf8")));
    expect(await remoteAlive(pids)).toEqual([...pids].sort((a, b) => a - b));
    await child.kill();
    expect(await remoteAlive(pids)).toEqual([]);
    expect(child.isTreeAlive()).toBe(false);
    expect((await child.exited).exitCode).toBe(null);
  });

  it("an abort signal kills the tree, descendants included", async () => {
    const dir = accountDir();
    const controller = new AbortController();
    const child = runner().spawn({ command: "sh -c 'echo $$ > inner.pid; exec sleep 300' & wait", shell: true, cwd: dir, signal: controller.signal });
    const [inner] = await waitForPidFiles(dir, 1);
    controller.abort();
    expect((await child.exited).signal).toBe("SIGTERM");
    await until(async () => (await remoteAlive([inner!, child.pid])).length === 0, "the tree to end after abort");
  });

  it("an already aborted signal ends the process as soon as it started", async () => {
    const controller = new AbortController();
    controller.abort();
    const child = runner().spawn({ command: "exec sleep 300", shell: true, cwd: "/tmp", signal: controller.signal });
    expect((await child.exited).signal).toBe("SIGTERM");
    expect(await remoteAlive([child.pid])).toEqual([]);
  });

  it("a spawn on a closed connection exits 127 with the connection's error", async () => {
    const closed = connect(sshd.host, sshd.port);
    await closed.close();
    const exit = await runner(closed).spawn({ command: "true", cwd: "/tmp" }).exited;
    expect(exit.exitCode).toBe(127);
    expect(exit.signal).toBe(null);
    expect(exit.error).toMatch(/could not open an exec channel: .*closed/);
  });

  it("a server that never runs the wrapper (ForceCommand) gives exit 127 with what it said", async () => {
    const forced = await startTestSshd({ extraConfig: ["ForceCommand echo no commands here >&2; exit 1"] });
    try {
      const on = new SshConnection({
        host: forced.host,
        port: forced.port,
        username: forced.username,
        privateKey: forced.privateKey,
        hostKey: forced.hostKeyFingerprint,
      });
      connections.push(on);
      const exit = await runner(on).spawn({ command: "true", cwd: "/tmp" }).exited;
      expect(exit).toEqual({ exitCode: 127, signal: null, error: "the remote wrapper did not start: no commands here" });
    } finally {
      await forced.stop();
    }
  });

  it("an isolated process survives close(); a non-isolated one does not", async () => {
    const dir = accountDir();
    const first = runner();
    const kept = first.spawn({ command: "echo $$ > kept.pid; exec sleep 300", shell: true, cwd: dir, isolated: true, logFile: path.join(dir, "kept.log") });
    const ended = first.spawn({ command: "echo $$ > ended.pid; exec sleep 300", shell: true, cwd: dir });
    await waitForPidFiles(dir, 2);
    await Promise.all([kept, ended].map((child) => (child as SshRunningProcess).started));
    await first.close();
    expect((await ended.exited).signal).not.toBe(null);
    expect(await remoteAlive([ended.pid])).toEqual([]);
    expect(await remoteAlive([kept.pid])).toEqual([kept.pid]);
    await kept.kill();
    expect(await remoteAlive([kept.pid])).toEqual([]);
  });

  it("with every channel slot taken by processes, kill() still works and a queued process starts when a slot frees", async () => {
    // 4 slots: the control channel takes one at the first spawn, three processes the rest; the fourth waits.
    const narrow = connect(sshd.host, sshd.port, 4);
    const dir = accountDir();
    const on = runner(narrow);
    const children = [1, 2, 3, 4].map((n) => on.spawn({ command: `echo $$ > p${n}.pid; exec sleep 300`, shell: true, cwd: dir }));
    await waitForPidFiles(dir, 3);
    await until(() => children.slice(0, 3).every((child) => child.pid > 0), "three pids");
    expect(children[3]!.pid).toBe(0);
    expect(narrow.channels).toEqual({ open: 4, queued: 1 });
    await children[0]!.kill();
    expect((await children[0]!.exited).signal).toBe("SIGTERM");
    await waitForPidFiles(dir, 4);
    await until(() => children[3]!.pid > 0, "the queued process to start");
    await on.close();
    expect(await remoteAlive(children.map((child) => child.pid))).toEqual([]);
  });

  it("appends to a remote logFile and resolves outputClosed at once", async () => {
    const dir = accountDir();
    const logFile = path.join(dir, "run.log");
    const first = runner().spawn({ command: "printf 'a\n'; printf 'b\n' >&2", shell: true, cwd: dir, logFile });
    const output = collect(first);
    await first.exited;
    const second = runner().spawn({ command: "echo", args: ["c"], cwd: dir, logFile });
    await second.exited;
    expect(readFileSync(logFile, "utf8")).toBe("a\nb\nc\n");
    expect(output.chunks).toEqual([]);
    const refused = await runner().spawn({ command: "true", cwd: dir, logFile: "/proc/agent-tools/no.log" }).exited;
    expect(refused.exitCode).toBe(127);
    expect(refused.error).toMatch(/log file/);
  });

  it("concurrent refreshes of many trees (answered by shared remote looks) each get their own tree; close() ends them all", async () => {
    const dir = accountDir();
    const on = runner();
    const children = Array.from({ length: 12 }, (_, n) =>
      on.spawn({ command: `sh -c 'echo $$ > c${n}.pid; exec sleep 300' >/dev/null 2>&1 & exit 0`, shell: "/bin/sh", cwd: dir }),
    );
    await Promise.all(children.map((child) => child.exited));
    await waitForPidFiles(dir, 12);
    const trees = await Promise.all(children.map((child) => (child as SshRunningProcess).refresh()));
    trees.forEach((pids, n) => {
      expect(pids).toEqual([Number(readFileSync(path.join(dir, `c${n}.pid`), "utf8"))]);
    });
    expect(children.every((child) => child.isTreeAlive())).toBe(true);
    await on.close();
    expect(await remoteAlive(trees.flat())).toEqual([]);
    expect(children.some((child) => child.isTreeAlive())).toBe(false);
  });

  it("writes input, then ends stdin", async () => {
    const child = runner().spawn({ command: "wc -c", shell: true, cwd: "/tmp", input: "x".repeat(300_000) });
    const output = collect(child);
    expect((await child.exited).exitCode).toBe(0);
    await child.outputClosed;
    expect(output.text("stdout").trim()).toBe("300000");
  });

  it("a dropped connection ends exited with 'connection lost', and the remote tree is killed on reconnect", async () => {
    let proxy: TcpProxy | undefined = await startTcpProxy({ host: sshd.host, port: sshd.port });
    try {
      const through = connect(proxy.host, proxy.port);
      const dir = accountDir();
      const child = runner(through).spawn({ command: "sh -c 'echo $$ > inner.pid; exec sleep 300' & exec sleep 300", shell: true, cwd: dir });
      const [inner] = await waitForPidFiles(dir, 1);
      const root = await (child as SshRunningProcess).started;
      expect(await remoteAlive([root, inner!])).toHaveLength(2);
      proxy.dropAll();
      expect(await child.exited).toEqual({ exitCode: null, signal: null, error: "connection lost" });
      // The runner reconnects through the proxy (still listening) and ends the tree.
      await until(async () => (await remoteAlive([root, inner!])).length === 0, "the lost tree to be killed after the reconnect");
      expect(proxy.accepted).toBeGreaterThanOrEqual(2);
    } finally {
      await proxy.close();
      proxy = undefined;
    }
  });
});
