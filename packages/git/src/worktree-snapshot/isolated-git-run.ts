/**
 * One git process of a worktree snapshot, with exactly the environment it is
 * given (nothing inherited): stdout as bytes (bounded), stderr as text,
 * never throwing for a non-zero exit; and the environment the host's own
 * runs on the repository start from. Not the ProcessRunner: a runner merges
 * its environment over the host's, and these runs must inherit nothing.
 */
import { spawn } from "node:child_process";
import { GIT_LOCATING_VARIABLES } from "@agent-tools/core/internal";

/** What one git run produced. */
export interface GitRun {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** True when stdout went past `maxStdoutBytes`: git was killed and `stdout` is cut there. */
  readonly overflowed?: boolean;
}

/** Most stderr bytes kept of a run (git's messages; the rest is dropped). */
const MAX_STDERR_BYTES = 64 * 1024;

const LOCATING_VARIABLES: ReadonlySet<string> = new Set(GIT_LOCATING_VARIABLES);

/**
 * `env` without the variables that point git at another repository
 * (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_COMMON_DIR`, the
 * object directories, ...), which a host started from a git hook or alias
 * inherits: the host's own git runs on the parent's repository start from it.
 * Runs on a worktree inherit nothing at all.
 *
 * @example
 * await runIsolatedGit("git", ["rev-parse", "--git-common-dir"], { cwd: repo, env: { ...withoutRepositoryVariables(process.env), LC_ALL: "C" } });
 */
export function withoutRepositoryVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !LOCATING_VARIABLES.has(name.toUpperCase())) kept[name] = value;
  }
  return kept;
}

/**
 * Runs `binary` with `args` in `cwd` with exactly `env` (nothing inherited),
 * `input` on stdin; rejects only when git cannot start or `signal` aborts.
 * With `maxStdoutBytes`, git is killed once its output goes past it (the
 * run is `overflowed`): what a child's worktree makes git print is never
 * held whole when it is too large.
 */
export function runIsolatedGit(
  binary: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string; signal?: AbortSignal; maxStdoutBytes?: number },
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      signal: options.signal,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let overflowed = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      if (overflowed) return;
      stdoutBytes += chunk.length;
      if (options.maxStdoutBytes !== undefined && stdoutBytes > options.maxStdoutBytes) {
        overflowed = true;
        child.kill("SIGKILL");
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderrBytes < MAX_STDERR_BYTES) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ exitCode: code ?? -1, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString("utf8"), ...(overflowed ? { overflowed } : {}) }),
    );
    // git may exit (or be killed) before it read all of its input: that is its exit code's business, not an EPIPE crash.
    child.stdin?.on("error", () => undefined);
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
