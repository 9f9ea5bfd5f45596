/**
 * The SSH side of the workspace benchmark: the test sshd of
 * `@agent-tools/ssh/testing` on 127.0.0.1, the rules-3k tree copied into its
 * root as the ssh account, and the client files OpenSSH needs (the key and a
 * known_hosts file pinning the host key).
 *
 * ripgrep is put on the account's PATH (a copy of the binary the tools use
 * locally, named in the account's `~/.ssh/environment`, which only this
 * server reads: `PermitUserEnvironment PATH`), so the workspace finds it
 * (`capabilities.ripgrep`) and the Grep tool and the `rg` peer run the same
 * ripgrep. The file is removed by `stop()`.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { ripgrepBinary } from "../fs/bench-util.js";
import { copyRulesTree } from "./copy-tree.js";

/** A running test sshd with the tree in its root. */
export interface RemoteTree {
  readonly sshd: TestSshd;
  /** The tree's root on the server (the workspace root). */
  readonly root: string;
  /** The client's private key file (mode 0600). */
  readonly keyFile: string;
  /** A known_hosts file holding only this server's host key. */
  readonly knownHostsFile: string;
  /** A private folder for the client's files (the ControlMaster socket). */
  readonly clientDir: string;
  /** Stops sshd and removes the copy and the client files. */
  stop(): Promise<void>;
}

/** The primary group id of an account. */
function groupOf(username: string): number {
  return Number(execFileSync("id", ["-g", username]).toString().trim());
}

/** The home directory of an account (this host's passwd). */
function homeOf(username: string): string {
  return execFileSync("getent", ["passwd", username]).toString().trim().split(":")[5] ?? `/home/${username}`;
}

/** Starts the server and copies `source` (the rules-3k tree) into its root. */
export async function startRemoteTree(source: string): Promise<RemoteTree> {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-workspace-"));
  // The account reads the binary from here: a folder it can traverse.
  const binDir = path.join(clientDir, "bin");
  mkdirSync(binDir, { recursive: true, mode: 0o755 });
  copyFileSync(ripgrepBinary(), path.join(binDir, "rg"));
  chmodSync(clientDir, 0o755);
  chmodSync(path.join(binDir, "rg"), 0o755);
  const sshd = await startTestSshd({ extraConfig: ["PermitUserEnvironment PATH"] });
  const owner = process.getuid?.() === 0 ? { uid: sshd.uid, gid: groupOf(sshd.username) } : undefined;
  const environmentFile = path.join(homeOf(sshd.username), ".ssh", "environment");
  try {
    mkdirSync(path.dirname(environmentFile), { recursive: true, mode: 0o700 });
    writeFileSync(environmentFile, `PATH=${binDir}:/usr/local/bin:/usr/bin:/bin\n`, { mode: 0o600 });
    if (owner) {
      chownSync(path.dirname(environmentFile), owner.uid, owner.gid);
      chownSync(environmentFile, owner.uid, owner.gid);
    }
    copyRulesTree(source, sshd.root, owner);
    const keyFile = path.join(clientDir, "id_ed25519");
    writeFileSync(keyFile, sshd.privateKey, { mode: 0o600 });
    const knownHostsFile = path.join(clientDir, "known_hosts");
    writeFileSync(knownHostsFile, `${sshd.knownHostsLine}\n`, { mode: 0o600 });
    return {
      sshd,
      root: sshd.root,
      keyFile,
      knownHostsFile,
      clientDir,
      stop: async () => {
        await sshd.stop();
        rmSync(environmentFile, { force: true });
        rmSync(clientDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await sshd.stop();
    rmSync(environmentFile, { force: true });
    rmSync(clientDir, { recursive: true, force: true });
    throw error;
  }
}
