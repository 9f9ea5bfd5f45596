/**
 * A real OpenSSH server for tests: `startTestSshd()` runs `/usr/sbin/sshd -D
 * -e` on 127.0.0.1 on a free port with its own host key, its own
 * `sshd_config` and a fresh client key pair, and logs in as a dedicated Unix
 * account (`agtssh`, created once, when running as root) or as the current
 * user (otherwise).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { signalAll, orphanedSessionProcesses, taggedProcesses } from "./process-sweep.js";
import { runCommandOk } from "./run-command.js";
import { prepareTestAccount, sharedTestPassword, type TestAccount } from "./test-user.js";

/** Options of {@link startTestSshd}. */
export interface StartTestSshdOptions {
  /** Also accept password logins (root only: the test account's one password, made at random once per machine and kept root-only, returned as `password`). */
  readonly passwordAuthentication?: boolean;
  /** `MaxSessions` of the server (channels per connection); default 10, OpenSSH's own default. */
  readonly maxSessions?: number;
  /** The sshd executable; default `/usr/sbin/sshd`. */
  readonly sshdPath?: string;
  /** Where the fresh workspace folder is made; default the test account's home. */
  readonly rootParent?: string;
  /** Extra `sshd_config` lines (appended). */
  readonly extraConfig?: readonly string[];
  /**
   * Environment variables every session gets (sshd's `SetEnv`, which takes
   * effect once per config: give them here, not as an `extraConfig` line).
   * `PATH` replaces the server's default; e.g. a folder holding `rg`.
   */
  readonly environment?: Readonly<Record<string, string>>;
}

/** The login options of a test server (see {@link TestSshd.connectOptions}). */
export interface TestSshdConnectOptions {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly privateKey: string;
  readonly hostKey: string;
  readonly root: string;
}

/** A running test sshd (see {@link startTestSshd}). */
export interface TestSshd {
  readonly host: string;
  readonly port: number;
  /** The account to log in as. */
  readonly username: string;
  /** Its uid on this machine. */
  readonly uid: number;
  /** The client's private key (OpenSSH format, unencrypted ed25519). */
  readonly privateKey: string;
  /** The client's public key line (in `authorized_keys`). */
  readonly publicKey: string;
  /** The password, when `passwordAuthentication` was asked for. */
  readonly password?: string;
  /** The host key's fingerprint as `ssh-keygen -l -E sha256` prints it: `SHA256:...`. */
  readonly hostKeyFingerprint: string;
  /** A `known_hosts` line for this server: `[127.0.0.1]:<port> ssh-ed25519 AAAA...`. */
  readonly knownHostsLine: string;
  /** A fresh folder owned by the account, meant as the workspace root (canonical). */
  readonly root: string;
  /** The sshd process id. */
  readonly pid: number;
  /**
   * What a client needs to log in, pinned and rooted: host, port, username,
   * private key, `hostKey` (the fingerprint) and `root`. Spread it into the
   * options of `createSshWorkspace` or an SSHManager host.
   */
  readonly connectOptions: TestSshdConnectOptions;
  /** The name and value of the environment variable every session of this server carries. */
  readonly sessionTag: { readonly name: string; readonly value: string };
  /** Pids of the live processes of the account that this server's sessions started. */
  sessionPids(): Promise<number[]>;
  /** What sshd has printed on stderr so far (its log). */
  log(): string;
  /**
   * Stops sshd and kills every process of the account that its sessions
   * started (found by the session tag and by descent), removes the root
   * folder and the temporary files. Safe to call repeatedly.
   */
  stop(): Promise<void>;
}

