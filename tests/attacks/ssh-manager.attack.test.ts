/**
 * Attacks on SSHManager (the sdk's `ssh: { hosts }` option): the model names
 * hosts by id only, never sees a credential (results, details, errors,
 * events, log lines), never supplies one, and an unknown, changed or revoked
 * host key is never accepted; sessions and exec stay within their caps and
 * end with the registry. Runs against a real sshd of its own
 * (`startTestSshd`, with a password: root only, as CI runs).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { type TestSshd, startTestSshd, testSshdGivesPty } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Host = Record<string, unknown>;

const asRoot = process.getuid?.() === 0;
const scratch = mkdtempSync(path.join(tmpdir(), "ssh-manager-attack-"));
const workdir = path.join(scratch, "work");
const dataDir = path.join(scratch, "data");
let sshd: TestSshd;
const registries: BuiltinToolRegistry[] = [];
/** Everything every registry reported through onEvent and the logger, for leak checks. */
const observed: unknown[] = [];

beforeAll(async () => {
  execFileSync("mkdir", ["-p", workdir, dataDir]);
  sshd = await startTestSshd({ passwordAuthentication: asRoot });
}, 60_000);

afterAll(async () => {
  for (const registry of registries) await registry.close().catch(() => undefined);
  await sshd?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function keyHost(overrides: Host = {}): Host {
  return {
    id: "dev",
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKey: sshd.hostKeyFingerprint,
    root: sshd.root,
    ...overrides,
  };
}

function passwordHost(overrides: Host = {}): Host {
  const { privateKey: _key, ...rest } = keyHost({ id: "pw", password: sshd.password, ...overrides });
  return rest;
}

async function registryWith(hosts: Host[]): Promise<BuiltinToolRegistry> {
  const record = (level: string) => (message: string, data?: unknown) => observed.push({ level, message, data });
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir,
    memory: false,
    // The hosts are deliberately hostile shapes.
    ssh: { hosts: hosts as never },
    onEvent: (event) => observed.push(event),
    logger: { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") },
  });
  registries.push(registry);
  return registry;
}

let calls = 0;
async function ssh(registry: BuiltinToolRegistry, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `attack-${++calls}`, name: "SSHManager", arguments: args });
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { result, text, details: (result.details ?? {}) as Record<string, unknown> };
}

/** JSON of anything, with Errors' message and stack kept. */
function dump(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (item instanceof Error ? { ...item, message: item.message, stack: item.stack } : item));
}

function keyLines(key: string): string[] {
  return key.split("\n").filter((line) => line.trim().length >= 16 && !line.startsWith("-----"));
}

function expectAbsent(value: unknown, secrets: readonly string[]): void {
  const json = dump(value);
  for (const secret of secrets) expect(json.includes(secret), `leaked ${secret.slice(0, 12)}...: ${json.slice(0, 400)}`).toBe(false);
}

