import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Client } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSshd, type TestSshd } from "./index.js";
import { orphanedSessionProcesses } from "./process-sweep.js";

/** Alive and not a zombie (an orphan reparented to a pid 1 that does not reap stays a zombie). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function connect(sshd: TestSshd, seen: string[]): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once("ready", () => resolve(client));
    client.once("error", reject);
    client.connect({
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      privateKey: sshd.privateKey,
      hostVerifier: (key: Buffer) => {
        seen.push(`SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`);
        return true;
      },
    });
  });
}

function exec(client: Client, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    client.exec(command, (error, stream) => {
      if (error) return reject(error);
      let out = "";
      stream.on("data", (chunk: Buffer) => {
        out += chunk.toString();
      });
      stream.stderr.on("data", () => undefined);
      stream.on("close", () => resolve(out));
    });
  });
}

describe("startTestSshd", () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  it("logs in with the client key as the test account, on the pinned host key, in a root it owns", async () => {
    const seen: string[] = [];
    const client = await connect(sshd, seen);
    try {
      expect(seen).toEqual([sshd.hostKeyFingerprint]);
      expect(sshd.knownHostsLine).toMatch(new RegExp(`^\\[127\\.0\\.0\\.1\\]:${sshd.port} ssh-ed25519 AAAA`));
      const out = await exec(client, `id -un; stat -c %U ${sshd.root}; echo "$${sshd.sessionTag.name}"`);
      expect(out.trim().split("\n")).toEqual([sshd.username, sshd.username, sshd.sessionTag.value]);
    } finally {
      client.end();
    }
  });

  it("stop() kills the processes the sessions started, also those that left the session", async () => {
    const client = await connect(sshd, []);
    const out = await exec(client, "setsid sleep 300 >/dev/null 2>&1 < /dev/null & echo $!");
    const pid = Number(out.trim());
    client.end();
    expect(pid).toBeGreaterThan(1);
    expect(isAlive(pid)).toBe(true);
    expect(await sshd.sessionPids()).toContain(pid);
    await sshd.stop();
    expect(isAlive(pid)).toBe(false);
    expect(isAlive(sshd.pid)).toBe(false);
  });
});

describe("startTestSshd stop() and abandoned SFTP sessions", () => {
  it("ends an internal-sftp session left blocked opening a FIFO after its client went away", async () => {
    const sshd = await startTestSshd();
    const client = await connect(sshd, []);
    const fifo = `${sshd.root}/pipe`;
    await new Promise<void>((resolve, reject) => {
      client.exec(`mkfifo '${fifo}'`, (error, channel) => {
        if (error) return reject(error);
        channel.on("close", () => resolve()).resume();
      });
    });
    await new Promise<void>((resolve, reject) => {
      client.sftp((error, sftp) => {
        if (error) return reject(error);
        sftp.open(fifo, "r", () => undefined); // never answered: the server blocks in open()
        setTimeout(resolve, 300);
      });
    });
    client.destroy();
    let orphans: number[] = [];
    for (let round = 0; round < 100 && orphans.length === 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const sessions = await orphanedSessionProcesses(sshd.uid, sshd.username);
      orphans = sessions.filter((pid) => readFileSync(`/proc/${pid}/wchan`, "utf8") === "wait_for_partner");
    }
    expect(orphans.length).toBeGreaterThan(0);
    await sshd.stop();
    expect(orphans.filter(isAlive)).toEqual([]);
  }, 30_000);
});
