/**
 * SSHManager's session actions: list_sessions, create_session (with its
 * strategy), read_session, send_input and close_session.
 */
import { type ToolOutput, ToolError } from "@agent-tools/core";
import { terminalTextForModel } from "./output-buffer.js";
import type { ShellChannel, ShellSession, ShellSessions } from "./shell-sessions.js";
import { byteLimit } from "./sftp-actions.js";
import { type SshManagerDetails, formatBytes, sshResult } from "./ssh-manager-output.js";
import { SSH_MANAGER_LIMITS, type SshManagerInput } from "./ssh-manager-schema.js";

/** What session actions need of a host. */
export interface SessionHost {
  readonly id: string;
  /** Opens a login shell on a PTY in the host's root (opens the connection on first use). */
  openShell(): Promise<ShellChannel>;
}

/** After output starts, a read waits this long for a pause, so it returns a whole burst. */
const QUIET_MS = 150;

/** list_sessions. */
export function listSessions(sessions: ShellSessions, hostId: string | undefined): ToolOutput<SshManagerDetails> {
  const all = sessions.list(hostId).map((session) => session.info());
  const lines = all.map(
    (info) =>
      `${info.sessionId} on ${info.hostId}: ${info.status}${info.exitCode === undefined ? "" : ` (exit code ${info.exitCode})`}, ${formatBytes(info.unreadBytes)} unread`,
  );
  const text = all.length === 0 ? `No sessions${hostId === undefined ? "" : ` on ${hostId}`}; create_session opens one.` : lines.join("\n");
  return sshResult(text, { action: "list_sessions", ...(hostId === undefined ? {} : { hostId }), sessions: all });
}

/** create_session. */
export async function createSession(sessions: ShellSessions, host: SessionHost, strategy: SshManagerInput["strategy"]): Promise<ToolOutput<SshManagerDetails>> {
  const existing = sessions.latestOpen(host.id);
  if (strategy === "require_existing" && existing === undefined) {
    throw new ToolError("not_found", `No open session on ${host.id}; create one with strategy reuse_or_create or new.`);
  }
  if (existing !== undefined && strategy !== "new") {
    return sshResult(
      `Reusing session ${existing.id} on ${host.id} (${formatBytes(existing.output.size)} unread). send_input types into it; read_session shows its output.`,
      {
        action: "create_session",
        hostId: host.id,
        sessionId: existing.id,
        reused: true,
        sessions: [existing.info()],
      },
    );
  }
  const session = await sessions.create(host.id, () => host.openShell());
  return sshResult(`Opened session ${session.id} on ${host.id} (a login shell on a terminal). send_input types into it; read_session shows its output.`, {
    action: "create_session",
    hostId: host.id,
    sessionId: session.id,
    reused: false,
    sessions: [session.info()],
  });
}

/** read_session: output since the last read, waiting up to `timeout_ms` when none is buffered. */
export async function readSession(session: ShellSession, input: SshManagerInput, signal: AbortSignal): Promise<ToolOutput<SshManagerDetails>> {
  const maxBytes = byteLimit(input.max_bytes, SSH_MANAGER_LIMITS.readDefaultBytes, SSH_MANAGER_LIMITS.readMaxBytes);
  const waitMs = input.timeout_ms ?? SSH_MANAGER_LIMITS.readDefaultWaitMs;
  if (!Number.isInteger(waitMs) || waitMs < 0 || waitMs > SSH_MANAGER_LIMITS.readMaxWaitMs) {
    throw new ToolError(
      "invalid_arguments",
      `timeout_ms must be a whole number from 0 to ${SSH_MANAGER_LIMITS.readMaxWaitMs} (default ${SSH_MANAGER_LIMITS.readDefaultWaitMs}).`,
    );
  }
  const deadline = Date.now() + waitMs;
  if (session.output.size === 0) {
    await session.output.waitForOutput(waitMs, signal);
    if (session.output.size > 0) await session.output.waitForQuiet(QUIET_MS, deadline, signal);
  }
  if (signal.aborted) throw new ToolError("cancelled", "Cancelled.");
  const read = session.output.read(maxBytes);
  const text = terminalTextForModel(read.text);
  const notes: string[] = [];
  if (read.droppedBytes > 0)
    notes.push(
      `[${formatBytes(read.droppedBytes)} of older output were dropped unread: the buffer keeps ${formatBytes(SSH_MANAGER_LIMITS.sessionBufferBytes)}.]`,
    );
  if (read.remainingBytes > 0)
    notes.push(
      `[${formatBytes(read.remainingBytes)} more buffered: call read_session again (or pass a larger max_bytes, at most ${SSH_MANAGER_LIMITS.readMaxBytes}).]`,
    );
  if (!session.open && read.remainingBytes === 0) notes.push(`[Session ${session.id} has ended${exitNote(session)}; close_session forgets it.]`);
  const body = text === "" ? `(no new output${session.open ? ` within ${waitMs} ms` : ""})` : text;
  return sshResult([body, ...notes].join("\n"), {
    action: "read_session",
    hostId: session.hostId,
    sessionId: session.id,
    bytes: read.bytes,
    remainingBytes: read.remainingBytes,
    droppedBytes: read.droppedBytes,
    sessions: [session.info()],
  });
}

/** send_input. */
export function sendInput(session: ShellSession, input: SshManagerInput): ToolOutput<SshManagerDetails> {
  const text = input.input;
  if (text === undefined || text === "")
    throw new ToolError("invalid_arguments", "send_input needs input (the text to type; end it with a newline to press Enter).");
  if (text.length > SSH_MANAGER_LIMITS.inputMaxChars)
    throw new ToolError("too_large", `input is ${text.length} characters; send at most ${SSH_MANAGER_LIMITS.inputMaxChars} at a time.`);
  session.send(text);
  return sshResult(
    `Sent ${text.length} character${text.length === 1 ? "" : "s"} to ${session.id}${/\n$/.test(text) ? " (ending with Enter)" : ""}. read_session shows the output.`,
    {
      action: "send_input",
      hostId: session.hostId,
      sessionId: session.id,
    },
  );
}

/** close_session. */
export async function closeSession(sessions: ShellSessions, id: string): Promise<ToolOutput<SshManagerDetails>> {
  const session = await sessions.remove(id);
  return sshResult(`Closed session ${session.id} on ${session.hostId}.`, {
    action: "close_session",
    hostId: session.hostId,
    sessionId: session.id,
    sessions: [session.info()],
  });
}

function exitNote(session: ShellSession): string {
  const code = session.info().exitCode;
  return code === undefined || code === null ? "" : ` with exit code ${code}`;
}