function knownHostsFile(lines: string[]): string {
  const file = path.join(scratch, `known_hosts-${randomBytes(4).toString("hex")}`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** The key blob of the test server's host key (base64), from its known_hosts line. */
function hostKeyParts(): { type: string; blob: string } {
  const [, type, blob] = sshd.knownHostsLine.split(/\s+/);
  return { type: type!, blob: blob! };
}

function pidsRunning(pattern: string): number[] {
  const found: number[] = [];
  for (const entry of execFileSync("ls", ["/proc"], { encoding: "utf8" }).split("\n")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ");
      if (cmdline.includes(pattern)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitFor(check: () => boolean, rounds = 100): Promise<boolean> {
  for (let round = 0; round < rounds; round += 1) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe("SSHManager: host configuration fails closed", () => {
  it("refuses malformed pins, drifted key names and credential mixes, naming the field and never quoting a secret", async () => {
    const secret = "hunter2-very-secret-password";
    const fp = sshd.hostKeyFingerprint;
    const cases: Array<[Host, string]> = [
      [keyHost({ hostKey: fp.replace("SHA256:", "sha256:") }), "ssh.hosts[0].hostKey"],
      [keyHost({ hostKey: fp.slice(0, -1) }), "ssh.hosts[0].hostKey"],
      [keyHost({ hostKey: `${fp}=` }), "ssh.hosts[0].hostKey"],
      [keyHost({ hostKey: `MD5:${"ab:".repeat(15)}ab` }), "ssh.hosts[0].hostKey"],
      [keyHost({ hostKey: { knownHostsFile: "/etc/ssh/ssh_known_hosts", trustOnFirstUse: true } }), "ssh.hosts[0].hostKey.trustOnFirstUse"],
      [keyHost({ hostKey: { knownHostsFile: "known_hosts" } }), "ssh.hosts[0].hostKey.knownHostsFile"],
      [keyHost({ hostKey: undefined }), "ssh.hosts[0].hostKey"],
      [keyHost({ Password: secret }), "ssh.hosts[0].Password"],
      [keyHost({ password: secret }), "ssh.hosts[0].password"],
      [keyHost({ privateKey: undefined, agent: "/tmp/agent.sock", password: secret }), "ssh.hosts[0].password"],
      [passwordHost({ password: secret, passphrase: secret }), "ssh.hosts[0].passphrase"],
      [keyHost({ privateKey: undefined, privateKeyPath: "id_ed25519" }), "ssh.hosts[0].privateKeyPath"],
      [keyHost({ agent: "relative.sock", privateKey: undefined }), "ssh.hosts[0].agent"],
      [keyHost({ root: "srv/app" }), "ssh.hosts[0].root"],
      [keyHost({ port: "22" }), "ssh.hosts[0].port"],
      [keyHost({ id: "dev host" }), "ssh.hosts[0].id"],
      [keyHost({ tryKeyboard: true }), "ssh.hosts[0].tryKeyboard"],
      [keyHost({ agentForward: true }), "ssh.hosts[0].agentForward"],
    ];
    for (const [host, option] of cases) {
      const error = await registryWith([host]).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, option).toBeInstanceOf(Error);
      expect((error as { name: string }).name, option).toBe("SdkError");
      expect((error as { code: string }).code, option).toBe("invalid_options");
      expect((error as { details: { option: string } }).details.option, option).toBe(option);
      expectAbsent(error, [secret, sshd.privateKey.trim(), ...keyLines(sshd.privateKey)]);
    }
    const twice = await registryWith([keyHost(), keyHost()]).catch((caught: unknown) => caught);
    expect((twice as { details: { option: string } }).details.option).toBe("ssh.hosts[1].id");
  });
});

describe("SSHManager: the model names hosts, never credentials", () => {
  let registry: BuiltinToolRegistry;
  beforeAll(async () => {
    registry = await registryWith([keyHost()]);
  });

  it("refuses credential and address fields in the arguments, and runs nothing", async () => {
    const marker = path.join(sshd.root, "ran-with-credentials");
    for (const extra of [
      { password: "x" },
      { privateKey: sshd.privateKey },
      { passphrase: "x" },
      { host: "127.0.0.1" },
      { username: "root" },
      { hostKey: "SHA256:x" },
    ]) {
      const { result } = await ssh(registry, { action: "exec", host_id: "dev", command: `touch ${marker}`, ...extra });
      expect(result.isError, JSON.stringify(extra)).toBe(true);
      expect(existsSync(marker), JSON.stringify(extra)).toBe(false);
    }
  });

  it("finds no host by a drifted case, a prototype name or another registry's id", async () => {
    const other = await registryWith([keyHost({ id: "other" })]);
    for (const hostId of ["DEV", "Dev", "dev\u200b", "__proto__", "constructor", "toString", "other", "*", ""]) {
      const { result } = await ssh(registry, { action: "exec", host_id: hostId, command: "true" });
      expect(result.isError, hostId).toBe(true);
      expect(["not_found", "invalid_arguments"], hostId).toContain(result.error?.code);
    }
    expect((await ssh(other, { action: "exec", host_id: "dev", command: "true" })).result.error?.code).toBe("not_found");
  });

  it("cannot reach a session of another registry by guessing its id", async () => {
    const other = await registryWith([keyHost({ id: "dev" })]);
    const opened = await ssh(other, { action: "create_session", host_id: "dev" });
    const id = String(opened.details.sessionId);
    expect(id).toMatch(/\S/);
    for (const guess of [id, id.toUpperCase(), ` ${id} `, "ssh-0", "ssh-1", "ssh-2"]) {
      const read = await ssh(registry, { action: "read_session", session_id: guess, timeout_ms: 0 });
      expect(read.result.isError, guess).toBe(true);
      expect(read.result.error?.code).toBe("not_found");
      const sent = await ssh(registry, { action: "send_input", session_id: guess, input: "touch /tmp/never\n" });
      expect(sent.result.error?.code).toBe("not_found");
    }
    await ssh(other, { action: "close_session", session_id: id });
  });
});

describe("SSHManager: host keys are never trusted on first use", () => {
  it("refuses a known_hosts key under a marker OpenSSH does not know (@REVOKED, @Revoked, @cert-authority, @foo)", async () => {
    // OpenSSH ignores a line whose marker it does not know (and matches markers case-sensitively);
    // a user who wrote @REVOKED meant to refuse the key. Before the fix such a line was an accepted key.
    const { type, blob } = hostKeyParts();
    const name = `[${sshd.host}]:${sshd.port}`;
    for (const marker of ["@REVOKED", "@Revoked", "@revoked:", "@foo", "@cert-authority", "@CERT-AUTHORITY"]) {
      const registry = await registryWith([keyHost({ hostKey: { knownHostsFile: knownHostsFile([`${marker} ${name} ${type} ${blob}`]) } })]);
      const { result, text } = await ssh(registry, { action: "exec", host_id: "dev", command: "echo logged-in" });
      expect(result.isError, marker).toBe(true);
      expect(result.error?.code, marker).toBe("permission_denied");
      expect(text, marker).not.toContain("logged-in");
    }
  });

  it("refuses a @revoked key even when a plain or hashed line accepts it, and a negated or wildcard-only miss", async () => {
    const { type, blob } = hostKeyParts();
    const name = `[${sshd.host}]:${sshd.port}`;
    const salt = randomBytes(20);
    const hashed = `|1|${salt.toString("base64")}|${createHmac("sha1", salt).update(name).digest("base64")}`;
    const refused: string[][] = [
      [`${name} ${type} ${blob}`, `@revoked ${name} ${type} ${blob}`],
      [`${hashed} ${type} ${blob}`, `@revoked * ${type} ${blob}`],
      [`*,!${name} ${type} ${blob}`],
      [`[${sshd.host}]:* ${type} AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl`],
      [`${sshd.host} ${type} ${blob}`],
      [`[${sshd.host}]:${sshd.port + 1} ${type} ${blob}`],
      [`${name} ${type}`],
    ];
    for (const lines of refused) {
      const registry = await registryWith([keyHost({ hostKey: { knownHostsFile: knownHostsFile(lines) } })]);
      const { result } = await ssh(registry, { action: "exec", host_id: "dev", command: "echo logged-in" });
      expect(result.error?.code, lines.join(" | ")).toBe("permission_denied");
    }
    // Control: a hashed entry alone is accepted (the refusals above are not a broken file reader).
    const accepted = await registryWith([keyHost({ hostKey: { knownHostsFile: knownHostsFile([`${hashed} ${type} ${blob}`]) } })]);
    expect((await ssh(accepted, { action: "exec", host_id: "dev", command: "echo logged-in" })).text).toContain("logged-in");
  });

  it("answers at once when the pinned known_hosts file or the key file is a FIFO, /dev/zero or a folder (a model's local Bash can plant them)", async () => {
    const fifo = path.join(scratch, "known_hosts_fifo");
    execFileSync("mkfifo", [fifo]);
    const zero = path.join(scratch, "known_hosts_zero");
    execFileSync("ln", ["-s", "/dev/zero", zero]);
    for (const file of [fifo, zero, scratch]) {
      const registry = await registryWith([keyHost({ hostKey: { knownHostsFile: file } })]);
      const { result } = await ssh(registry, { action: "exec", host_id: "dev", command: "echo logged-in" });
      expect(result.isError, file).toBe(true);
      expect(result.error?.code, file).toBe("permission_denied");
      const keyed = await registryWith([keyHost({ privateKey: undefined, privateKeyPath: file })]);
      const login = await ssh(keyed, { action: "exec", host_id: "dev", command: "echo logged-in" });
      expect(login.result.isError, file).toBe(true);
      expect(login.result.error?.code, file).toBe("unavailable");
      expect(login.text, file).toMatch(/privateKeyPath/);
    }
  }, 60_000);

  it("refuses a pin of another key, and keeps refusing on the next call (no TOFU after a first refusal)", async () => {
    const otherFingerprint = `SHA256:${createHash("sha256").update("not the server").digest("base64").replace(/=+$/, "")}`;
    const registry = await registryWith([keyHost({ hostKey: otherFingerprint })]);
    for (let round = 0; round < 3; round += 1) {
      const { result, text } = await ssh(registry, { action: "sftp_list", host_id: "dev", path: "." });
      expect(result.error?.code).toBe("permission_denied");
      expect(text).toContain(sshd.hostKeyFingerprint);
    }
  });
});

describe("SSHManager: credentials never reach the model, events or logs", () => {
  it("does not show an agent socket path, a key file path or a wrong passphrase in any error", async () => {
    const agentPath = path.join(scratch, `agent-socket-${randomBytes(6).toString("hex")}`);
    const keyPath = path.join(scratch, `id-${randomBytes(6).toString("hex")}`);
    const encryptedPath = path.join(scratch, "encrypted_key");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "right-passphrase-1", "-f", encryptedPath]);
    const encrypted = readFileSync(encryptedPath, "utf8");
    const wrongPassphrase = "wrong-passphrase-4242";
    const registry = await registryWith([
      keyHost({ id: "agent", privateKey: undefined, agent: agentPath }),
      keyHost({ id: "keyfile", privateKey: undefined, privateKeyPath: keyPath }),
      keyHost({ id: "encrypted", privateKey: encrypted, passphrase: wrongPassphrase }),
      keyHost({ id: "nopass", privateKey: encrypted }),
    ]);
    const before = observed.length;
    const results = [];
    for (const hostId of ["agent", "keyfile", "encrypted", "nopass"]) {
      const { result } = await ssh(registry, { action: "exec", host_id: hostId, command: "true" });
      expect(result.isError, hostId).toBe(true);
      expect(["permission_denied", "unavailable"], hostId).toContain(result.error?.code);
      results.push(result);
    }
    const secrets = [agentPath, path.basename(agentPath), keyPath, path.basename(keyPath), wrongPassphrase, "right-passphrase-1", ...keyLines(encrypted)];
    expectAbsent(results, secrets);
    expectAbsent(observed.slice(before), secrets);
  });

  it("survives a missing agent socket: ssh2's second error for the failed login does not crash the host", () => {
    // ssh2 emits "Failed to connect to agent" and then "All configured authentication methods failed";
    // the second one had no listener and ended the host process with an uncaught exception.
    const host = {
      id: "agent",
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      agent: path.join(scratch, "no-agent-here.sock"),
      hostKey: sshd.hostKeyFingerprint,
    };
    const script = [
      'import { buildBuiltinToolRegistry } from "@agent-tools/sdk";',
      `const registry = await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(workdir)}, dataDir: ${JSON.stringify(dataDir)}, memory: false, ssh: { hosts: [${JSON.stringify(host)}] } });`,
      'const result = await registry.executeToolCall({ id: "1", name: "SSHManager", arguments: { action: "exec", host_id: "agent", command: "true" } });',
      "await new Promise((resolve) => setTimeout(resolve, 1000));",
      "console.log(JSON.stringify({ isError: result.isError, code: result.error?.code }));",
      "await registry.close();",
    ].join("\n");
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: path.dirname(import.meta.dirname),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).not.toMatch(/All configured authentication methods failed/);
    expect(child.status).toBe(0);
    const answer = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}");
    expect(answer.isError).toBe(true);
    expect(["permission_denied", "unavailable"]).toContain(answer.code);
  });

  it.runIf(asRoot)("redacts the saved password wherever a remote command prints it, in results, events and logs", async () => {
    const password = sshd.password!;
    const registry = await registryWith([passwordHost()]);
    const before = observed.length;
    const file = path.join(sshd.root, "deploy.env");
    writeFileSync(file, `DB_PASSWORD=${password}\n`);
    execFileSync("chown", [String(sshd.uid), file]);
    const shown = [];
    shown.push(await ssh(registry, { action: "exec", host_id: "pw", command: `cat ${file}; cat ${file} >&2; echo "$(cat ${file})" | tr -d '\\n'` }));
    shown.push(await ssh(registry, { action: "sftp_read_text", host_id: "pw", path: file }));
    shown.push(await ssh(registry, { action: "exec", host_id: "pw", command: `cat ${file}; exit 3` }));
    shown.push(await ssh(registry, { action: "exec", host_id: "pw", command: `sleep 5; cat ${file}`, timeout_ms: 1 }));
    const session = await ssh(registry, { action: "create_session", host_id: "pw" });
    const sessionId = String(session.details.sessionId);
    await ssh(registry, { action: "send_input", session_id: sessionId, input: `cat ${file}; echo done-$((6*7))\n` });
    let seen = "";
    for (let round = 0; round < 30 && !seen.includes("done-42"); round += 1) {
      const read = await ssh(registry, { action: "read_session", session_id: sessionId, timeout_ms: 2_000 });
      shown.push(read);
      seen += read.text;
    }
    expect(seen).toContain("done-42");
    expect(seen).toContain("DB_PASSWORD=<redacted>");
    expect(shown[0]!.text).toContain("DB_PASSWORD=<redacted>");
    expectAbsent(shown, [password]);
    expectAbsent(observed.slice(before), [password]);
  });

  // Open (inherent): the redactor matches the secret's exact text, so output that holds the secret in
  // any other form gets through: here its tail (`cut -c2-`) and pieces cut by read_session's max_bytes.
  // Only matters when the remote machine itself holds the secret (a file the user put there); the model
  // cannot learn a saved credential any other way (see the tests above).
  it.runIf(asRoot).fails("redaction is defeated when the remote prints a secret it holds in pieces (a known limit of redaction)", async () => {
    const password = sshd.password!;
    const registry = await registryWith([passwordHost()]);
    const file = path.join(sshd.root, "deploy-2.env");
    writeFileSync(file, password);
    execFileSync("chown", [String(sshd.uid), file]);
    const tail = await ssh(registry, { action: "exec", host_id: "pw", command: `cut -c2- ${file}` });
    expect(tail.text).not.toContain(password.slice(1));
  });
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

  // Open: the exec timeout finds processes that left the group through their inherited tree tag
  // (AGENT_TOOLS_PROCESS_TREE) or their parent; one that also drops its environment (`env -i`) after a
  // double fork carries neither, and outlives the timeout.
  it.fails("kills on timeout a double-forked setsid child that cleared its environment", async () => {
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

  // Open: close() ends a session's shell (SIGHUP through the PTY), but a job the model started in it with
  // nohup or setsid ignores that and keeps running on the server after the registry closed. exec's
  // processes carry the runner's tree tag and are killed; the session shells carry none.
  it.fails("registry.close() also ends what a session put in the background (nohup, setsid)", async () => {
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
