import { type ProcessRunner, type SandboxPolicy, type SandboxSettings, type SpawnOptions, type ToolContext, ToolError } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { resolveSandboxPolicy } from "@agent-tools/node/internal";
import { realpathSync } from "node:fs";

/** The runner a command spawns through and what the results report as `sandbox`. */
export interface CommandRunnerChoice {
  /** Spawns confined when the registry has a sandbox, else the registry's runner itself. */
  readonly runner: ProcessRunner;
  /** `none`, or the sandbox's mechanism (e.g. `bubblewrap`). */
  readonly sandbox: string;
  /** The label of the non-local workspace the command runs on; absent on the local machine. */
  readonly workspace?: string;
  /** With a sandbox: rewrites a spawn into its confined form (for a command another process starts, e.g. a durable session's supervisor). */
  readonly confine?: (options: SpawnOptions) => SpawnOptions;
}

/**
 * The confinement of one command, from the registry's path policy: the
 * workspace and the roots granted with write access are writable, roots
 * granted read-only stay read-only, plus the settings' `writableRoots` and
 * `hiddenPaths` (default: the home directory's secrets directories).
 */
function sandboxPolicyFor(context: ToolContext, settings: SandboxSettings, hidden: readonly string[]): SandboxPolicy {
  const roots = context.paths.roots().filter((root) => root.status !== "missing");
  const policy = resolveSandboxPolicy({
    settings,
    writableRoots: [context.workdir, ...roots.filter((root) => root.access === "write").map((root) => root.canonicalPath)],
    readOnlyRoots: roots.filter((root) => root.access === "read").map((root) => root.canonicalPath),
  });
  return hidden.length === 0 ? policy : { ...policy, hiddenPaths: [...policy.hiddenPaths, ...hidden.map(canonicalOf)] };
}

function canonicalOf(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return directory;
  }
}

/**
 * Every directory a command or a file tool of this call may write to: the
 * workspace, the roots granted with write access and, with a sandbox, its
 * settings' `writableRoots` (the host's durable sessions directory must be
 * outside all of them).
 */
export function writableRootsOf(context: ToolContext): string[] {
  const granted = context.paths
    .roots()
    .filter((root) => root.status !== "missing" && root.access === "write")
    .map((root) => root.canonicalPath);
  return [context.workdir, ...granted, ...(context.ports.sandbox?.settings.writableRoots ?? [])];
}

/**
 * Picks the runner of a shell tool's command: on a workspace that is not the
 * local disk, the workspace's processes (see {@link workspaceRunner}). Fail closed: when a sandbox
 * was asked for but cannot start, throws `ToolError` `unavailable` with the
 * reason and what to do, so nothing ever runs unconfined. `hidden`: more
 * directories the confined command must not see (the durable sessions directory).
 */
export function chooseCommandRunner(context: ToolContext, toolName: string, hidden: readonly string[] = []): CommandRunnerChoice {
  const workspace = context.ports.workspace;
  if (workspace !== undefined && !workspace.capabilities.localPaths) return workspaceRunner(context, toolName, workspace);
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
  const policy = sandboxPolicyFor(context, state.settings, hidden);
  return {
    sandbox: sandbox.mechanism,
    confine: (options) => sandbox.confine(options, policy),
    runner: {
      spawn: (options) => runner.spawn(sandbox.confine(options, policy)),
      // A per-call view: the registry closes the runner underneath.
      close: () => Promise.resolve(),
    },
  };
}

/**
 * The runner of a workspace that is not the local disk: its own
 * `processes`, never the host's runner. The sandbox confines local commands
 * only, so a registry that has one refuses (`unavailable`) rather than run a
 * remote command it would not confine; a workspace without processes
 * refuses (`unsupported_target`). Both name the workspace.
 */
function workspaceRunner(context: ToolContext, toolName: string, workspace: Workspace): CommandRunnerChoice {
  const processes = workspace.capabilities.processes ? workspace.processes : undefined;
  if (processes === undefined) {
    throw new ToolError(
      "unsupported_target",
      `${toolName} cannot run commands on ${workspace.label}: this ${workspace.kind} workspace has no processes (only its files). Use the file tools, or give the registry a workspace that runs commands (e.g. SSH).`,
      { details: { workspace: workspace.label, capability: "processes" }, recoverable: false },
    );
  }
  if (context.ports.sandbox !== undefined) {
    throw new ToolError(
      "unavailable",
      `${toolName} did not run the command: the sandbox confines commands on this host only, and this registry's commands run on ${workspace.label}. Build the registry without a sandbox for a remote workspace (the remote machine's own isolation applies).`,
      { details: { sandbox: "unavailable", workspace: workspace.label }, recoverable: false },
    );
  }
  return {
    sandbox: "none",
    workspace: workspace.label,
    // A per-call view: the workspace's owner closes its runner.
    runner: { spawn: (options) => processes.spawn(options), close: () => Promise.resolve() },
  };
}
