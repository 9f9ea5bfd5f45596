import type { CommandSandbox, SandboxPolicy, SpawnOptions } from "@agent-tools/core";
import { buildBubblewrapArguments } from "./bubblewrap-arguments.js";
import { listHostUnixSockets } from "./host-unix-sockets.js";
import { confinedEnvironment } from "./sandbox-environment.js";

/** Options of {@link BubblewrapSandbox}. */
export interface BubblewrapSandboxOptions {
  /** The environment the allow-list picks from; default `process.env` at each `confine`. */
  hostEnvironment?: () => Readonly<Record<string, string | undefined>>;
  /** The host's path-bound Unix sockets; default `/proc/net/unix` read at each `confine` with the network off. */
  hostSockets?: () => readonly string[];
}

/**
 * A {@link CommandSandbox} on Linux bubblewrap (`bwrap`): a user namespace
 * of its own with no capability (also for a root host), the file system
 * read-only except the policy's writable roots and a private `/tmp`, hidden
 * credentials, no network and no host Unix socket unless allowed, its own
 * pid namespace, and a clean environment (an allow-list of host variables
 * plus the spawn's own). Get one from `probeBubblewrapSandbox`, which checks
 * that bubblewrap confines this way on this kernel first.
 *
 * @example
 * const sandbox = new BubblewrapSandbox("/usr/bin/bwrap");
 * runner.spawn(sandbox.confine({ command: "npm test", shell: true, cwd: workdir }, policy));
 */
export class BubblewrapSandbox implements CommandSandbox {
  readonly mechanism = "bubblewrap";
  private readonly hostEnvironment: () => Readonly<Record<string, string | undefined>>;
  private readonly hostSockets: () => readonly string[];

  /** @param executable Absolute path of `bwrap`. */
  constructor(
    readonly executable: string,
    options: BubblewrapSandboxOptions = {},
  ) {
    this.hostEnvironment = options.hostEnvironment ?? (() => process.env);
    this.hostSockets = options.hostSockets ?? (() => listHostUnixSockets());
  }

  /**
   * Rewrites the spawn into `bwrap <flags> -- <closer> <shell> -c <command>`
   * (or the plain command and its arguments), where the closer
   * (`withDescriptorCloser`) leaves the command only descriptors 0, 1 and 2,
   * none the host inherited. cwd, input, signal, isolation and log
   * file are kept; the environment becomes the allowed host variables
   * (defaults plus `policy.environmentAllow`) with the spawn's `env` over
   * them, and `extendEnv: false` so the runner adds nothing of the host's.
   * The runner still starts bubblewrap in its own process group, and its
   * tree kill ends every process inside (they inherit the runner's tree
   * tag, and the pid namespace dies with bubblewrap).
   */
  confine(options: SpawnOptions, policy: SandboxPolicy): SpawnOptions {
    const { shell: _shell, args: _args, env: _env, extendEnv: _extendEnv, ...rest } = options;
    const env = confinedEnvironment(this.hostEnvironment(), options, policy.environmentAllow);
    const args = buildBubblewrapArguments(options, policy, {
      searchPath: env.PATH,
      environment: env,
      hostSockets: policy.allowNetwork ? [] : this.hostSockets(),
    });
    return { ...rest, command: this.executable, args, env, extendEnv: false };
  }
}
