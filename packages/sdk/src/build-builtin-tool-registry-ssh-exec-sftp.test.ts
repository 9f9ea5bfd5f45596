import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type TestSshd, startTestSshd, testSshdGivesPty } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";

const workdir = mkdtempSync(path.join(tmpdir(), "sdk-ssh-exec-work-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "sdk-ssh-exec-data-"));
let sshd: TestSshd;
let registry: BuiltinToolRegistry;

beforeAll(async () => {
  sshd = await startTestSshd();
  registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir,
    memory: false,
    ssh: {
      hosts: [
        {
          id: "dev",
          ...sshd.connectOptions,
        },
      ],
    },
  });
});
afterAll(async () => {
  await registry?.close();
  await sshd?.stop();
  rmSync(workdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

let calls = 0;
async function ssh(args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `call-${++calls}`, name: "SSHManager", arguments: args });
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const json = JSON.stringify(result);
  // Whatever the action, the saved key never shows.
  for (const line of sshd.privateKey.split("\n").filter((entry) => entry.length >= 16 && !entry.startsWith("-----"))) expect(json).not.toContain(line);
  return { result, text, details: result.details as Record<string, unknown> };
}

/** Alive and not a zombie. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("SSHManager exec", () => {
  it("runs one command in the host's root and reports its output and exit code", async () => {
    const { result, text, details } = await ssh({ action: "exec", host_id: "dev", command: "pwd; echo out; echo err >&2; exit 7" });
    expect(result.isError).toBe(false);
    expect(text).toContain(`${sshd.root}\n`);
    expect(text).toContain("out\n");
    expect(text).toContain("err\n");
    expect(text).toMatch(/Exit code 7\.$/);
    expect(details).toMatchObject({ action: "exec", hostId: "dev", exitCode: 7, timedOut: false, truncated: false });
  });

  it("caps the output at max_bytes and says so", async () => {
    const { text, details } = await ssh({ action: "exec", host_id: "dev", command: "seq 1 100000", max_bytes: 1_000 });
    expect(details).toMatchObject({ bytes: 1_000, truncated: true, exitCode: 0 });
    expect(text).toMatch(/Output cut at 1000 B of/);
  });

  it("kills the whole remote tree when the timeout passes", async () => {
    const pidFile = path.join(sshd.root, "child.pid");
    const { result, text, details } = await ssh({
      action: "exec",
      host_id: "dev",
      command: `setsid sh -c 'echo $$ > ${pidFile}; sleep 300' & sleep 300 & echo started; wait`,
      timeout_ms: 2_000,
    });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("timeout");
    expect(text).toContain("started");
    expect(text).toMatch(/Timed out after 2000 ms; the command and its child processes were killed/);
    expect(details.timedOut).toBe(true);
    const escaped = Number(readFileSync(pidFile, "utf8").trim());
    expect(escaped).toBeGreaterThan(1);
    expect(isAlive(escaped)).toBe(false);
    // Nothing the command started is left on the server (its sessions' processes are tagged by the harness).
    const left: number[] = [];
    for (const pid of await sshd.sessionPids()) {
      const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
      if (cmdline.includes("sleep")) left.push(pid);
    }
    expect(left).toEqual([]);
  });

  it("refuses bad arguments with the fix", async () => {
    expect((await ssh({ action: "exec", host_id: "dev" })).text).toMatch(/exec needs command/);
    expect((await ssh({ action: "exec", host_id: "dev", command: "true", timeout_ms: 0 })).text).toMatch(/timeout_ms must be a whole number/);
    expect((await ssh({ action: "exec", host_id: "dev", command: "true", max_bytes: -1 })).text).toMatch(/max_bytes must be a whole number/);
  });
});

describe("SSHManager sftp", () => {
  it("writes, reads, stats, lists, renames and deletes files (relative paths start at the root)", async () => {
    const mkdir = await ssh({ action: "sftp_mkdir", host_id: "dev", path: "docs/notes" });
    expect(mkdir.result.isError).toBe(false);
    expect(statSync(path.join(sshd.root, "docs/notes")).isDirectory()).toBe(true);

    const write = await ssh({ action: "sftp_write_text", host_id: "dev", path: "docs/a.txt", content: "héllo\nwörld\n" });
    expect(write.result.isError).toBe(false);
    expect(write.details).toMatchObject({ path: path.join(sshd.root, "docs/a.txt"), bytes: Buffer.byteLength("héllo\nwörld\n") });
    expect(readFileSync(path.join(sshd.root, "docs/a.txt"), "utf8")).toBe("héllo\nwörld\n");

    const read = await ssh({ action: "sftp_read_text", host_id: "dev", path: `${sshd.root}/docs/a.txt` });
    expect(read.text).toBe("héllo\nwörld\n");
    expect(read.details).toMatchObject({ truncated: false, size: 14 });

    const capped = await ssh({ action: "sftp_read_text", host_id: "dev", path: "docs/a.txt", max_bytes: 2 });
    // "hé" would cut é in half: the page stops before it.
    expect(capped.text.startsWith("h\n[Shown the first 1 B of 14 B")).toBe(true);
    expect(capped.details).toMatchObject({ truncated: true, bytes: 1 });

    const stat = await ssh({ action: "sftp_stat", host_id: "dev", path: "docs/a.txt" });
    expect(stat.details.stat).toMatchObject({ type: "file", size: 14 });

    const list = await ssh({ action: "sftp_list", host_id: "dev", path: "docs" });
    expect(list.details.entries).toEqual([
      { name: "a.txt", type: "file" },
      { name: "notes", type: "directory" },
    ]);
    expect(list.text).toContain("a.txt\nnotes/");

    const rename = await ssh({ action: "sftp_rename", host_id: "dev", path: "docs/a.txt", to: "docs/notes/b.txt" });
    expect(rename.result.isError).toBe(false);
    expect(existsSync(path.join(sshd.root, "docs/notes/b.txt"))).toBe(true);

    const notEmpty = await ssh({ action: "sftp_delete", host_id: "dev", path: "docs/notes" });
    expect(notEmpty.result.isError).toBe(true);
    expect(await ssh({ action: "sftp_delete", host_id: "dev", path: "docs/notes/b.txt" })).toMatchObject({ result: { isError: false } });
    expect(await ssh({ action: "sftp_delete", host_id: "dev", path: "docs/notes" })).toMatchObject({ result: { isError: false } });
    expect(existsSync(path.join(sshd.root, "docs/notes"))).toBe(false);

    const missing = await ssh({ action: "sftp_read_text", host_id: "dev", path: "docs/none.txt" });
    expect(missing.result.error?.code).toBe("not_found");
  });

  it("replaces a file atomically, keeping its mode", async () => {
    await ssh({ action: "exec", host_id: "dev", command: "printf old > script.sh; chmod 750 script.sh" });
    await ssh({ action: "sftp_write_text", host_id: "dev", path: "script.sh", content: "#!/bin/sh\necho new\n" });
    expect(readFileSync(path.join(sshd.root, "script.sh"), "utf8")).toBe("#!/bin/sh\necho new\n");
    expect(statSync(path.join(sshd.root, "script.sh")).mode & 0o777).toBe(0o750);
    const run = await ssh({ action: "exec", host_id: "dev", command: "./script.sh" });
    expect(run.text).toContain("new\n");
  });

  it("refuses to read a binary file as text", async () => {
    await ssh({ action: "exec", host_id: "dev", command: "printf 'a\\000b' > blob.bin" });
    const { result, text } = await ssh({ action: "sftp_read_text", host_id: "dev", path: "blob.bin" });
    expect(result.error?.code).toBe("binary_file");
    expect(text).toMatch(/looks binary/);
  });
});

describe("SSHManager session cap", () => {
  it("opens at most 4 sessions per host, and exec and SFTP still get channels beside them", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    for (let index = 0; index < 4; index += 1) {
      const opened = await ssh({ action: "create_session", host_id: "dev", strategy: "new" });
      expect(opened.result.isError).toBe(false);
    }
    const fifth = await ssh({ action: "create_session", host_id: "dev", strategy: "new" });
    expect(fifth.result.error?.code).toBe("limit_reached");
    expect(fifth.text).toMatch(/4 sessions are open on dev \(at most 4\); close one with close_session/);
    expect((await ssh({ action: "exec", host_id: "dev", command: "echo beside" })).text).toContain("beside\n");
    expect((await ssh({ action: "sftp_stat", host_id: "dev", path: "." })).result.isError).toBe(false);
    const sessions = (await ssh({ action: "list_sessions" })).details.sessions as Array<{ sessionId: string }>;
    for (const session of sessions) await ssh({ action: "close_session", session_id: session.sessionId });
    expect((await ssh({ action: "list_sessions" })).text).toMatch(/No sessions/);
  });
});

describe("SSHManager and registry.close()", () => {
  it("closes its sessions and connections with the registry", async ({ skip }) => {
    skip(!(await testSshdGivesPty(sshd)), "this sshd cannot give sessions a terminal (unprivileged sshd, devpts without the tty group); CI runs as root");
    const own = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      memory: false,
      ssh: { hosts: [{ id: "dev", host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint }] },
    });
    const created = await own.executeToolCall({ id: "c1", name: "SSHManager", arguments: { action: "create_session", host_id: "dev" } });
    expect(created.isError).toBe(false);
    await own.executeToolCall({
      id: "c2",
      name: "SSHManager",
      arguments: { action: "send_input", session_id: (created.details as { sessionId: string }).sessionId, input: "sleep 400\n" },
    });
    let sleeping: number[] = [];
    for (let attempt = 0; attempt < 50 && sleeping.length === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      sleeping = (await sshd.sessionPids()).filter(
        (pid) => existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep\u0000400"),
      );
    }
    expect(sleeping.length).toBe(1);
    await own.close();
    let alive = true;
    for (let attempt = 0; attempt < 100 && alive; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      alive = sleeping.some(isAlive);
    }
    expect(alive).toBe(false);
  });
});
