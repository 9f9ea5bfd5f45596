import { execa } from "execa";
import type { ProcessRunner } from "@agent-tools/core";
import { GIT_LOCATING_VARIABLES, HOST_GIT_SAFETY_ENVIRONMENT } from "@agent-tools/core/internal";

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
 * and keeps the repository from running commands on the host (hooks and
 * fsmonitor off, see `HOST_GIT_SAFETY_ENVIRONMENT`).
 */
const GIT_ENVIRONMENT: Record<string, string> = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  LC_ALL: "C",
  LANGUAGE: "C",
  GIT_PAGER: "cat",
  GIT_EDITOR: "true",
  ...HOST_GIT_SAFETY_ENVIRONMENT,
};

/**
 * The host's variables that would point git at another repository than the
 * `cwd` of a run, unset for every run; a run that needs one (a throwaway
 * index) passes it in `env`.
 */
const UNSET_LOCATING_VARIABLES: Record<string, undefined> = Object.fromEntries(GIT_LOCATING_VARIABLES.map((name) => [name, undefined]));
const LOCATING_VARIABLES: ReadonlySet<string> = new Set(GIT_LOCATING_VARIABLES);

/** {@link UNSET_LOCATING_VARIABLES} plus the host's variables of those names in any case (an environment may hold `Git_Dir`). */
function unsetLocatingVariables(): Record<string, undefined> {
  const unset: Record<string, undefined> = { ...UNSET_LOCATING_VARIABLES };
  for (const name of Object.keys(process.env)) if (LOCATING_VARIABLES.has(name.toUpperCase())) unset[name] = undefined;
  return unset;
}

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
  const env: Record<string, string | undefined> = { ...unsetLocatingVariables(), ...GIT_ENVIRONMENT, ...options.env };
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
