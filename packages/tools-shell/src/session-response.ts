import type { ToolOutput } from "@agent-tools/core";
import type { OutputFragment, OutputPage } from "./output-ring-buffer.js";
import type { ShellInfo } from "./shell-environment.js";
import type { ResumableSession } from "./resumable-session.js";
import type { ShellSessionStatus } from "./shell-session.js";
import { MAX_TIMEOUT_MS } from "./timeout-policy.js";

/** The `details` of Bash (resumable), ProcessWait and ProcessStop: the raw session response. */
export interface ShellSessionResponse extends ShellInfo {
  status: ShellSessionStatus;
  session_id: string;
  /** Absolute offset after the last byte returned; pass it to ProcessWait. */
  cursor: number;
  /** Output in arrival order; adjacent fragments of a stream merged. */
  output: OutputFragment[];
  /** History the caller asked for had been evicted from the 1 MiB buffer. */
  output_truncated: boolean;
  /** More buffered output follows `cursor`. */
  has_more: boolean;
  exit_code: number | null;
  /** `none` or the mechanism confining the command (e.g. `bubblewrap`); the sandbox confines local commands only. */
  sandbox: string;
  /** The label of the non-local workspace the command runs on (e.g. `ssh://dev@10.0.0.5:22`); absent on this machine. */
  workspace?: string;
  /** From the first start to the terminal state (frozen) or now. Never sum it across responses. */
  duration_ms: number;
  timeout_ms: number | null;
  /** Display form of the working directory. */
  cwd: string;
  command: string;
  /** Offset of the newest byte the session has produced. */
  next_cursor: number;
  /** The wait this call used, after clamping. */
  yield_time_ms?: number;
  /** The highest hard timeout a session accepts (600000). */
  max_timeout_ms: number;
  /** A durable session (its process outlives the host; ProcessWait reattaches after a restart). */
  durable?: true;
  /** Durable sessions: pids of processes the command left running after its shell exited (ProcessStop ends them). */
  descendants_alive?: number[];
}

/** Builds the response of a session from a page. */
export function buildSessionResponse(
  session: ResumableSession,
  page: OutputPage,
  info: ShellInfo,
  cwdDisplay: string,
  statusOverride?: ShellSessionStatus,
): ShellSessionResponse {
  const status = statusOverride ?? session.status;
  return {
    status,
    session_id: session.id,
    cursor: page.cursor,
    output: page.output,
    output_truncated: page.outputTruncated,
    has_more: page.hasMore,
    exit_code: status === "running" ? null : (session.exitCode ?? -1),
    duration_ms: session.durationMs,
    ...info,
    sandbox: session.sandbox,
    ...(session.workspace === undefined ? {} : { workspace: session.workspace }),
    timeout_ms: session.timeoutMs ?? null,
    cwd: cwdDisplay,
    command: session.command,
    next_cursor: session.buffer.nextCursor,
    max_timeout_ms: MAX_TIMEOUT_MS,
    ...(session.durable ? { durable: true as const } : {}),
    ...(session.descendantsAlive && session.descendantsAlive.length > 0 ? { descendants_alive: [...session.descendantsAlive] } : {}),
  };
}

function section(label: string, text: string): string {
  return `${label}:\n${text}${text.endsWith("\n") ? "" : "\n"}`;
}

/**
 * Renders a session response for the model. `separateStreams` shows
 * `stdout:` and `stderr:` apart (a start call that already ended); otherwise
 * one `output:` section in arrival order.
 */
export function renderSessionResponse(response: ShellSessionResponse, separateStreams: boolean): string {
  const lines = ["# Shell Session", `status: ${response.status}`, `session_id: ${response.session_id}`, `cursor: ${response.cursor}`];
  if (response.has_more) lines.push("has_more: true");
  if (response.output_truncated) lines.push("output_truncated: true");
  lines.push(
    `shell: ${response.shell} (platform: ${response.platform}, profile: ${response.profile}, shell_family: ${response.shell_family}, sandbox: ${response.sandbox})`,
  );
  if (response.workspace !== undefined) lines.push(`workspace: ${response.workspace}`);
  lines.push(`cwd: ${response.cwd}`);
  if (response.exit_code !== null) lines.push(`exit_code: ${response.exit_code}`);
  if (response.timeout_ms !== null) lines.push(`timeout_ms: ${response.timeout_ms}`);
  if (response.descendants_alive) lines.push(`descendants_alive: ${response.descendants_alive.length} (pids ${response.descendants_alive.join(", ")})`);
  lines.push(`session_duration_ms: ${response.duration_ms}`);
  let text = `${lines.join("\n")}\n`;
  if (separateStreams) {
    const join = (stream: string) =>
      response.output
        .filter((fragment) => fragment.stream === stream)
        .map((fragment) => fragment.text)
        .join("");
    const stdout = join("stdout");
    const stderr = join("stderr");
    text += `\n${section("stdout", stdout === "" ? "(empty)" : stdout)}`;
    if (stderr !== "") text += section("stderr", stderr);
  } else if (response.output.length > 0) {
    const body = response.output.map((fragment) => fragment.text).join("");
    text += `\n${section("output", body)}`;
  } else {
    text += "\noutput: (no new output)\n";
  }
  const hints: string[] = [];
  if (response.output_truncated) {
    hints.push("Earlier output was evicted from the session's 1 MiB buffer before it was read; the page starts at the oldest output still held.");
  }
  const wait = `ProcessWait(session_id="${response.session_id}", cursor=${response.cursor})`;
  if (response.status === "running") {
    hints.push(`Command is still running. Continue with ${wait}. Do not call Bash sleep and do not start the command again.`);
  } else if (response.has_more) {
    hints.push(`More buffered output is available. Call ${wait} to read it.`);
  }
  if (response.descendants_alive) {
    hints.push("The shell exited but processes it started still run; ProcessStop(session_id) ends them.");
  }
  if (response.status === "lost") {
    hints.push(
      "The command's process ended while no host watched it, so its exit status is unknown; the output above is all that was logged. Check its effects before running it again.",
    );
  }
  if (response.status === "timed_out") hints.push(`The command hit its hard timeout of ${response.timeout_ms} ms and its whole process tree was killed.`);
  if (hints.length > 0) text += `\n${hints.join("\n")}\n`;
  return text;
}

/** A tool output for a session response: an error only for `failed` and `timed_out`. */
export function sessionOutput(response: ShellSessionResponse, separateStreams = false): ToolOutput<ShellSessionResponse> {
  return {
    content: renderSessionResponse(response, separateStreams),
    details: response,
    isError: response.status === "failed" || response.status === "timed_out" || response.status === "lost",
  };
}
