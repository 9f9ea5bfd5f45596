import { type ProcessRunner, type SandboxPolicy, type SandboxSettings, type ToolContext, ToolError } from "@agent-tools/core";
import { resolveSandboxPolicy } from "@agent-tools/node/internal";

/** The runner a command spawns through and what the results report as `sandbox`. */
export interface CommandRunnerChoice {
  /** Spawns confined when the registry has a sandbox, else the registry's runner itself. */
  readonly runner: ProcessRunner;
  /** `none`, or the sandbox's mechanism (e.g. `bubblewrap`). */
  readonly sandbox: string;
}

/**
 * The confinement of one command, from the registry's path policy: the
 * workspace and the roots granted with write access are writable, roots
 * granted read-only stay read-only, plus the settings' `writableRoots` and
 * `hiddenPaths` (default: the home directory's secrets directories).
 */
function sandboxPolicyFor(context: ToolContext, settings: SandboxSettings): SandboxPolicy {
  const roots = context.paths.roots().filter((root) => root.status !== "missing");
  return resolveSandboxPolicy({
    settings,
    writableRoots: [context.workdir, ...roots.filter((root) => root.access === "write").map((root) => root.canonicalPath)],
    readOnlyRoots: roots.filter((root) => root.access === "read").map((root) => root.canonicalPath),
  });
}

/**
 * Picks the runner of a shell tool's command. Fail closed: when a sandbox
 * was asked for but cannot start, throws `ToolError` `unavailable` with the
 * reason and what to do, so nothing ever runs unconfined.
 */
export function chooseCommandRunner(context: ToolContext, toolName: string): CommandRunnerChoice {
  const runner = context.ports.processRunner;
  const state = context.ports.sandbox;
  if (state === undefined) return { runner, sandbox: "none" };
  if (state.sandbox === undefined) {
    throw new ToolError("unavailable", `${toolName} did not run the command: ${state.unavailable}`, {
      details: { sandbox: "unavailable" },
      recoverable: false,
    });
  }
  const sandbox = state.sandbox;
  const policy = sandboxPolicyFor(context, state.settings);
  return {
    sandbox: sandbox.mechanism,
    runner: {
      spawn: (options) => runner.spawn(sandbox.confine(options, policy)),
      // A per-call view: the registry closes the runner underneath.
      close: () => Promise.resolve(),
    },
  };
}
