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
   * Absolute paths hidden from confined commands (a directory is replaced by
   * an empty one, a file by an empty file). Default: the user's credentials
   * under the home directory that exist: the folders `.ssh`, `.aws`,
   * `.gnupg`, `.kube`, `.docker`, `.config/gcloud`, `.azure`, `.config/gh`
   * and the files `.npmrc`, `.git-credentials`, `.netrc`, `.pgpass`,
   * `.pypirc`, `.cargo/credentials`, `.cargo/credentials.toml`,
   * `.config/git/credentials`. A list given here replaces the defaults.
   */
  hiddenPaths?: readonly string[];
  /**
   * The host environment confined commands get. By default only a fixed
   * allow-list (`PATH`, `HOME`, `USER`, `LANG`, `LC_*`, `TERM`, `TZ`, ...;
   * the adapter documents its list) passes; `allow` adds variable names or
   * prefixes ending in `*` (`["MY_VAR", "NPM_*"]`; `"*"` passes everything).
   * Values the tools set themselves (the shell's `env`) always reach the command.
   */
  environment?: SandboxEnvironmentSettings;
}

/** The `environment` of {@link SandboxSettings}. */
export interface SandboxEnvironmentSettings {
  /** Host variable names, or prefixes ending in `*`, passed through beside the default allow-list. */
  allow?: readonly string[];
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
  /**
   * Canonical directories shown empty and read-only, with the roots below
   * them (writable or read-only) bound back on top: the dataDir and the
   * skills root, so only the workspace and the skills a command may use
   * show through. A sandbox that cannot honour this must refuse to confine.
   */
  readonly maskedDirectories?: readonly string[];
  /**
   * No network when false: no IP (loopback included) and no Unix socket on
   * the file system outside the writable roots. When true the command shares
   * the host's network, Unix sockets included.
   */
  readonly allowNetwork: boolean;
  /**
   * Host variable names (or prefixes ending in `*`) passed to the command
   * besides the sandbox's default allow-list (`SandboxSettings.environment.allow`).
   * Absent: the default allow-list only; never the whole host environment.
   */
  readonly environmentAllow?: readonly string[];
}

/** A sandbox that can confine a spawn. */
export interface CommandSandbox {
  /** Reported in the shell header and details as `sandbox: <mechanism>`, e.g. `bubblewrap`. */
  readonly mechanism: string;
  /**
   * Rewrites one spawn so it runs confined (e.g. `bwrap <flags> -- bash -c
   * <command>`), keeping cwd, input, signal, isolation and log file. The
   * environment becomes the spawn's `env` over only the host variables the
   * sandbox allows (its default allow-list plus `policy.environmentAllow`),
   * with `extendEnv: false`: the host's environment as a whole never reaches
   * the command. The confined command has no capability and runs in a user
   * namespace of its own, also when the host runs as root. The result still
   * starts in its own process group and the tree kill of the ProcessRunner
   * still ends every process inside.
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
