import { execa } from "execa";
import type { ProcessRunner } from "@agent-tools/core";

/** What one git invocation produced. */
export interface GitCommandResult {
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Options of {@link runGit}. */
export interface RunGitOptions {
  cwd: string;
  /** Written to stdin. */
  input?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Environment that keeps git non-interactive and its messages parseable,
 * and keeps the repository from running commands on the host: git's
 * environment config (`GIT_CONFIG_COUNT`, command-line precedence) turns
 * hooks (`core.hooksPath=/dev/null`) and the file-system monitor
 * (`core.fsmonitor=false`) off, whatever the repository's `.git/config` or
 * `.git/hooks` hold (a model's command may have written them).
 */
const GIT_ENVIRONMENT: Record<string, string> = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  LC_ALL: "C",
  LANGUAGE: "C",
  GIT_PAGER: "cat",
  GIT_EDITOR: "true",
  ...gitConfigEnvironment({ "core.hooksPath": "/dev/null", "core.fsmonitor": "false" }),
};

/**
 * `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` for
 * `settings` (git 2.31+; older gits ignore them).
 *
 * @example
 * gitConfigEnvironment({ "core.hooksPath": "/dev/null" }); // { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "/dev/null" }
 */
export function gitConfigEnvironment(settings: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(settings);
  const environment: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    environment[`GIT_CONFIG_KEY_${index}`] = key;
    environment[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return environment;
}

/**
 * Variables that would point git at another repository, work tree, index or
 * object store than the `cwd` of a run (a host started from a git hook or
 * alias inherits `GIT_DIR`, `GIT_INDEX_FILE`, ...): unset for every run; a
 * run that needs one (a throwaway index) passes it in `env`.
 */
const UNSET_LOCATING_VARIABLES: Record<string, undefined> = Object.fromEntries(
  [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_QUARANTINE_PATH",
    "GIT_SHALLOW_FILE",
    "GIT_GRAFT_FILE",
    "GIT_REPLACE_REF_BASE",
  ].map((name) => [name, undefined]),
);

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("The git operation was aborted.", "AbortError");
}

/**
 * Runs `git` with `args` and collects stdout (raw bytes) and stderr, the
 * host's repository-locating `GIT_*` variables unset. Through
 * `runner` when given (own process group, tree kill on abort), else through
 * execa directly. Never throws for a non-zero exit; throws an AbortError when
 * `signal` aborts.
 */
export async function runGit(runner: ProcessRunner | undefined, binary: string, args: readonly string[], options: RunGitOptions): Promise<GitCommandResult> {
  const signal = options.signal;
  if (signal?.aborted) throw abortError(signal);
  // Undefined values are dropped from the child's environment (by the runner and by execa alike).
  const env: Record<string, string | undefined> = { ...UNSET_LOCATING_VARIABLES, ...GIT_ENVIRONMENT, ...options.env };
  if (runner) {
    const child = runner.spawn({ command: binary, args, cwd: options.cwd, env, input: options.input, signal });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.onOutput((chunk) => (chunk.stream === "stdout" ? stdout : stderr).push(chunk.data));
    const exit = await child.exited;
    await child.outputClosed;
    if (signal?.aborted) throw abortError(signal);
    return { exitCode: exit.exitCode, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString("utf8") };
  }
  const result = await execa(binary, [...args], {
    cwd: options.cwd,
    env,
    input: options.input,
    encoding: "buffer",
    reject: false,
    stripFinalNewline: false,
    cancelSignal: signal,
  });
  if (signal?.aborted) throw abortError(signal);
  return {
    exitCode: result.exitCode ?? null,
    stdout: Buffer.from(result.stdout as Uint8Array),
    stderr: Buffer.from(result.stderr as Uint8Array).toString("utf8"),
  };
}
