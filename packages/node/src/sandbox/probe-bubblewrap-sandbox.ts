import { execFile } from "node:child_process";
import { accessSync, constants, readlinkSync } from "node:fs";
import path from "node:path";
import type { SandboxSettings, SandboxState } from "@agent-tools/core";
import { BubblewrapSandbox } from "./bubblewrap-sandbox.js";

/** Options of {@link probeBubblewrapSandbox}. */
export interface BubblewrapProbeOptions {
  /** The host's settings, kept in the state; default `{ enabled: true }`. */
  settings?: SandboxSettings;
  /** Path of `bwrap`; default: the first `bwrap` on `PATH`. */
  executable?: string;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Longest wait for the trial run; default 15 000 ms. */
  timeoutMs?: number;
}

const WHAT_TO_DO =
  "Install bubblewrap (e.g. `apt-get install bubblewrap` or `dnf install bubblewrap`; it must be able to create a user namespace, also when the host runs as root, so a setuid bwrap on a kernel without user namespaces does not do), make sure unprivileged user namespaces are enabled " +
  "(`sysctl kernel.unprivileged_userns_clone=1`; on Ubuntu 24.04 and later also `sysctl kernel.apparmor_restrict_unprivileged_userns=0` or an AppArmor profile for bwrap), " +
  "or turn the sandbox off (`sandbox: { enabled: false }`). Until then every command is refused.";

/** The first executable `bwrap` on PATH, or undefined. */
export function findBubblewrapOnPath(pathVariable: string | undefined = process.env.PATH): string | undefined {
  for (const directory of (pathVariable ?? "").split(path.delimiter)) {
    if (directory === "") continue;
    const candidate = path.join(directory, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * What the trial command prints: the capability sets and namespaces of a
 * process exec'd inside the sandbox, and `proc-sys: writable` when the
 * kernel's global settings could be written from inside.
 */
const TRIAL_COMMAND =
  "cat /proc/self/status && readlink /proc/self/ns/user /proc/self/ns/net && { test -w /proc/sys/kernel/core_pattern && echo 'proc-sys: writable' || true; }";

/**
 * Why the trial's output shows the sandbox does not confine, or undefined
 * when it does: the effective and permitted capability sets empty, and a
 * user and network namespace other than the host's, and `/proc/sys` not
 * writable.
 */
export function checkTrialOutput(output: string, host: { userNamespace: string; networkNamespace: string }): string | undefined {
  const problems: string[] = [];
  for (const set of ["CapEff", "CapPrm"]) {
    const value = new RegExp(`^${set}:\\s*([0-9a-f]+)$`, "m").exec(output)?.[1];
    if (value === undefined) problems.push(`it printed no ${set}`);
    else if (!/^0+$/.test(value)) problems.push(`the confined command kept capabilities (${set} ${value})`);
  }
  const namespaces = output.match(/^(user|net):\[\d+\]$/gm) ?? [];
  const user = namespaces.find((line) => line.startsWith("user:"));
  const net = namespaces.find((line) => line.startsWith("net:"));
  if (user === undefined || user === host.userNamespace) problems.push("the confined command ran in the host's user namespace (bubblewrap made none)");
  if (net === undefined || net === host.networkNamespace) problems.push("the confined command ran in the host's network namespace");
  if (/^proc-sys: writable$/m.test(output)) problems.push("the confined command could write the kernel's settings (/proc/sys/kernel/core_pattern)");
  return problems.length === 0 ? undefined : problems.join("; ");
}

function readNamespace(kind: "user" | "net"): string {
  try {
    return readlinkSync(`/proc/self/ns/${kind}`);
  } catch {
    return "";
  }
}

/**
 * Runs one confined command the way every command will run (same
 * arguments, a clean environment) and checks inside that it has no
 * capability and its own user and network namespace.
 */
function trialRun(executable: string, timeoutMs: number): Promise<string | undefined> {
  const sandbox = new BubblewrapSandbox(executable);
  const confined = sandbox.confine({ command: TRIAL_COMMAND, shell: "/bin/sh", cwd: "/" }, { writableRoots: [], hiddenPaths: [], allowNetwork: false });
  const host = { userNamespace: readNamespace("user"), networkNamespace: readNamespace("net") };
  return new Promise((resolve) => {
    execFile(
      executable,
      confined.args ?? [],
      { timeout: timeoutMs, killSignal: "SIGKILL", encoding: "utf8", env: confined.env as NodeJS.ProcessEnv },
      (error, stdout, stderr) => {
        if (!error) {
          const problem = checkTrialOutput(stdout, host);
          return resolve(problem === undefined ? undefined : `a trial run of ${executable} did not confine: ${problem}`);
        }
        const said = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 500);
        const code = (error as NodeJS.ErrnoException).code;
        if (error.killed) return resolve(`a trial run of ${executable} did not finish within ${timeoutMs} ms`);
        resolve(`a trial run of ${executable} failed (${said || (typeof code === "string" ? code : `exit code ${String(code)}`)})`);
      },
    );
  });
}

/**
 * Checks once whether bubblewrap can confine commands here and returns the
 * registry's {@link SandboxState}: with a {@link BubblewrapSandbox} when a
 * trial command, confined exactly as every command will be, ran and found
 * inside that it has no capability (`CapEff` and `CapPrm` all zeros) and a
 * user and network namespace of its own (so a kernel without user
 * namespaces, or a bubblewrap that cannot drop root's capabilities, fails
 * here, not in the middle of a call); otherwise `unavailable` with the
 * reason and what to do: commands are then refused, never run unconfined.
 * Never throws. macOS and Windows are not supported yet.
 *
 * @example
 * const state = await probeBubblewrapSandbox({ settings: { enabled: true, allowNetwork: false } });
 * if (state.unavailable) console.warn(state.unavailable);
 */
export async function probeBubblewrapSandbox(options: BubblewrapProbeOptions = {}): Promise<SandboxState> {
  const settings = options.settings ?? { enabled: true };
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") {
    const name = platform === "darwin" ? "macOS" : platform;
    return {
      requested: true,
      settings,
      unavailable: `The command sandbox is not supported on ${name} yet (it uses Linux bubblewrap; a macOS sandbox-exec profile is planned). Turn the sandbox off (\`sandbox: { enabled: false }\`) to run commands unconfined; until then every command is refused.`,
    };
  }
  const executable = options.executable ?? findBubblewrapOnPath();
  if (executable === undefined) {
    return { requested: true, settings, unavailable: `The command sandbox cannot start: bubblewrap (bwrap) was not found on PATH. ${WHAT_TO_DO}` };
  }
  try {
    accessSync(executable, constants.X_OK);
  } catch {
    return {
      requested: true,
      settings,
      unavailable: `The command sandbox cannot start: bubblewrap was not found at ${executable} (or is not executable). ${WHAT_TO_DO}`,
    };
  }
  const problem = await trialRun(executable, options.timeoutMs ?? 15_000);
  if (problem !== undefined) return { requested: true, settings, unavailable: `The command sandbox cannot start: ${problem}. ${WHAT_TO_DO}` };
  return { requested: true, settings, sandbox: new BubblewrapSandbox(executable) };
}