const TAG_NAME = "AGENT_TOOLS_TEST_SSHD";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `NAME=value` words for `SetEnv`; refuses what sshd's config syntax would split or quote. */
function environmentPairs(environment: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(environment ?? {}).map(([name, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || /[\s"'\\#]/.test(value)) {
      throw new Error(`startTestSshd: environment ${name} must be a plain name with a value without spaces, quotes, backslashes or #`);
    }
    return `${name}=${value}`;
  });
}

function sshdConfig(dir: string, port: number, account: TestAccount, tag: string, options: StartTestSshdOptions): string {
  return [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${path.join(dir, "host_ed25519")}`,
    `PidFile ${path.join(dir, "sshd.pid")}`,
    `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
    "StrictModes no",
    "PubkeyAuthentication yes",
    `PasswordAuthentication ${options.passwordAuthentication ? "yes" : "no"}`,
    "KbdInteractiveAuthentication no",
    "PermitEmptyPasswords no",
    "UsePAM no",
    "PermitRootLogin no",
    `AllowUsers ${account.username}`,
    `MaxSessions ${options.maxSessions ?? 10}`,
    "MaxStartups 100:30:200",
    "LogLevel INFO",
    "Subsystem sftp internal-sftp",
    `SetEnv ${[`${TAG_NAME}=${tag}`, ...environmentPairs(options.environment)].join(" ")}`,
    ...(options.extraConfig ?? []),
    "",
  ].join("\n");
}

function waitListening(child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`test sshd did not start listening within 15 s: ${stderr().trim()}`)), 15_000);
    const onData = () => {
      if (/Server listening on/.test(stderr())) finish();
    };
    const onExit = (code: number | null) => finish(new Error(`test sshd exited (${code}) before listening: ${stderr().trim()}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
    onData();
  });
}

async function launch(sshdPath: string, configFile: string): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn(sshdPath, ["-D", "-e", "-f", configFile], { stdio: ["ignore", "ignore", "pipe"] });
  let text = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    text = (text + chunk).slice(-200_000);
  });
  const log = () => text;
  try {
    await waitListening(child, log);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return { child, log };
}

/**
 * Starts a test sshd (see the module comment). Needs `/usr/sbin/sshd` and
 * `ssh-keygen` (Debian: openssh-server). Call `stop()` when done.
 *
 * @example
 * const sshd = await startTestSshd();
 * const workspace = await createSshWorkspace({ host: sshd.host, port: sshd.port, username: sshd.username,
 *   privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint, root: sshd.root });
 * // ...
 * await workspace.close();
 * await sshd.stop();
 */
export async function startTestSshd(options: StartTestSshdOptions = {}): Promise<TestSshd> {
  const asRoot = process.getuid?.() === 0;
  if (options.passwordAuthentication && !asRoot) throw new Error("startTestSshd: passwordAuthentication needs root (it sets the test account's password)");
  const dir = await mkdtemp(path.join(tmpdir(), "agent-tools-sshd-"));
  // sshd reads authorized_keys as the logged-in account: the folder must be traversable.
  await chmod(dir, 0o755);
  if (asRoot) await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
  const account = await prepareTestAccount(options.rootParent);
  const tag = randomBytes(8).toString("hex");
  await runCommandOk("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "agent-tools-test-host", "-f", path.join(dir, "host_ed25519")]);
  await runCommandOk("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "agent-tools-test-client", "-f", path.join(dir, "client_ed25519")]);
  const publicKey = (await readFile(path.join(dir, "client_ed25519.pub"), "utf8")).trim();
  await writeFile(path.join(dir, "authorized_keys"), `${publicKey}\n`, { mode: 0o644 });
  const privateKey = await readFile(path.join(dir, "client_ed25519"), "utf8");
  const hostPublic = (await readFile(path.join(dir, "host_ed25519.pub"), "utf8")).trim().split(/\s+/);
  const hostKeyFingerprint = (await runCommandOk("ssh-keygen", ["-l", "-E", "sha256", "-f", path.join(dir, "host_ed25519.pub")])).split(/\s+/)[1] ?? "";
  const password = options.passwordAuthentication ? await sharedTestPassword(account.username) : undefined;

  let started: { child: ChildProcess; log: () => string; port: number } | undefined;
  let lastError: unknown;
  // A free port may be taken between the probe and sshd's bind: retry a few times.
  for (let attempt = 0; attempt < 5 && !started; attempt += 1) {
    const port = await freePort();
    const configFile = path.join(dir, "sshd_config");
    await writeFile(configFile, sshdConfig(dir, port, account, tag, options), { mode: 0o644 });
    try {
      started = { ...(await launch(options.sshdPath ?? "/usr/sbin/sshd", configFile)), port };
    } catch (error) {
      lastError = error;
    }
  }
  if (!started) {
    await rm(dir, { recursive: true, force: true });
    await rm(account.root, { recursive: true, force: true });
    throw lastError;
  }
  const { child, log, port } = started;
  const pid = child.pid ?? 0;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const sessionPids = () => taggedProcesses(account.uid, TAG_NAME, tag, [pid]);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const before = await sessionPids();
      child.kill("SIGTERM");
      signalAll(before, "SIGKILL");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      child.kill("SIGKILL");
      // Sessions forked meanwhile, and processes that left the tree but keep the tag.
      for (let round = 0; round < 20; round += 1) {
        const left = [...(await taggedProcesses(account.uid, TAG_NAME, tag, [])), ...(await orphanedSessionProcesses(account.uid, account.username))];
        if (left.length === 0) break;
        signalAll(left, "SIGKILL");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await rm(account.root, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
  return {
    host: "127.0.0.1",
    port,
    username: account.username,
    uid: account.uid,
    privateKey,
    publicKey,
    ...(password === undefined ? {} : { password }),
    hostKeyFingerprint,
    knownHostsLine: `[127.0.0.1]:${port} ${hostPublic[0]} ${hostPublic[1]}`,
    root: account.root,
    pid,
    connectOptions: { host: "127.0.0.1", port, username: account.username, privateKey, hostKey: hostKeyFingerprint, root: account.root },
    sessionTag: { name: TAG_NAME, value: tag },
    sessionPids,
    log,
    stop,
  };
}
