import type { CommandSandbox, SandboxPolicy, SpawnOptions } from "@agent-tools/core";
import { buildBubblewrapArguments } from "./bubblewrap-arguments.js";

/**
 * A {@link CommandSandbox} on Linux bubblewrap (`bwrap`): the file system
 * read-only except the policy's writable roots and a private `/tmp`, hidden
 * secrets directories, no network unless allowed, its own pid namespace.
 * Get one from `probeBubblewrapSandbox`, which checks that bubblewrap can
 * start on this kernel first.
 *
 * @example
 * const sandbox = new BubblewrapSandbox("/usr/bin/bwrap");
 * runner.spawn(sandbox.confine({ command: "npm test", shell: true, cwd: workdir }, policy));
 */
export class BubblewrapSandbox implements CommandSandbox {
  readonly mechanism = "bubblewrap";

  /** @param executable Absolute path of `bwrap`. */
  constructor(readonly executable: string) {}

  /**
   * Rewrites the spawn into `bwrap <flags> -- <shell> -c <command>` (or the
   * plain command and its arguments). cwd, env, input, signal, isolation and
   * log file are kept; the runner still starts bubblewrap in its own process
   * group, and its tree kill ends every process inside (they inherit the
   * runner's tree tag, and the pid namespace dies with bubblewrap).
   */
  confine(options: SpawnOptions, policy: SandboxPolicy): SpawnOptions {
    const { shell: _shell, args: _args, ...rest } = options;
    return { ...rest, command: this.executable, args: buildBubblewrapArguments(options, policy) };
  }
}
