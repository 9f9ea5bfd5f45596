/**
 * CommandSandbox: runs the commands of the shell tools (Bash, Bash sessions,
 * ManagedProcess) and cron bash tasks confined. Core only defines the port;
 * `@agent-tools/node` implements it with bubblewrap on Linux.
 */
import type { SpawnOptions } from "./process-runner.js";

/** What a host asks for (`buildBuiltinToolRegistry({ sandbox })`). */
export interface SandboxSettings {
  /** Confine commands. When true and no sandbox can start, commands are refused (never run unconfined). */
  enabled: boolean;
  /** Allow network access from confined commands; default false (no network, loopback included). */
  allowNetwork?: boolean;
  /**
   * Absolute directories writable besides the workspace and the roots granted
   * with write access (e.g. a cache). Everything else is read-only.
   */
  writableRoots?: readonly string[];
  /**
   * Absolute directories hidden from confined commands (replaced by an empty
   * directory). Default: the user's secrets directories under the home
   * directory that exist (`.ssh`, `.aws`, `.gnupg`, `.kube`, `.docker`,
   * `.config/gcloud`, `.azure`).
   */
  hiddenPaths?: readonly string[];
}

/** The confinement of one command, resolved by the tool from the registry's settings and path policy. */
export interface SandboxPolicy {
  /** Canonical writable directories: the workspace, write-access roots, `writableRoots`. */
  readonly writableRoots: readonly string[];
  /**
   * Canonical directories granted read-only (roots with read access): kept
   * visible, and read-only even inside a writable root or a private `/tmp`.
   */
  readonly readOnlyRoots?: readonly string[];
  /** Canonical directories hidden from the command. */
  readonly hiddenPaths: readonly string[];
  readonly allowNetwork: boolean;
}

/** A sandbox that can confine a spawn. */
export interface CommandSandbox {
  /** Reported in the shell header and details as `sandbox: <mechanism>`, e.g. `bubblewrap`. */
  readonly mechanism: string;
  /**
   * Rewrites one spawn so it runs confined (e.g. `bwrap <flags> -- bash -c
   * <command>`), keeping cwd, env, input, signal, isolation and log file.
   * The result still starts in its own process group and the tree kill of the
   * ProcessRunner still ends every process inside.
   */
  confine(options: SpawnOptions, policy: SandboxPolicy): SpawnOptions;
}

/**
 * The registry's sandbox state as tools see it (`ToolPorts.sandbox`):
 * - absent: no sandbox was asked for; commands run unconfined (`sandbox: none`);
 * - `{ requested: true, sandbox }`: confine every command with it;
 * - `{ requested: true, unavailable }`: asked for but cannot start; every
 *   command is refused with `unavailable` (the reason and what to do).
 */
export type SandboxState =
  | { readonly requested: true; readonly sandbox: CommandSandbox; readonly settings: SandboxSettings; readonly unavailable?: undefined }
  | { readonly requested: true; readonly sandbox?: undefined; readonly settings: SandboxSettings; readonly unavailable: string };
