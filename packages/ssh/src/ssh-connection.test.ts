import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { WorkspaceError } from "@agent-tools/core/workspace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SshConnection, type SshConnectionOptions } from "./connection/index.js";
import { startTcpProxy, startTestSshd, type TestSshd } from "./testing/index.js";

const OTHER_FINGERPRINT = `SHA256:${"A".repeat(43)}`;

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function execText(connection: SshConnection, command: string): Promise<string> {
  const { channel } = await connection.exec(command);
  let out = "";
  channel.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  channel.stderr.on("data", () => undefined);
  await new Promise((resolve) => channel.once("close", resolve));
  return out;
}

describe("SshConnection", () => {
  let sshd: TestSshd;
  let dir: string;
  const base = (): SshConnectionOptions => ({
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKey: sshd.hostKeyFingerprint,
  });

  beforeAll(async () => {
    sshd = await startTestSshd({ passwordAuthentication: process.getuid?.() === 0, maxSessions: 4 });
    dir = await mkdtemp(path.join(tmpdir(), "agent-tools-ssh-connection-"));
  });
  afterAll(async () => {
    await sshd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("logs in on the pinned fingerprint and on a known_hosts file that lists the key", async () => {
    const pinned = new SshConnection(base());
    expect(pinned.label).toBe(`ssh://${sshd.username}@127.0.0.1:${sshd.port}`);
    expect((await execText(pinned, "id -un")).trim()).toBe(sshd.username);
    await pinned.close();
    const knownHostsFile = path.join(dir, "known_hosts");
    await writeFile(
      knownHostsFile,
      `# test\nother.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n${sshd.knownHostsLine}\n`,
    );
    const known = new SshConnection({ ...base(), hostKey: { knownHostsFile } });
    await known.connect();
    await known.close();
  });

  it("refuses a changed key and an unknown host with host_key, naming the host, the presented key and what to do", async () => {
    const changed = await rejection(() => new SshConnection({ ...base(), hostKey: OTHER_FINGERPRINT }).connect());
    expect(changed).toBeInstanceOf(WorkspaceError);
    expect((changed as WorkspaceError).code).toBe("host_key");
    expect((changed as WorkspaceError).message).toContain(`127.0.0.1:${sshd.port}`);
    expect((changed as WorkspaceError).message).toContain(sshd.hostKeyFingerprint);
    expect((changed as WorkspaceError).message).toContain("pin it with hostKey");
    expect((changed as WorkspaceError).details).toMatchObject({ presentedFingerprint: sshd.hostKeyFingerprint, pinnedFingerprints: [OTHER_FINGERPRINT] });

    const knownHostsFile = path.join(dir, "known_hosts_other");
    await writeFile(knownHostsFile, `[127.0.0.1]:1 ${sshd.knownHostsLine.split(" ").slice(1).join(" ")}\n`);
    const unknown = await rejection(() => new SshConnection({ ...base(), hostKey: { knownHostsFile } }).connect());
    expect((unknown as WorkspaceError).code).toBe("host_key");
    expect((unknown as WorkspaceError).message).toMatch(/is unknown/);
    expect((unknown as WorkspaceError).message).toContain(sshd.hostKeyFingerprint);
  });

  it("fails closed on options: no hostKey, no or two credentials, unknown keys such as tryKeyboard", () => {
    const { hostKey: _omitted, ...noHostKey } = base();
    const cases: Array<[unknown, string]> = [
      [noHostKey, "options.hostKey"],
      [{ ...base(), hostKey: "SHA256:short" }, "options.hostKey"],
      [{ ...base(), privateKey: undefined }, "options"],
      [{ ...base(), password: "x-secret-password" }, "options.password"],
      [{ ...base(), tryKeyboard: true }, "options.tryKeyboard"],
      [{ ...base(), maxChannels: 2 }, "options.maxChannels"],
      [{ ...base(), hostkey: sshd.hostKeyFingerprint }, "options.hostkey"],
    ];
    for (const [options, option] of cases) {
      let thrown: unknown;
      try {
        new SshConnection(options as SshConnectionOptions);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, option).toBeInstanceOf(SdkError);
      expect((thrown as SdkError).code).toBe("invalid_options");
      expect((thrown as SdkError).details.option).toBe(option);
      expect(JSON.stringify(thrown)).not.toContain("x-secret-password");
      expect(JSON.stringify(thrown)).not.toContain(sshd.privateKey.split("\n")[1]);
    }
  });

  it("keeps credentials out of every error, label and serialisation", async () => {
    const otherKey = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    const keyLines = [...sshd.privateKey.split("\n"), ...otherKey.split("\n"), "not-a-key-0123456789abcdef"].filter((line) => line.length > 20);
    const secrets = [...keyLines, ...(sshd.password ? [sshd.password] : []), "not-the-password-0123456789"];
    const errors: unknown[] = [];
    const attempts: SshConnectionOptions[] = [
      { ...base(), hostKey: OTHER_FINGERPRINT },
      // A valid key the server does not know, and text that is no key at all.
      { ...base(), privateKey: otherKey },
      { ...base(), privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-key-0123456789abcdef\n-----END OPENSSH PRIVATE KEY-----\n" },
      { ...base(), privateKey: undefined, password: "not-the-password-0123456789" },
      { ...base(), port: 1 },
    ];
    if (sshd.password) attempts.push({ ...base(), privateKey: undefined, password: sshd.password, hostKey: OTHER_FINGERPRINT });
    for (const options of attempts) {
      const connection = new SshConnection(options);
      expect(JSON.stringify(connection)).not.toMatch(/PRIVATE KEY|password/i);
      errors.push(await rejection(() => connection.connect()));
      await connection.close();
    }
    expect(errors.every((error) => error instanceof WorkspaceError)).toBe(true);
    for (const error of errors) {
      const text = `${JSON.stringify(error)} ${(error as Error).message} ${(error as Error).stack}`;
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain("PRIVATE KEY");
    }
    expect(errors.map((error) => (error as WorkspaceError).code)).toEqual([
      "host_key",
      "connection",
      "connection",
      "connection",
      "connection",
      ...(sshd.password ? ["host_key"] : []),
    ]);
    expect((errors[1] as WorkspaceError).details.stage).toBe("authentication");
    expect((errors[2] as WorkspaceError).details.stage).toBe("options");
  });

  it.runIf(process.getuid?.() === 0)("logs in with a password, and refuses a wrong one without retrying", async () => {
    const connection = new SshConnection({ ...base(), privateKey: undefined, password: sshd.password });
    expect((await execText(connection, "id -un")).trim()).toBe(sshd.username);
    await connection.close();
    const wrong = await rejection(() => new SshConnection({ ...base(), privateKey: undefined, password: "wrong-password-123456" }).connect());
    expect((wrong as WorkspaceError).details.stage).toBe("authentication");
  });

  it("logs in through an SSH agent (its socket path), and agent: true without SSH_AUTH_SOCK is refused", async () => {
    const socket = path.join(dir, "agent.sock");
    const agent = spawn("ssh-agent", ["-D", "-a", socket], { stdio: "ignore" });
    try {
      for (let tries = 0; tries < 100 && !existsSync(socket); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const keyFile = path.join(dir, "agent_key");
      await writeFile(keyFile, sshd.privateKey, { mode: 0o600 });
      const added = spawnSync("ssh-add", [keyFile], { env: { ...process.env, SSH_AUTH_SOCK: socket }, encoding: "utf8" });
      expect(added.status, added.stderr).toBe(0);
      const viaAgent = new SshConnection({ ...base(), privateKey: undefined, agent: socket });
      expect((await execText(viaAgent, "id -un")).trim()).toBe(sshd.username);
      await viaAgent.close();
      const saved = process.env.SSH_AUTH_SOCK;
      delete process.env.SSH_AUTH_SOCK;
      try {
        const missing = await rejection(() => new SshConnection({ ...base(), privateKey: undefined, agent: true }).connect());
        expect((missing as WorkspaceError).message).toContain("SSH_AUTH_SOCK is not set");
      } finally {
        if (saved !== undefined) process.env.SSH_AUTH_SOCK = saved;
      }
    } finally {
      agent.kill();
    }
  });

  it("queues channels beyond maxChannels: never more open at once, every command runs", async () => {
    const connection = new SshConnection({ ...base(), maxChannels: 3 });
    let peakOpen = 0;
    let peakQueued = 0;
    const sampler = setInterval(() => {
      peakOpen = Math.max(peakOpen, connection.channels.open);
      peakQueued = Math.max(peakQueued, connection.channels.queued);
    }, 5);
    try {
      const outputs = await Promise.all(Array.from({ length: 8 }, (_, index) => execText(connection, `sleep 0.3; echo ${index}`)));
      expect(outputs.map((out) => out.trim())).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
      expect(peakOpen).toBe(3);
      expect(peakQueued).toBeGreaterThanOrEqual(3);
      expect(connection.channels).toEqual({ open: 0, queued: 0 });
    } finally {
      clearInterval(sampler);
      await connection.close();
    }
  });

  it("reconnects after a dropped connection; running work fails with connection, later work runs on a new generation", async () => {
    const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    const connection = new SshConnection({ ...base(), host: proxy.host, port: proxy.port });
    const drops: number[] = [];
    connection.onDrop((generation) => drops.push(generation));
    try {
      const sftp = await connection.sftp();
      expect(connection.generation).toBe(1);
      const sftpClosed = new Promise<void>((resolve) => sftp.once("close", () => resolve()));
      const running = execText(connection, "sleep 5; echo late");
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.dropAll();
      expect(await running).toBe("");
      await sftpClosed;
      expect(drops).toEqual([1]);
      expect((await execText(connection, "echo again")).trim()).toBe("again");
      expect(connection.generation).toBe(2);
      const second = await connection.sftp();
      expect(second).not.toBe(sftp);
      expect(proxy.accepted).toBe(2);
    } finally {
      await connection.close();
      await proxy.close();
    }
    const closed = await rejection(() => connection.sftp());
    expect((closed as WorkspaceError).code).toBe("closed");
  });

  it("gives up reconnecting after reconnectAttempts when the server stays unreachable, with connection", async () => {
    const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    const connection = new SshConnection({ ...base(), host: proxy.host, port: proxy.port, reconnectAttempts: 2 });
    try {
      await connection.connect();
      await proxy.close();
      const failed = await rejection(() => connection.sftp());
      expect(failed).toBeInstanceOf(WorkspaceError);
      expect((failed as WorkspaceError).code).toBe("connection");
      expect((failed as WorkspaceError).message).toContain(`127.0.0.1:${proxy.port}`);
      expect(connection.generation).toBe(1);
      // Each later call tries again (the server may be back); it fails the same way while it is not.
      expect(((await rejection(() => connection.connect())) as WorkspaceError).code).toBe("connection");
    } finally {
      await connection.close();
    }
  });
});
