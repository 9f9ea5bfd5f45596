import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";
import type { SdkSshHostConfig } from "./ssh-options.js";

const workdir = mkdtempSync(path.join(tmpdir(), "sdk-ssh-work-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "sdk-ssh-data-"));
let sshd: TestSshd;
const registries: BuiltinToolRegistry[] = [];

beforeAll(async () => {
  sshd = await startTestSshd({ passwordAuthentication: true });
});
afterAll(async () => {
  for (const registry of registries) await registry.close().catch(() => undefined);
  await sshd?.stop();
  rmSync(workdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

function devHost(overrides: Partial<SdkSshHostConfig> = {}): SdkSshHostConfig {
  return {
    id: "dev",
    ...sshd.connectOptions,
    description: "the test server",
    ...overrides,
  };
}

async function registryWith(hosts: SdkSshHostConfig[], runtimeScope: "chat" | "cron" = "chat"): Promise<BuiltinToolRegistry> {
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, runtimeScope, ssh: { hosts } });
  registries.push(registry);
  return registry;
}

let calls = 0;
async function ssh(registry: BuiltinToolRegistry, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `call-${++calls}`, name: "SSHManager", arguments: args });
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { result, text, details: result.details as Record<string, unknown> };
}

/** Reads a session until `pattern` shows up in what was read (generous: never a timing assertion). */
async function readUntil(registry: BuiltinToolRegistry, sessionId: string, pattern: RegExp): Promise<string> {
  let seen = "";
  for (let attempt = 0; attempt < 40 && !pattern.test(seen); attempt += 1) {
    const { result, text } = await ssh(registry, { action: "read_session", session_id: sessionId, timeout_ms: 2_000 });
    expect(result.isError).toBe(false);
    seen += text;
  }
  return seen;
}

/** Every secret of the test server, for leak checks. */
function secrets(): string[] {
  const keyLines = sshd.privateKey.split("\n").filter((line) => line.length >= 16 && !line.startsWith("-----"));
  return [sshd.privateKey.trim(), ...keyLines, ...(sshd.password === undefined ? [] : [sshd.password])];
}

function expectNoSecret(value: unknown): void {
  const json = JSON.stringify(value);
  for (const secret of secrets()) expect(json.includes(secret), `a result leaked a secret: ${json.slice(0, 300)}`).toBe(false);
}

describe("buildBuiltinToolRegistry({ ssh }): SSHManager", () => {
  it("is listed in the chat scope only, and not read-only", async () => {
    const chat = await registryWith([devHost()]);
    expect(chat.hasTool("SSHManager")).toBe(true);
    expect(chat.metadataByName.SSHManager?.isReadOnly).toBe(false);
    const cron = await registryWith([devHost()], "cron");
    expect(cron.hasTool("SSHManager")).toBe(false);
    const none = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    expect(none.hasTool("SSHManager")).toBe(false);
    await none.close();
  });

  it("refuses bad host configurations when the registry is built, naming the key", async () => {
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [{ ...devHost(), hostkey: "x" }, /Unknown option ssh\.hosts\[0\]\.hostkey: did you mean ssh\.hosts\[0\]\.hostKey\?/, "ssh.hosts[0].hostkey"],
      [{ ...devHost(), hostKey: undefined }, /ssh\.hosts\[0\]\.hostKey is missing/, "ssh.hosts[0].hostKey"],
      [{ ...devHost(), password: "secret-password-1" }, /gives privateKey and password: give exactly one credential/, "ssh.hosts[0].password"],
      [{ ...devHost(), privateKey: undefined }, /has no credential/, "ssh.hosts[0]"],
      [{ ...devHost(), port: 70_000 }, /ssh\.hosts\[0\]\.port must be a whole number/, "ssh.hosts[0].port"],
      [{ ...devHost(), hostKey: "MD5:aa:bb" }, /must be an OpenSSH SHA-256 fingerprint/, "ssh.hosts[0].hostKey"],
      [{ ...devHost(), root: "relative/dir" }, /ssh\.hosts\[0\]\.root must be an absolute path/, "ssh.hosts[0].root"],
    ];
    for (const [host, message, option] of cases) {
      const built = buildBuiltinToolRegistry({ workdir, dataDir, memory: false, ssh: { hosts: [host as unknown as SdkSshHostConfig] } });
      await expect(built).rejects.toMatchObject({ name: "SdkError", code: "invalid_options", details: expect.objectContaining({ option }) });
      await expect(built).rejects.toThrow(message);
      await built.catch((error: Error) => expect(error.message).not.toContain("secret-password-1"));
    }
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, memory: false, ssh: { hosts: [devHost(), devHost()] } })).rejects.toThrow(
      /used by an earlier host/,
    );
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, memory: false, ssh: { hosts: [] } })).rejects.toThrow(/ssh\.hosts must be a non-empty array/);
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, memory: false, ssh: { hosts: [devHost()], host: 1 } as never })).rejects.toThrow(
      /Unknown option ssh\.host: did you mean ssh\.hosts\?/,
    );
  });

  it("lists the hosts without credentials", async () => {
    const registry = await registryWith([devHost()]);
    const { result, text, details } = await ssh(registry, { action: "list_hosts" });
    expect(result.isError).toBe(false);
    expect(text).toContain(`dev: ${sshd.username}@127.0.0.1:${sshd.port}, root ${sshd.root} - the test server`);
    expect(details.hosts).toEqual([
      { id: "dev", address: `${sshd.username}@127.0.0.1:${sshd.port}`, username: sshd.username, description: "the test server", root: sshd.root },
    ]);
    expectNoSecret(result);
  });

  it("runs an interactive shell session: create, send_input, read_session, strategies, close", async () => {
    const registry = await registryWith([devHost()]);
    const required = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "require_existing" });
    expect(required.result.isError).toBe(true);
    expect(required.text).toMatch(/No open session on dev/);

    const created = await ssh(registry, { action: "create_session", host_id: "dev" });
    expect(created.result.isError).toBe(false);
    expect(created.details).toMatchObject({ hostId: "dev", reused: false });
    const sessionId = created.details.sessionId as string;

    const sent = await ssh(registry, { action: "send_input", session_id: sessionId, input: "echo marker-$((40+2)); pwd\n" });
    expect(sent.result.isError).toBe(false);
    const output = await readUntil(registry, sessionId, new RegExp(`marker-42[\\s\\S]*${sshd.root}`));
    expect(output).toContain("marker-42");
    expect(output).toContain(sshd.root);
    // Terminal escape sequences are not shown to the model.
    expect(output).not.toContain("\u001b[");

    const reused = await ssh(registry, { action: "create_session", host_id: "dev" });
    expect(reused.details).toMatchObject({ sessionId, reused: true });
    const existing = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "require_existing" });
    expect(existing.details).toMatchObject({ sessionId, reused: true });
    const fresh = await ssh(registry, { action: "create_session", host_id: "dev", strategy: "new" });
    expect(fresh.details.reused).toBe(false);
    expect(fresh.details.sessionId).not.toBe(sessionId);

    const listed = await ssh(registry, { action: "list_sessions" });
    expect((listed.details.sessions as Array<{ sessionId: string; status: string }>).map((session) => [session.sessionId, session.status])).toEqual([
      [sessionId, "open"],
      [fresh.details.sessionId, "open"],
    ]);

    const closed = await ssh(registry, { action: "close_session", session_id: fresh.details.sessionId });
    expect(closed.result.isError).toBe(false);
    const after = await ssh(registry, { action: "send_input", session_id: fresh.details.sessionId, input: "ls\n" });
    expect(after.result.isError).toBe(true);
    expect(after.text).toMatch(/No session .*list_sessions/);

    // A shell that exits: its session reports it ended.
    await ssh(registry, { action: "send_input", session_id: sessionId, input: "exit 3\n" });
    const ended = await readUntil(registry, sessionId, /has ended/);
    expect(ended).toMatch(/has ended with exit code 3/);
    const reopened = await ssh(registry, { action: "create_session", host_id: "dev" });
    expect(reopened.details.reused).toBe(false);
    expectNoSecret([created, sent, reused, listed, closed]);
  });

  it("pages a long session output with max_bytes and says how much is left", async () => {
    const registry = await registryWith([devHost()]);
    const { details } = await ssh(registry, { action: "create_session", host_id: "dev" });
    const sessionId = details.sessionId as string;
    await readUntil(registry, sessionId, /\$|#/);
    await ssh(registry, { action: "send_input", session_id: sessionId, input: "seq 1 3000; echo done-$((1+1))\n" });
    // A read waits for the burst to pause, so the first page sees the rest buffered.
    let text = "";
    let sawMore = false;
    for (let attempt = 0; attempt < 60 && !text.includes("done-2"); attempt += 1) {
      const page = await ssh(registry, { action: "read_session", session_id: sessionId, max_bytes: 2_000, timeout_ms: 2_000 });
      expect(page.details.bytes as number).toBeLessThanOrEqual(2_000);
      if ((page.details.remainingBytes as number) > 0) {
        sawMore = true;
        expect(page.text).toMatch(/more buffered: call read_session again/);
      }
      text += page.text;
    }
    expect(sawMore).toBe(true);
    expect(text).toContain("2999\n3000\n");
  });

  it("refuses an unknown host and fields an action does not take", async () => {
    const registry = await registryWith([devHost()]);
    const unknown = await ssh(registry, { action: "exec", host_id: "deV1", command: "true" });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toMatch(/No host "deV1"; did you mean dev\?/);
    const extra = await ssh(registry, { action: "list_hosts", path: "/etc" });
    expect(extra.result.isError).toBe(true);
    expect(extra.text).toMatch(/list_hosts does not take path/);
  });

  it("refuses a changed host key and says what the user must do", async () => {
    const wrong = `SHA256:${"A".repeat(43)}`;
    const registry = await registryWith([devHost({ hostKey: wrong })]);
    const { result, text, details } = await ssh(registry, { action: "create_session", host_id: "dev" });
    expect(result.isError).toBe(true);
    expect(result.error).toMatchObject({ code: "permission_denied", recoverable: false });
    expect(text).toContain(sshd.hostKeyFingerprint);
    expect(text).toMatch(/update hostKey for dev in the host application's SSH settings/);
    expect(details).toMatchObject({ hostId: "dev", reason: "host_key" });
    expectNoSecret(result);
  });

  it("accepts the key listed in a pinned known_hosts file, and refuses a host the file does not list", async () => {
    const knownHostsFile = path.join(dataDir, "known_hosts");
    writeFileSync(knownHostsFile, `${sshd.knownHostsLine}\n`);
    const registry = await registryWith([devHost({ hostKey: { knownHostsFile } }), devHost({ id: "other", host: "localhost", hostKey: { knownHostsFile } })]);
    const ok = await ssh(registry, { action: "sftp_stat", host_id: "dev", path: "." });
    expect(ok.result.isError).toBe(false);
    const refused = await ssh(registry, { action: "sftp_stat", host_id: "other", path: "." });
    expect(refused.result.isError).toBe(true);
    expect(refused.details).toMatchObject({ hostId: "other", reason: "host_key" });
  });

  it("refuses a login the server rejects without asking for credentials, and never shows the saved ones", async () => {
    const registry = await registryWith([
      devHost({ privateKey: undefined, password: `${sshd.password}-wrong` }),
      devHost({ id: "key", privateKey: sshd.privateKey.replace(/AAAA/g, "BBBB") }),
    ]);
    const wrong = await ssh(registry, { action: "exec", host_id: "dev", command: "true" });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.result.error).toMatchObject({ code: "permission_denied", recoverable: false });
    expect(wrong.text).toMatch(/interactive logins .* are not supported/);
    expect(wrong.text).toMatch(/fix the credential for dev in the host application's SSH settings/);
    expect(JSON.stringify(wrong.result)).not.toContain(`${sshd.password}-wrong`);
    const badKey = await ssh(registry, { action: "exec", host_id: "key", command: "true" });
    expect(badKey.result.isError).toBe(true);
    expectNoSecret([wrong.result, badKey.result]);
    expect(JSON.stringify(badKey.result)).not.toContain(sshd.privateKey.replace(/AAAA/g, "BBBB").split("\n")[1]);
  });

  it("logs in with a password and redacts it wherever it shows up", async () => {
    const registry = await registryWith([devHost({ privateKey: undefined, password: sshd.password! })]);
    const { details } = await ssh(registry, { action: "create_session", host_id: "dev" });
    const sessionId = details.sessionId as string;
    await ssh(registry, { action: "send_input", session_id: sessionId, input: `echo "pw=${sshd.password}"\n` });
    const output = await readUntil(registry, sessionId, /pw=<redacted>[\s\S]*pw=<redacted>/);
    expect(output).toContain("pw=<redacted>");
    expectNoSecret(output);
  });

  // Last: a second test server sets (and on stop resets) the shared test account's password.
  it("refuses a server that asks for a second, interactive factor instead of prompting", async () => {
    const twoFactor = await startTestSshd({ passwordAuthentication: true, extraConfig: ["AuthenticationMethods publickey,password"] });
    try {
      const registry = await registryWith([
        devHost({ port: twoFactor.port, privateKey: twoFactor.privateKey, hostKey: twoFactor.hostKeyFingerprint, root: twoFactor.root }),
      ]);
      const { result, text, details } = await ssh(registry, { action: "create_session", host_id: "dev" });
      expect(result.isError).toBe(true);
      expect(result.error).toMatchObject({ code: "permission_denied", recoverable: false });
      expect(text).toMatch(/interactive logins \(password prompts, keyboard-interactive\) are not supported/);
      expect(text).toMatch(/Do not ask the user for a password here/);
      expect(details).toMatchObject({ hostId: "dev", reason: "authentication" });
      expect(JSON.stringify(result)).not.toContain(twoFactor.privateKey.split("\n")[1]);
    } finally {
      await twoFactor.stop();
    }
  });
});
