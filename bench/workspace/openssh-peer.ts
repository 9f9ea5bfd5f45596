/**
 * The OpenSSH peer of the workspace benchmark: the `ssh` client with the
 * same key and host-key pinning as the workspace (`-i key`,
 * `UserKnownHostsFile` holding only the server's key,
 * `StrictHostKeyChecking=yes`, no user configuration), either a fresh `ssh`
 * process per operation (what a script does: key exchange and
 * authentication every time) or multiplexed over one ControlMaster
 * connection (the fair peer of a workspace that keeps its connection).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { RemoteTree } from "./remote-tree.js";

/** Runs a remote command; resolves to its standard output (rejects on a non-zero exit but 1, ripgrep's "no match"). */
export type RemoteRun = (command: string, input?: Buffer) => Promise<Buffer>;

/** A peer: how it runs a command, and how it is shut down. */
export interface OpenSshPeer {
  readonly run: RemoteRun;
  close(): Promise<void>;
}

/** Single-quotes `value` for the remote shell. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function baseArguments(tree: RemoteTree): string[] {
  return [
    "-F",
    "/dev/null",
    "-i",
    tree.keyFile,
    "-p",
    String(tree.sshd.port),
    "-o",
    `UserKnownHostsFile=${tree.knownHostsFile}`,
    "-o",
    "GlobalKnownHostsFile=/dev/null",
    "-o",
    "StrictHostKeyChecking=yes",
    "-o",
    "BatchMode=yes",
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "LogLevel=ERROR",
  ];
}

function runSsh(args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("ssh", args, { stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0 || code === 1) resolve(Buffer.concat(stdout));
      else reject(new Error(`ssh ${args.at(-1)} exited ${code}: ${Buffer.concat(stderr).toString().trim().slice(0, 500)}`));
    });
    child.stdin.end(input);
  });
}

/** A fresh `ssh` process (a new connection) per command. */
export function freshPeer(tree: RemoteTree): OpenSshPeer {
  const args = baseArguments(tree);
  const destination = `${tree.sshd.username}@${tree.sshd.host}`;
  return { run: (command, input) => runSsh([...args, destination, command], input), close: async () => undefined };
}

/** Waits until the master answers `ssh -O check`. */
async function waitForMaster(args: string[], destination: string, master: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (master.exitCode !== null) throw new Error(`the ControlMaster ssh exited (${master.exitCode})`);
    const ready = await runSsh([...args, "-O", "check", destination]).then(
      () => true,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the ControlMaster ssh did not come up within 10 s");
}

/** One ControlMaster connection; every command is a `ssh` process multiplexed over it. */
export async function multiplexedPeer(tree: RemoteTree): Promise<OpenSshPeer> {
  const socket = path.join(tree.clientDir, "control.sock");
  const args = [...baseArguments(tree), "-o", `ControlPath=${socket}`];
  const destination = `${tree.sshd.username}@${tree.sshd.host}`;
  const master = spawn("ssh", [...args, "-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-N", destination], { stdio: "ignore" });
  await waitForMaster(args, destination, master);
  const clientArgs = [...args, "-o", "ControlMaster=no"];
  return {
    run: (command, input) => runSsh([...clientArgs, destination, command], input),
    close: async () => {
      if (existsSync(socket)) await runSsh([...args, "-O", "exit", destination]).catch(() => undefined);
      if (master.exitCode === null) master.kill("SIGTERM");
    },
  };
}
