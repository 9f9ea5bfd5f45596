/**
 * Runs a bash task: its script with `bash -c` in its workdir, stdout and
 * stderr merged in arrival order, under its timeout; a timeout or an abort
 * kills the whole process tree.
 */
import type { ProcessRunner, SandboxPolicy, SandboxState } from "@agent-tools/core";
import type { CronTask } from "../domain/cron-types.js";
import { CRON_LIMITS } from "../domain/cron-types.js";
import { capRunOutput } from "../domain/cron-run-output.js";
import { type CronTaskOutcome, type CronTaskRunContext, workdirProblem } from "./cron-task-outcome.js";

/** Options of {@link runBashTask}. */
export interface BashTaskRunOptions extends CronTaskRunContext {
  readonly processRunner: ProcessRunner;
  /** Confine the script; absent: it runs unconfined. */
  readonly sandbox?: CronBashSandbox;
}

/**
 * The confinement of bash tasks: the host's sandbox state (confining, or
 * `unavailable`: then every bash run fails without starting) and the policy
 * for a task's workdir (its writable directory).
 */
export interface CronBashSandbox {
  readonly state: SandboxState;
  policy(workdir: string): SandboxPolicy;
}

/**
 * Runs `task.script` once. Never throws: a missing workdir, a failed start,
 * a non-zero exit, a timeout or an abort come back as a failed outcome whose
 * output says what happened (a missing workdir also sets `disableTask`).
 * Processes the script left running in the background are killed when it
 * ends: a run leaves nothing behind.
 *
 * @example
 * const outcome = await runBashTask(task, { processRunner: new ExecaProcessRunner() });
 */
export async function runBashTask(task: CronTask, options: BashTaskRunOptions): Promise<CronTaskOutcome> {
  if (task.script === undefined || task.script.trim() === "") {
    return { success: false, exitCode: null, output: `Task ${task.id} has no script. Update the task with a script.` };
  }
  const problem = await workdirProblem(task.workdir, task.id);
  if (problem !== undefined) return { success: false, exitCode: null, output: problem, disableTask: true };
  if (options.signal?.aborted) return { success: false, exitCode: null, output: "The run was cancelled before it started." };

  const sandbox = options.sandbox;
  // Fail closed: a sandbox that was asked for but cannot start runs nothing.
  if (sandbox?.state.unavailable !== undefined) return { success: false, exitCode: null, output: `The script was not run: ${sandbox.state.unavailable}` };

  const timeoutMs = (task.timeoutSeconds > 0 ? task.timeoutSeconds : CRON_LIMITS.timeoutDefaultSeconds) * 1000;
  const spawn = { command: task.script, shell: "/bin/bash", cwd: task.workdir as string };
  const child = options.processRunner.spawn(sandbox?.state.sandbox ? sandbox.state.sandbox.confine(spawn, sandbox.policy(spawn.cwd)) : spawn);
  const chunks: string[] = [];
  let length = 0;
  const unsubscribe = child.onOutput((chunk) => {
    // Keep a little more than the cap: the rest would be cut anyway.
    if (length > CRON_LIMITS.outputMaxChars) return;
    const text = chunk.data.toString("utf8");
    chunks.push(text);
    length += text.length;
  });

  let ending: "timeout" | "aborted" | undefined;
  const stopTree = (why: "timeout" | "aborted") => {
    if (ending === undefined) ending = why;
    void child.kill();
  };
  const timer = setTimeout(() => stopTree("timeout"), timeoutMs);
  const onAbort = () => stopTree("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await child.exited;
    await Promise.race([child.outputClosed, delay(2_000)]);
    // A cron run leaves nothing behind: background children still alive are ended too.
    if (ending !== undefined || child.isTreeAlive()) await child.kill();
    let output = chunks.join("");
    if (exit.error !== undefined) output += `${separator(output)}The script could not start: ${exit.error}`;
    if (ending === "timeout") {
      output += `${separator(output)}Timed out after ${timeoutMs / 1000} s: the script and every process it started were killed. Raise timeout_seconds or make the script faster.`;
    } else if (ending === "aborted") {
      output += `${separator(output)}The run was cancelled: the script and every process it started were killed.`;
    } else if (exit.exitCode !== 0) {
      output += `${separator(output)}${exit.exitCode === null ? `Killed by ${exit.signal ?? "a signal"}.` : `Exit code ${exit.exitCode}.`}`;
    }
    const exitCode = ending !== undefined ? null : exit.exitCode;
    return { success: ending === undefined && exit.exitCode === 0, exitCode, output: capRunOutput(output) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    unsubscribe();
  }
}

/** A newline unless `text` is empty or already ends with one. */
function separator(text: string): string {
  return text === "" || text.endsWith("\n") ? "" : "\n";
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
