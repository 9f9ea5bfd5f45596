import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { SandboxSettings, SandboxState } from "@agent-tools/core";
import { buildBubblewrapArguments } from "./bubblewrap-arguments.js";
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
  "Install bubblewrap (e.g. `apt-get install bubblewrap` or `dnf install bubblewrap`), make sure unprivileged user namespaces are enabled " +
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

function trialRun(executable: string, timeoutMs: number): Promise<string | undefined> {
  const args = buildBubblewrapArguments({ command: "true", cwd: "/" }, { writableRoots: [], hiddenPaths: [], allowNetwork: false });
  return new Promise((resolve) => {
    execFile(executable, args, { timeout: timeoutMs, killSignal: "SIGKILL", encoding: "utf8" }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined);
      const said = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 500);
      const code = (error as NodeJS.ErrnoException).code;
      if (error.killed) return resolve(`a trial run of ${executable} did not finish within ${timeoutMs} ms`);
      resolve(`a trial run of ${executable} failed (${said || (typeof code === "string" ? code : `exit code ${String(code)}`)})`);
    });
  });
}

/**
 * Checks once whether bubblewrap can confine commands here and returns the
 * registry's {@link SandboxState}: with a {@link BubblewrapSandbox} when a
 * trial confined `true` ran (so a kernel without user namespaces fails here,
 * not in the middle of a call), otherwise `unavailable` with the reason and
 * what to do. Never throws. macOS and Windows are not supported yet.
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
