/**
 * Shared set-up of the SSHManager attack files (`ssh-manager-credentials`,
 * `ssh-manager-sessions` `.attack.test.ts`): each file starts its own test
 * sshd (with a password: root only, as CI runs) in its own `beforeAll`
 * through `useSshManagerHarness`, and closes its registries and the sshd in
 * its `afterAll`.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, expect } from "vitest";

/** A host entry of `ssh: { hosts }`, deliberately loose (hostile shapes). */
export type Host = Record<string, unknown>;

/** Whether the tests run as root (the password login and the remote redaction cases need it). */
export const asRoot = process.getuid?.() === 0;

/** One test file's sshd, scratch folders, registries and what they reported. */
export interface SshManagerHarness {
  /** The file's test sshd (set once its `beforeAll` ran). */
  readonly sshd: TestSshd;
  /** The file's scratch folder (removed in `afterAll`). */
  readonly scratch: string;
  /** The registries' workdir. */
  readonly workdir: string;
  /** The registries' dataDir. */
  readonly dataDir: string;
  /** Everything every registry reported through onEvent and the logger, for leak checks. */
  readonly observed: unknown[];
  /** A host entry logging in with the test key, pinned to the server's host key. */
  keyHost(overrides?: Host): Host;
  /** A host entry logging in with the password (id `pw`). */
  passwordHost(overrides?: Host): Host;
  /** A registry with these SSH hosts, recording events and log lines; closed in `afterAll`. */
  registryWith(hosts: Host[]): Promise<BuiltinToolRegistry>;
  /** Runs one SSHManager call. */
  ssh(
    registry: BuiltinToolRegistry,
    args: Record<string, unknown>,
  ): Promise<{ result: Awaited<ReturnType<BuiltinToolRegistry["executeToolCall"]>>; text: string; details: Record<string, unknown> }>;
  /** Writes a known_hosts file of these lines into the scratch folder. */
  knownHostsFile(lines: string[]): string;
  /** The key blob of the test server's host key (base64), from its known_hosts line. */
  hostKeyParts(): { type: string; blob: string };
}

/** Registers this file's `beforeAll` (starts the sshd) and `afterAll` (closes everything) and returns its harness. */
export function useSshManagerHarness(): SshManagerHarness {
  const scratch = mkdtempSync(path.join(tmpdir(), "ssh-manager-attack-"));
  const workdir = path.join(scratch, "work");
  const dataDir = path.join(scratch, "data");
  const registries: BuiltinToolRegistry[] = [];
  const observed: unknown[] = [];
  const state: { sshd?: TestSshd } = {};
  const server = (): TestSshd => {
    if (!state.sshd) throw new Error("the test sshd is not started (used outside a test?)");
    return state.sshd;
  };

  beforeAll(async () => {
    execFileSync("mkdir", ["-p", workdir, dataDir]);
    state.sshd = await startTestSshd({ passwordAuthentication: asRoot });
  }, 60_000);

  afterAll(async () => {
    for (const registry of registries) await registry.close().catch(() => undefined);
    await state.sshd?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const keyHost = (overrides: Host = {}): Host => {
    const sshd = server();
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
  };

  let calls = 0;
  return {
    get sshd() {
      return server();
    },
    scratch,
    workdir,
    dataDir,
    observed,
    keyHost,
    passwordHost(overrides: Host = {}): Host {
      const { privateKey: _key, ...rest } = keyHost({ id: "pw", password: server().password, ...overrides });
      return rest;
    },
    async registryWith(hosts: Host[]): Promise<BuiltinToolRegistry> {
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
    },
    async ssh(registry, args) {
      const result = await registry.executeToolCall({ id: `attack-${++calls}`, name: "SSHManager", arguments: args });
      const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return { result, text, details: (result.details ?? {}) as Record<string, unknown> };
    },
    knownHostsFile(lines: string[]): string {
      const file = path.join(scratch, `known_hosts-${randomBytes(4).toString("hex")}`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      return file;
    },
    hostKeyParts(): { type: string; blob: string } {
      const [, type, blob] = server().knownHostsLine.split(/\s+/);
      return { type: type!, blob: blob! };
    },
  };
}

/** JSON of anything, with Errors' message and stack kept. */
export function dump(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (item instanceof Error ? { ...item, message: item.message, stack: item.stack } : item));
}

/** The base64 lines of a PEM key (what a leak of it would show). */
export function keyLines(key: string): string[] {
  return key.split("\n").filter((line) => line.trim().length >= 16 && !line.startsWith("-----"));
}

/** Expects none of `secrets` in the JSON of `value`. */
export function expectAbsent(value: unknown, secrets: readonly string[]): void {
  const json = dump(value);
  for (const secret of secrets) expect(json.includes(secret), `leaked ${secret.slice(0, 12)}...: ${json.slice(0, 400)}`).toBe(false);
}

/** The pids of the processes whose command line holds `pattern`. */
export function pidsRunning(pattern: string): number[] {
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

/** Polls `check` every 100 ms for `rounds` rounds. */
export async function waitFor(check: () => boolean, rounds = 100): Promise<boolean> {
  for (let round = 0; round < rounds; round += 1) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}
