/**
 * Attacks on SSHManager (the sdk's `ssh: { hosts }` option), configuration
 * and credentials: the model names hosts by id only, never sees a credential
 * (results, details, errors, events, log lines), never supplies one, and an
 * unknown, changed or revoked host key is never accepted. Runs against a real
 * sshd of its own (`startTestSshd`, with a password: root only, as CI runs),
 * started through `__fixtures__/ssh-manager.ts`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BuiltinToolRegistry } from "@agent-tools/sdk";
import type { TestSshd } from "@agent-tools/ssh/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { type Host, asRoot, expectAbsent, keyLines, useSshManagerHarness } from "./__fixtures__/ssh-manager.js";

const harness = useSshManagerHarness();
const { scratch, workdir, dataDir, observed, keyHost, passwordHost, registryWith, ssh, knownHostsFile, hostKeyParts } = harness;
let sshd: TestSshd;
beforeAll(() => {
  sshd = harness.sshd;
});

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
