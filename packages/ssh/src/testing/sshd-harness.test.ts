import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Client } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSshd, type TestSshd } from "./index.js";

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
