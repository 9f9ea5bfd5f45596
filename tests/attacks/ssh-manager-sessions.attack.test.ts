/**
 * Attacks on SSHManager (the sdk's `ssh: { hosts }` option), sessions and
 * exec: they stay within their caps (sessions per host, channel slots, a
 * flooding session's buffer), time out, and end with the registry; what a
 * command or a session started ends with it (the remote supervisor, a child
 * subreaper, holds escapees that double-forked, left the session and cleared
 * their environment). Runs
 * against a real sshd of its own (`startTestSshd`), started through
 * `__fixtures__/ssh-manager.ts`.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type TestSshd, testSshdGivesPty } from "@agent-tools/ssh/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { pidsRunning, useSshManagerHarness, waitFor } from "./__fixtures__/ssh-manager.js";

const harness = useSshManagerHarness();
const { keyHost, registryWith, ssh } = harness;
let sshd: TestSshd;
beforeAll(() => {
  sshd = harness.sshd;
});

describe("SSHManager: sessions and exec stay within their caps and end with the registry", () => {
  it("opens at most 4 sessions per host even when create_session calls race", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    const results = await Promise.all(Array.from({ length: 8 }, () => ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" })));
    const opened = results.filter(({ result }) => !result.isError);
    const listed = await ssh(registry, { action: "list_sessions", host_id: "dev" });
    const open = ((listed.details.sessions ?? []) as Array<{ status: string }>).filter((session) => session.status === "open");
    expect(open.length).toBeLessThanOrEqual(4);
    expect(opened.length).toBeLessThanOrEqual(4);
    for (const { result } of results.filter(({ result }) => result.isError)) expect(result.error?.code).toBe("limit_reached");
    // exec still gets a channel beside the sessions.
    const exec = await ssh(registry, { action: "exec", host_id: "dev", command: "echo still-runs", timeout_ms: 20_000 });
    expect(exec.text).toContain("still-runs");
    await registry.close();
  }, 60_000);

  it("times out every exec of a host whose channels are full (4 sessions, 3 commands racing for 2 slots)", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    for (let index = 0; index < 4; index += 1) {
      expect((await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" })).result.isError).toBe(false);
    }
    const seconds = 40 + Math.floor(Math.random() * 10);
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => ssh(registry, { action: "exec", host_id: "dev", command: `sleep ${seconds}; echo fin""ished`, timeout_ms: 3_000 })),
    );
    for (const { result, text } of runs) {
      expect(text).not.toContain("finished");
      expect(result.error?.code).toBe("timeout");
    }
    // Nothing of them is left running (also the one whose timer fired while it waited for a channel).
    expect(await waitFor(() => pidsRunning(`sleep ${seconds}`).length === 0, 50)).toBe(true);
    await registry.close();
  }, 120_000);

  it("keeps a flooding session's buffer bounded and says what it dropped", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    const session = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    const id = String(session.details.sessionId);
    await ssh(registry, { action: "send_input", session_id: id, input: "yes attack-flood-line | head -c 3000000\n" });
    let dropped = 0;
    // Let the flood fill the buffer past its 1 MB before reading.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (let round = 0; round < 60; round += 1) {
      const read = await ssh(registry, { action: "read_session", session_id: id, max_bytes: 262_144, timeout_ms: 2_000 });
      expect(read.result.isError).toBe(false);
      expect(Number(read.details.bytes)).toBeLessThanOrEqual(262_144);
      const info = (read.details.sessions as Array<{ unreadBytes: number }>)[0]!;
      expect(info.unreadBytes).toBeLessThanOrEqual(1024 * 1024);
      dropped += Number(read.details.droppedBytes ?? 0);
      if (Number(read.details.bytes) === 0) break;
    }
    // The session still answers after the flood.
    await ssh(registry, { action: "send_input", session_id: id, input: "echo flood-$((6*7))\n" });
    let seen = "";
    for (let round = 0; round < 20 && !seen.includes("flood-42"); round += 1) {
      seen += (await ssh(registry, { action: "read_session", session_id: id, timeout_ms: 2_000 })).text;
    }
    expect(seen).toContain("flood-42");
    expect(dropped).toBeGreaterThan(0);
    await registry.close();
  }, 60_000);

  // Was open until exec ran under the remote supervisor: the exec timeout found processes that left the group
  // through their inherited tree tag (AGENT_TOOLS_PROCESS_TREE) or their parent; one that also drops its
  // environment (`env -i`) after a double fork carries neither, but stays below the supervisor (a child subreaper).
  it("kills on timeout a double-forked setsid child that cleared its environment", async () => {
    const registry = await registryWith([keyHost()]);
    const tag = `sleep ${300_000 + Math.floor(Math.random() * 100_000)}`;
    const { result } = await ssh(registry, {
      action: "exec",
      host_id: "dev",
      command: `(setsid env -i /bin/sh -c '${tag}' </dev/null >/dev/null 2>&1 &); sleep 300`,
      timeout_ms: 2_000,
    });
    expect(result.error?.code).toBe("timeout");
    const left = pidsRunning(tag);
    try {
      expect(left).toEqual([]);
    } finally {
      for (const pid of left) process.kill(pid, "SIGKILL");
    }
  }, 30_000);

  // Was open until sessions ran under the remote supervisor: close() ended a session's shell (SIGHUP through the
  // PTY), but a job started in it with nohup or setsid ignored that and kept running on the server.
  it("registry.close() also ends what a session put in the background (nohup, setsid)", async () => {
    const registry = await registryWith([keyHost()]);
    const seconds = 500_000 + Math.floor(Math.random() * 100_000);
    const session = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    await ssh(registry, {
      action: "send_input",
      session_id: String(session.details.sessionId),
      input: `nohup sleep ${seconds}1 >/dev/null 2>&1 & setsid sleep ${seconds}2 >/dev/null 2>&1 < /dev/null & echo bg-$((6*7))\n`,
    });
    expect(await waitFor(() => pidsRunning(`sleep ${seconds}`).length >= 2)).toBe(true);
    await registry.close();
    const left = await waitFor(() => pidsRunning(`sleep ${seconds}`).length === 0, 50);
    const survivors = pidsRunning(`sleep ${seconds}`);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    expect(left, `left running: ${survivors.join(", ")}`).toBe(true);
  }, 60_000);

  it("close_session ends the session's background jobs, also a double-forked setsid job that cleared its environment", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    const seconds = 600_000 + Math.floor(Math.random() * 100_000);
    const session = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    const id = String(session.details.sessionId);
    await ssh(registry, {
      action: "send_input",
      session_id: id,
      input: `(env -i /usr/bin/setsid /bin/sleep ${seconds}1 </dev/null >/dev/null 2>&1 &); nohup sleep ${seconds}2 >/dev/null 2>&1 & echo bg-$((6*7))\n`,
    });
    expect(await waitFor(() => pidsRunning(`sleep ${seconds}`).length >= 2)).toBe(true);
    expect((await ssh(registry, { action: "close_session", session_id: id })).result.isError).toBe(false);
    const left = await waitFor(() => pidsRunning(`sleep ${seconds}`).length === 0, 50);
    const survivors = pidsRunning(`sleep ${seconds}`);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    expect(left, `left running: ${survivors.join(", ")}`).toBe(true);
    // The host still serves the next session.
    const next = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    expect(next.result.isError).toBe(false);
    await registry.close();
  }, 60_000);

  it("a session whose shell exits by itself ends its background jobs with it", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    const seconds = 800_000 + Math.floor(Math.random() * 100_000);
    const session = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    const id = String(session.details.sessionId);
    await ssh(registry, {
      action: "send_input",
      session_id: id,
      input: `(env -i /usr/bin/setsid /bin/sleep ${seconds}1 </dev/null >/dev/null 2>&1 &); nohup sleep ${seconds}2 >/dev/null 2>&1 & sleep 0.5; exit\n`,
    });
    expect(await waitFor(() => pidsRunning(`sleep ${seconds}`).length >= 1)).toBe(true);
    const left = await waitFor(() => pidsRunning(`sleep ${seconds}`).length === 0, 50);
    const survivors = pidsRunning(`sleep ${seconds}`);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    expect(left, `left running: ${survivors.join(", ")}`).toBe(true);
    const listed = await ssh(registry, { action: "list_sessions", host_id: "dev" });
    expect((listed.details.sessions as Array<{ sessionId: string; status: string }>).find((entry) => entry.sessionId === id)?.status).toBe("closed");
    await registry.close();
  }, 60_000);

  it("a session whose shell kills its supervisor (kill -9 $PPID) ends with its background jobs", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    const seconds = 700_000 + Math.floor(Math.random() * 100_000);
    const session = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    const id = String(session.details.sessionId);
    await ssh(registry, {
      action: "send_input",
      session_id: id,
      input: `(env -i /usr/bin/setsid /bin/sleep ${seconds}1 </dev/null >/dev/null 2>&1 &); sleep 0.5; kill -9 $PPID\n`,
    });
    expect(await waitFor(() => pidsRunning(`sleep ${seconds}`).length >= 1)).toBe(true);
    const left = await waitFor(() => pidsRunning(`sleep ${seconds}`).length === 0, 50);
    const survivors = pidsRunning(`sleep ${seconds}`);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    expect(left, `left running: ${survivors.join(", ")}`).toBe(true);
    await registry.close();
  }, 60_000);

  it("registry.close() racing create_session leaves no shell open on the server", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    for (let round = 0; round < Number(process.env.ATTACK_ROUNDS ?? 3); round += 1) {
      const sub = path.join(sshd.root, `race-${round}-${randomBytes(3).toString("hex")}`);
      execFileSync("mkdir", [sub]);
      execFileSync("chown", [String(sshd.uid), sub]);
      const registry = await registryWith([keyHost({ root: sub })]);
      expect((await ssh(registry, { action: "exec", host_id: "dev", command: "true" })).result.isError).toBe(false);
      const creating = ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, round * 5));
      await registry.close();
      await creating;
      const inSub = () =>
        execFileSync("ls", ["/proc"], { encoding: "utf8" })
          .split("\n")
          .filter((entry) => /^\d+$/.test(entry))
          .filter((entry) => {
            try {
              return execFileSync("readlink", [`/proc/${entry}/cwd`], { encoding: "utf8" }).trim() === sub;
            } catch {
              return false;
            }
          });
      expect(await waitFor(() => inSub().length === 0, 50), `shells left in ${sub}: ${inSub().join(", ")}`).toBe(true);
    }
  }, 120_000);

  it("registry.close() ends a running exec, its group-leaving child and the sessions' shells", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const registry = await registryWith([keyHost()]);
    const seconds = 300_000 + Math.floor(Math.random() * 100_000);
    const tag = `sleep ${seconds}`;
    const exec = ssh(registry, {
      action: "exec",
      host_id: "dev",
      command: `setsid sh -c '${tag}1' & ${tag}2`,
      timeout_ms: 600_000,
    });
    const session = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    await ssh(registry, { action: "send_input", session_id: String(session.details.sessionId), input: `${tag}3\n` });
    expect(await waitFor(() => pidsRunning(tag).length >= 3)).toBe(true);
    await registry.close();
    const done = await exec;
    expect(done.text).not.toMatch(/Exit code 0/);
    expect(await waitFor(() => pidsRunning(tag).length === 0, 50)).toBe(true);
    await expect(ssh(registry, { action: "exec", host_id: "dev", command: "true" })).rejects.toThrow(/after registry.close/);
  }, 60_000);
});
