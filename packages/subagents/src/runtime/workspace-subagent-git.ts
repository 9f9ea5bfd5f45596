/**
 * git on a non-local workspace, run by the workspace's own processes
 * (`workspace.processes`, e.g. exec channels over SSH): never this host's
 * git, never this host's disk.
 *
 * Two kinds of run:
 * - on the parent's repository (trusted as the host's own git runs on it):
 *   the workspace's login environment with the host-git safety settings
 *   (hooks and fsmonitor off) and the repository-locating `GIT_*` variables
 *   unset;
 * - on a child's worktree (untrusted, see `workspace-subagent-snapshot.ts`):
 *   exactly the environment given (nothing inherited), hardening `-c`
 *   settings first on the command line.
 */
import type { ProcessRunner } from "@agent-tools/core";
import { GIT_LOCATING_VARIABLES, HOST_GIT_SAFETY_ENVIRONMENT } from "@agent-tools/core/internal";
import type { Workspace } from "@agent-tools/core/workspace";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";

/** What one git run in the workspace produced. */
export interface WorkspaceGitRun {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** True when stdout went past `maxStdoutBytes`: git was killed and `stdout` is cut there. */
  readonly overflowed?: boolean;
}

/** Options of {@link runWorkspaceGit}. */
export interface WorkspaceGitOptions {
  /** Absolute workspace path git runs in. */
  readonly cwd: string;
  /** Written to stdin. */
  readonly input?: string;
  readonly signal?: AbortSignal;
  /** Kill git once stdout passes this many bytes (the run is then `overflowed`). */
  readonly maxStdoutBytes?: number;
  /**
   * The whole environment of an untrusted run (nothing inherited from the
   * workspace's login environment). Absent: a trusted run on the parent's
   * repository (login environment, safety settings, locating variables unset).
   */
  readonly isolatedEnv?: Readonly<Record<string, string>>;
}

/** Most stderr bytes kept of a run. */
const MAX_STDERR_BYTES = 64 * 1024;

/** Environment of the runs on the parent's repository: non-interactive, parseable, no hooks or fsmonitor, no inherited repository location. */
function trustedEnvironment(): Record<string, string | undefined> {
  const unset: Record<string, undefined> = Object.fromEntries(GIT_LOCATING_VARIABLES.map((name) => [name, undefined]));
  return {
    ...unset,
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
    LANGUAGE: "C",
    GIT_PAGER: "cat",
    GIT_EDITOR: "true",
    ...HOST_GIT_SAFETY_ENVIRONMENT,
  };
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("The git operation was aborted.", "AbortError");
}

/** The workspace's process runner, or a `worktree_unavailable` error saying there is none. */
export function workspaceProcesses(workspace: Workspace): ProcessRunner {
  if (workspace.processes === undefined || !workspace.capabilities.processes) {
    throw new SubagentWorktreeError(
      "worktree_unavailable",
      `The workspace ${workspace.label} runs no processes, so git cannot make a worktree there; use mode "readonly".`,
      { workspace: workspace.label },
    );
  }
  return workspace.processes;
}

/**
 * Runs `git` with `args` through the workspace's processes; never throws for
 * a non-zero exit (a git that cannot start exits 127); rejects with an
 * AbortError when `signal` aborts.
 *
 * @example
 * const run = await runWorkspaceGit(workspace, ["rev-parse", "--show-toplevel"], { cwd: "/srv/app" });
 */
export async function runWorkspaceGit(workspace: Workspace, args: readonly string[], options: WorkspaceGitOptions): Promise<WorkspaceGitRun> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const runner = workspaceProcesses(workspace);
  const env = options.isolatedEnv === undefined ? { env: trustedEnvironment() } : { env: { ...options.isolatedEnv }, extendEnv: false };
  const child = runner.spawn({
    command: "git",
    args,
    cwd: options.cwd,
    ...env,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(signal === undefined ? {} : { signal }),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let stdoutBytes = 0;
  let stderrBytes = 0;
  let overflowed = false;
  child.onOutput((chunk) => {
    if (chunk.stream === "stderr") {
      if (stderrBytes < MAX_STDERR_BYTES) stderr.push(chunk.data);
      stderrBytes += chunk.data.length;
      return;
    }
    if (overflowed) return;
    stdoutBytes += chunk.data.length;
    if (options.maxStdoutBytes !== undefined && stdoutBytes > options.maxStdoutBytes) {
      overflowed = true;
      void child.kill({ graceMs: 0 });
      return;
    }
    stdout.push(chunk.data);
  });
  const exit = await child.exited;
  await child.outputClosed;
  if (signal?.aborted) throw abortError(signal);
  return {
    exitCode: exit.exitCode ?? -1,
    stdout: Buffer.concat(stdout),
    stderr: Buffer.concat(stderr).toString("utf8"),
    ...(overflowed ? { overflowed } : {}),
  };
}

/** A git failure's short description: the command, exit code and stderr. */
export function describeGitRun(args: readonly string[], run: WorkspaceGitRun): string {
  return `git ${args.join(" ")}: exit ${run.exitCode}: ${run.stderr.trim().slice(0, 4_000) || "no message"}`;
}
