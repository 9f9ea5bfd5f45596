/**
 * SSHManager's `exec`: one command through the host's process runner (an
 * exec channel per command, own process group), stdout and stderr
 * interleaved in arrival order and capped, its exit code, and on timeout or
 * cancellation the whole remote tree killed.
 */
import { type ProcessRunner, type ToolOutput, ToolError } from "@agent-tools/core";
import { byteLimit } from "./sftp-actions.js";
import { type SshManagerDetails, formatBytes, sshResult } from "./ssh-manager-output.js";
import { SSH_MANAGER_LIMITS, type SshManagerInput } from "./ssh-manager-schema.js";

/** What exec needs of a host. */
export interface ExecHost {
  readonly id: string;
  /** The host's process runner (opens the connection on first use). */
  processes(): Promise<ProcessRunner>;
  /** The absolute directory the command runs in. */
  baseDirectory(): Promise<string>;
}

/** Runs `exec`. */
export async function runExecAction(input: SshManagerInput, host: ExecHost, signal: AbortSignal): Promise<ToolOutput<SshManagerDetails>> {
  const command = input.command;
  if (command === undefined || command.trim() === "") throw new ToolError("invalid_arguments", "exec needs command (a shell command line).");
  const maxBytes = byteLimit(input.max_bytes, SSH_MANAGER_LIMITS.execDefaultBytes, SSH_MANAGER_LIMITS.execMaxBytes);
  const timeoutMs = input.timeout_ms ?? SSH_MANAGER_LIMITS.execDefaultTimeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > SSH_MANAGER_LIMITS.execMaxTimeoutMs) {
    throw new ToolError(
      "invalid_arguments",
      `timeout_ms must be a whole number from 1 to ${SSH_MANAGER_LIMITS.execMaxTimeoutMs} (default ${SSH_MANAGER_LIMITS.execDefaultTimeoutMs}); for longer work start it in a session.`,
    );
  }
  const runner = await host.processes();
  const cwd = await host.baseDirectory();
  const child = runner.spawn({ command, shell: "/bin/sh", cwd });
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  child.onOutput(({ data }) => {
    total += data.length;
    if (kept >= maxBytes) return;
    const part = data.subarray(0, maxBytes - kept);
    chunks.push(part);
    kept += part.length;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void child.kill();
  }, timeoutMs);
  const onAbort = () => void child.kill();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await child.exited;
    if (timedOut || signal.aborted) await child.kill();
    await Promise.race([child.outputClosed, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    if (signal.aborted) throw new ToolError("cancelled", "Cancelled; the remote command was killed.");
    const output = textOf(Buffer.concat(chunks), kept < total);
    const truncated = total > kept;
    const status = timedOut
      ? `Timed out after ${timeoutMs} ms; the command and its child processes were killed.`
      : exit.error !== undefined
        ? `Could not start: ${exit.error}`
        : exit.exitCode !== null
          ? `Exit code ${exit.exitCode}.`
          : `Killed by ${exit.signal ?? "a signal"}.`;
    const note = truncated
      ? `\n[Output cut at ${formatBytes(kept)} of ${formatBytes(total)}; pass a larger max_bytes or filter the output (head, tail, grep).]`
      : "";
    const text = `$ ${command}\n${output}${output === "" || output.endsWith("\n") ? "" : "\n"}${note === "" ? "" : `${note.slice(1)}\n`}${status}`;
    const details: SshManagerDetails = {
      action: "exec",
      hostId: host.id,
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut,
      bytes: kept,
      truncated,
    };
    if (timedOut) return { content: text, details, isError: true, error: { code: "timeout", message: status, recoverable: true } };
    return sshResult(text, details);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

/** UTF-8 text of the kept output; a character cut at the cap is dropped, not mangled. */
function textOf(data: Buffer, cut: boolean): string {
  let end = data.length;
  if (cut) {
    let start = end - 1;
    while (start > 0 && end - start < 4 && (data[start]! & 0xc0) === 0x80) start -= 1;
    const lead = data[start] ?? 0;
    const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (start >= 0 && end - start < length) end = start;
  }
  return data.subarray(0, end).toString("utf8");
}
