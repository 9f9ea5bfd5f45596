/**
 * Watches one started bash run to its end: stdout and stderr merged in
 * arrival order (capped), the task's timeout, an abort, and the whole
 * process tree killed when it ends early or left processes behind. The
 * child may run on this host or in a workspace (its `ProcessRunner`).
 */
import type { RunningProcess } from "@agent-tools/core";
import { capRunOutput } from "../domain/cron-run-output.js";
import type { CronTask } from "../domain/cron-types.js";
import { CRON_LIMITS } from "../domain/cron-types.js";
import type { CronTaskOutcome } from "./cron-task-outcome.js";

/**
 * The outcome of `child`, a started run of `task.script`. Never throws.
 *
 * @example
 * const outcome = await superviseBashRun(task, processRunner.spawn({ command: task.script!, shell: "/bin/bash", cwd }), signal);
 */
export async function superviseBashRun(task: CronTask, child: RunningProcess, signal: AbortSignal | undefined): Promise<CronTaskOutcome> {
  const timeoutMs = (task.timeoutSeconds > 0 ? task.timeoutSeconds : CRON_LIMITS.timeoutDefaultSeconds) * 1000;
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
  signal?.addEventListener("abort", onAbort, { once: true });
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
    signal?.removeEventListener("abort", onAbort);
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
