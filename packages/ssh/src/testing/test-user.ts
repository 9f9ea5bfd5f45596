import { randomBytes } from "node:crypto";
import { chown, lstat, mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import { runCommand, runCommandOk } from "./run-command.js";

/** The Unix account the harness logs in as, and a fresh folder of its own. */
export interface TestAccount {
  readonly username: string;
  readonly uid: number;
  readonly gid: number;
  readonly home: string;
  /** A fresh folder under the home, owned by the account. */
  readonly root: string;
}

/** The dedicated account the harness creates when it runs as root. */
export const TEST_SSH_USER = "agtssh";

async function lookup(username: string): Promise<{ uid: number; gid: number; home: string } | undefined> {
  const result = await runCommand("getent", ["passwd", username]);
  if (result.code !== 0) return undefined;
  const fields = result.stdout.trim().split(":");
  return { uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] ?? `/home/${username}` };
}

/**
 * Running as root: the dedicated account (created on first use with
 * `useradd -m`; its password field is `*`, so it is not "locked" for sshd
 * yet no password logs it in). Otherwise: the current user.
 */
export async function prepareTestAccount(rootParent: string | undefined): Promise<TestAccount> {
  if (process.getuid?.() !== 0) {
    const me = userInfo();
    const base = rootParent ?? me.homedir;
    const root = path.join(base, `.agent-tools-sshd-${randomBytes(6).toString("hex")}`);
    await mkdir(root, { recursive: true, mode: 0o755 });
    return { username: me.username, uid: me.uid, gid: me.gid, home: me.homedir, root: await realpath(root) };
  }
  let account = await lookup(TEST_SSH_USER);
  if (!account) {
    // Test files run in parallel: another harness may create it at the same time (exit 9: exists).
    const created = await runCommand("useradd", ["-m", "-s", "/bin/bash", "-p", "*", TEST_SSH_USER]);
    account = await lookup(TEST_SSH_USER);
    if (!account) throw new Error(`useradd ${TEST_SSH_USER} failed: ${created.stderr.trim()}`);
  }
  await mkdir(account.home, { recursive: true });
  // A home left by an earlier account of the same name (or by a useradd that lost a race for
  // /etc/passwd after making the folder) belongs to another uid: the account could not write there.
  // lstat, never stat: a home that is a symlink (to /etc, say) must not have root chown where it points.
  const owner = await lstat(account.home);
  if (owner.isSymbolicLink() || !owner.isDirectory()) {
    throw new Error(`The test account's home ${account.home} is not a plain directory (a symlink or a file); refusing to chown it.`);
  }
  if (owner.uid !== account.uid) await chown(account.home, account.uid, account.gid);
  const root = path.join(rootParent ?? account.home, `ws-${randomBytes(6).toString("hex")}`);
  await mkdir(root, { recursive: true, mode: 0o755 });
  await chown(root, account.uid, account.gid);
  return { username: TEST_SSH_USER, ...account, root: await realpath(root) };
}

/** Sets the account's password (root only); `undefined` resets it to `*` (no password login). */
export async function setTestPassword(username: string, password: string | undefined): Promise<void> {
  if (password === undefined) await runCommandOk("usermod", ["-p", "*", username]);
  else await runCommandOk("chpasswd", [], `${username}:${password}\n`);
}

/** Where the test account's one password is kept (root only, mode 0600). */
const TEST_PASSWORD_FILE = "/root/.agent-tools-test-ssh-password";

/**
 * The test account's password, the same for every test sshd on this
 * machine: made at random on first use and kept root-only in
 * {@link TEST_PASSWORD_FILE}, then set on the account. Test files run side by
 * side; a password per server would log out each other's password logins
 * (the account is shared), and resetting it on `stop()` would lock out the
 * servers still running. The account is the tests' own and no system sshd
 * accepts it.
 */
export async function sharedTestPassword(username: string): Promise<string> {
  let password = randomBytes(18).toString("base64url");
  try {
    await writeFile(TEST_PASSWORD_FILE, `${password}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
    // Another server made it first (perhaps a moment ago): wait until its text is complete.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const text = await readFile(TEST_PASSWORD_FILE, "utf8");
      if (text.endsWith("\n")) {
        password = text.trim();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  await setTestPassword(username, password);
  return password;
}
