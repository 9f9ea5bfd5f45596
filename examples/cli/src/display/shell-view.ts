/**
 * Reads what a display shows of a shell call from the `details` of Bash,
 * ProcessWait and ProcessStop: the session id and status (resumable form) or
 * the exit code (synchronous form), and the output the result carries.
 * Pure (no Node imports): the terminal display and the web example's chat
 * page both use it.
 */

/** One stream's text of a shell result. */
export interface ShellOutputPart {
  stream: "stdout" | "stderr";
  text: string;
}

/** The facts of a shell result that a display shows. */
export interface ShellView {
  /** `running`, `completed`, `failed`, `timed_out`, `killed`, ... as the tool reported it. */
  status?: string;
  sessionId?: string;
  exitCode?: number | null;
  durationMs?: number;
  output: ShellOutputPart[];
}

/** The tools whose results carry a shell session or run. */
export const SHELL_TOOL_NAMES: readonly string[] = ["Bash", "ProcessWait", "ProcessStop"];

/**
 * Reads a shell result's details; undefined when they hold nothing shell-like
 * (e.g. a validation error's `{ code }`).
 *
 * @example
 * shellView({ status: "running", session_id: "s1", output: [{ stream: "stdout", text: "hi\n" }], exit_code: null });
 * // { status: "running", sessionId: "s1", exitCode: null, output: [{ stream: "stdout", text: "hi\n" }] }
 */
export function shellView(details: unknown): ShellView | undefined {
  if (details === null || typeof details !== "object" || Array.isArray(details)) return undefined;
  const record = details as Record<string, unknown>;
  const status = typeof record.status === "string" ? record.status : undefined;
  const output: ShellOutputPart[] = [];
  if (Array.isArray(record.output)) {
    for (const part of record.output) {
      const item = part as Record<string, unknown> | null;
      if (item && typeof item.text === "string" && item.text !== "") output.push({ stream: item.stream === "stderr" ? "stderr" : "stdout", text: item.text });
    }
  }
  if (typeof record.stdout === "string" && record.stdout) output.push({ stream: "stdout", text: record.stdout });
  if (typeof record.stderr === "string" && record.stderr) output.push({ stream: "stderr", text: record.stderr });
  // `exit_code: null` (still running) must not fall through to `exitCode`.
  const exitRaw = "exit_code" in record ? record.exit_code : record.exitCode;
  const exitCode = typeof exitRaw === "number" ? exitRaw : exitRaw === null ? null : undefined;
  const durationRaw = record.duration_ms ?? record.durationMs;
  const durationMs = typeof durationRaw === "number" ? durationRaw : undefined;
  const sessionRaw = record.session_id ?? record.sessionId;
  const sessionId = typeof sessionRaw === "string" ? sessionRaw : undefined;
  if (status === undefined && exitCode === undefined && sessionId === undefined && output.length === 0) return undefined;
  const derived = status ?? (exitCode === undefined || exitCode === null ? undefined : exitCode === 0 ? "completed" : "failed");
  return { status: derived, sessionId, exitCode, durationMs, output };
}
