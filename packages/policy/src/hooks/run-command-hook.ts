/**
 * Runs a command hook through the registry's ProcessRunner (core's port; the
 * policy package starts no process itself): `/bin/bash -c <command>` in its
 * own process group, the input as JSON on stdin.
 *
 * - exit 0: stdout is the answer (a JSON object, or nothing for "no opinion");
 * - exit 2: blocks, with stderr as the reason;
 * - any other exit, a signal, a start failure, stdout over 1 MiB or that is
 *   not a JSON object: a failure;
 * - at the timeout (default 60 s) or when the call is aborted, the whole
 *   process tree is killed (SIGTERM, then SIGKILL) before the run returns.
 */
import { resolve } from "node:path";
import type { RunningProcess } from "@agent-tools/core";
import { type HookRunContext, type HookRunOutcome, excerpt, startHookDeadline, whenAborted } from "./hook-run.js";
import { type CommandHookHandler, type HookInput, MAX_HOOK_OUTPUT_BYTES } from "./hook-settings.js";
import { parseHookOutputText } from "./parse-hook-output.js";

/** stderr kept for the reason of an exit 2 or a failure. */
const MAX_STDERR_BYTES = 64 * 1024;

interface CollectedOutput {
  stdout: Buffer[];
  stdoutBytes: number;
  stderr: Buffer[];
  stderrBytes: number;
}

function collect(child: RunningProcess, onOverflow: () => void): CollectedOutput {
  const output: CollectedOutput = { stdout: [], stdoutBytes: 0, stderr: [], stderrBytes: 0 };
  child.onOutput((chunk) => {
    if (chunk.stream === "stdout") {
      output.stdoutBytes += chunk.data.length;
      if (output.stdoutBytes > MAX_HOOK_OUTPUT_BYTES) onOverflow();
      else output.stdout.push(chunk.data);
    } else if (output.stderrBytes < MAX_STDERR_BYTES) {
      output.stderrBytes += chunk.data.length;
      output.stderr.push(chunk.data);
    }
  });
  return output;
}

function outcomeOfExit(exit: { exitCode: number | null; signal: string | null; error?: string }, output: CollectedOutput, input: HookInput): HookRunOutcome {
  const stderr = Buffer.concat(output.stderr).toString("utf8");
  if (exit.error !== undefined) return { kind: "failed", error: `could not start: ${exit.error}` };
  if (exit.exitCode === 2) return { kind: "blocked", reason: stderr.trim() === "" ? "exited with code 2 (no reason on stderr)" : stderr.trim() };
  if (exit.exitCode !== 0) {
    const how = exit.exitCode === null ? `was killed by ${exit.signal ?? "a signal"}` : `exited with code ${exit.exitCode}`;
    return { kind: "failed", error: stderr.trim() === "" ? how : `${how}: ${excerpt(stderr)}` };
  }
  const parsed = parseHookOutputText(Buffer.concat(output.stdout).toString("utf8"), input.hook_event_name);
  return "failure" in parsed ? { kind: "failed", error: parsed.failure } : { kind: "answered", output: parsed.output };
}

/** Runs one command hook; never rejects. */
export async function runCommandHook(handler: CommandHookHandler, input: HookInput, context: HookRunContext): Promise<HookRunOutcome> {
  const runner = context.processRunner;
  if (runner === undefined) return { kind: "failed", error: "cannot run: the registry has no process runner" };
  const deadline = startHookDeadline(handler.timeoutMs, context.signal);
  let child: RunningProcess | undefined;
  try {
    if (deadline.signal.aborted) return { kind: "failed", error: deadline.why() };
    child = runner.spawn({
      command: handler.command,
      shell: true,
      cwd: resolve(context.workdir, handler.cwd ?? "."),
      env: { ...handler.env, AGENT_TOOLS_PROJECT_DIR: context.workdir, CLAUDE_PROJECT_DIR: context.workdir },
      input: JSON.stringify(input),
    });
    context.running.add(child);
    let overflow = false;
    const overflowed = new AbortController();
    const output = collect(child, () => {
      overflow = true;
      overflowed.abort();
    });
    const finished = child.exited.then(async (exit) => {
      await child?.outputClosed;
      return exit;
    });
    const exit = await Promise.race([finished, whenAborted(deadline.signal), whenAborted(overflowed.signal)]);
    if (exit === undefined) {
      await child.kill();
      return { kind: "failed", error: overflow ? `wrote more than ${MAX_HOOK_OUTPUT_BYTES} bytes to stdout` : deadline.why() };
    }
    return outcomeOfExit(exit, output, input);
  } catch (error) {
    return { kind: "failed", error: `could not start: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    deadline.dispose();
    if (child !== undefined) context.running.delete(child);
  }
}
