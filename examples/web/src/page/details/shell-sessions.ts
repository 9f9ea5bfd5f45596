/**
 * The newest known state of each shell session in the chat. A Bash call that
 * hands its still-running command over as a session ends with status
 * `running`; the ProcessWait / ProcessStop calls that follow it report how
 * the session went on. The Bash card shows the newest of these, so a
 * finished session does not read "running" on the card that started it.
 */
import { SHELL_TOOL_NAMES, type ShellView, shellView } from "@agent-tools/example-cli/display/shell-view";
import type { ChatItem } from "../view-state.js";

/** The latest status and exit code reported for one session. */
export interface SessionState {
  status?: string;
  exitCode?: number | null;
}

/**
 * The latest state of every session, by session id, from the finished shell
 * calls in chat order (a later call's report replaces an earlier one's).
 *
 * @example
 * latestSessionStates(items).get("bash-1")?.status; // "completed"
 */
export function latestSessionStates(items: readonly ChatItem[]): Map<string, SessionState> {
  const states = new Map<string, SessionState>();
  for (const item of items) {
    if (item.kind !== "tool" || !item.result || !SHELL_TOOL_NAMES.includes(item.toolName)) continue;
    const view = shellView(item.result.details);
    if (!view?.sessionId || view.status === undefined) continue;
    states.set(view.sessionId, { status: view.status, exitCode: view.exitCode });
  }
  return states;
}

/**
 * What a shell card's footer shows: its own result's facts, with the status
 * and exit code replaced by the session's newest ones when a later call
 * reported them.
 */
export function footerFacts(own: ShellView, latest: SessionState | undefined): SessionState {
  if (!latest || own.status !== "running") return { status: own.status, exitCode: own.exitCode };
  return { status: latest.status, exitCode: latest.exitCode ?? own.exitCode };
}
