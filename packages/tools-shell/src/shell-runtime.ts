import { type ToolContext, ToolError, type ToolMetadata } from "@agent-tools/core";
import { type CommandPolicy, type ShellMode, checkBackgroundCommand, checkLeadingSleep, checkNulByte } from "./command-guards.js";
import type { ManagedProcessManager } from "./managed-process-manager.js";
import { COMMAND_ENVIRONMENT, type ShellInfo } from "./shell-environment.js";
import type { DurableSessions } from "./durable/durable-sessions.js";
import type { ResumableSession } from "./resumable-session.js";
import type { ShellSessionStore } from "./shell-session-store.js";

/** What the shell tools of one bundle share (never module globals). */
export interface ShellRuntime {
  readonly sessions: ShellSessionStore;
  readonly managed: ManagedProcessManager;
  readonly info: ShellInfo;
  readonly providerId?: string;
  readonly policies: CommandPolicy[];
  readonly env: Record<string, string>;
  /** Set by the host's `durableSessions` option: Bash sessions run under a supervisor and outlive the host. */
  readonly durable?: DurableSessions;
}

/** Metadata of the tools that run commands. */
export const EXECUTE_METADATA: ToolMetadata = {
  groupId: "shell",
  kind: "execute",
  isReadOnly: false,
  displayCategory: "terminal",
  annotations: { readOnly: false, destructive: true, openWorld: true, listedInPlanMode: false },
};

/** Environment of every command: the fixed additions, then the host's. */
export function commandEnvironment(runtime: ShellRuntime): Record<string, string> {
  return { ...COMMAND_ENVIRONMENT, ...runtime.env };
}

/**
 * Runs the pre-spawn checks in a fixed order: a non-empty command without
 * NUL bytes, the host's policies (the skills policy plugs in here), the
 * background guard, then (resumable mode
 * only) the sleep guard. Throws `ToolError` with guidance for the model.
 */
export async function checkCommand(
  runtime: ShellRuntime,
  toolName: string,
  command: string,
  cwd: string,
  cwdInput: string | undefined,
  mode: ShellMode,
): Promise<void> {
  if (command.trim() === "") throw new ToolError("invalid_arguments", `${toolName} needs a non-empty command.`);
  // Before the policies and the spawn: spawn would throw ERR_INVALID_ARG_VALUE, a policy might misread the command.
  const nul = checkNulByte(toolName, "command", command);
  if (nul) throw new ToolError("invalid_arguments", nul, { details: { guard: "nul" } });
  for (const policy of runtime.policies) {
    const refusal = await policy({ command, cwd, cwdInput, mode, toolName });
    if (refusal) throw new ToolError("permission_denied", refusal);
  }
  const background = checkBackgroundCommand(command);
  if (background) throw new ToolError("invalid_arguments", background, { details: { guard: "background" } });
  if (mode === "resumable") {
    const sleep = checkLeadingSleep(command);
    if (sleep) throw new ToolError("invalid_arguments", sleep, { details: { guard: "sleep" } });
  }
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9_:-]{1,128}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The session behind an id, or a `not_found` error (with a ManagedProcess
 * hint for process ids). Given the directories the call may write to
 * (`writableRootsOf`), a durable session is not looked up in a sessions
 * directory inside one of them (`unavailable`).
 */
export function requireSession(runtime: ShellRuntime, sessionId: string, writable?: readonly string[]): ResumableSession {
  if (!SESSION_ID_PATTERN.test(sessionId)) {
    throw new ToolError(
      "invalid_arguments",
      `session_id must be 1-128 characters of letters, digits, "-", "_" or ":" (got ${JSON.stringify(sessionId.slice(0, 140))}). Pass the session_id exactly as Bash returned it.`,
    );
  }
  const session = runtime.sessions.get(sessionId) ?? runtime.durable?.get(sessionId, writable);
  if (session) return session;
  let message = `shell session not found or expired: ${sessionId}. Sessions are kept for 10 minutes after they end; start the command again with Bash only if you still need it.`;
  if (UUID_PATTERN.test(sessionId)) {
    message += ` This id looks like a ManagedProcess process_id: use ManagedProcess(action="wait"|"read_log"|"stop", process_id="${sessionId}") instead.`;
  }
  throw new ToolError("not_found", message, { details: { session_id: sessionId } });
}

/** Resolves after `ms` or when `promise` settles, whichever comes first. */
export async function withTimeLimit<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The display form of a working directory. */
export function displayCwd(context: ToolContext, cwd: string): string {
  try {
    return context.paths.display(cwd);
  } catch {
    return cwd;
  }
}
