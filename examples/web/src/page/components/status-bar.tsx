/** The page header: the executing host's status and the turn's status. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import type { ViewState } from "../view-state.js";

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  state: ViewState;
  conversationId: string;
  /** The page address has no `?token=`, so the gateway refuses the socket. */
  tokenMissing: boolean;
}

const TURN_LABELS: Record<ViewState["turnStatus"], string> = {
  idle: "idle",
  running: "running…",
  answered: "answered",
  "max-turns": "stopped at the turn limit",
  "model-error": "model error",
  aborted: "stopped",
};

/** Host: `connected` only while the page's socket is open and a host is attached to the gateway. */
export function StatusBar({ state, conversationId, tokenMissing }: StatusBarProps) {
  const connected = state.socket === "open" && state.host !== null;
  const hostText =
    state.socket !== "open"
      ? state.socket === "connecting"
        ? "connecting to the gateway…"
        : tokenMissing
          ? "no ?token= in the page address: open the address the gateway printed"
          : "cannot reach the gateway (is it running, is the token in the address right?), retrying…"
      : state.host
        ? `host connected · ${state.host.model} · ${state.host.workdir}`
        : "host disconnected: waiting for the executing host to connect";
  return (
    <header className="status-bar">
      <span className="title">agent-tools</span>
      <span
        className={`host-status ${connected ? "ok" : "bad"}`}
        data-testid={PAGE_TEST_IDS.hostStatus}
        data-status={connected ? "connected" : "disconnected"}
        title={hostText}
      >
        {hostText}
      </span>
      <span className={`turn-status turn-${state.turnStatus}`} data-testid={PAGE_TEST_IDS.turnStatus} data-status={state.turnStatus}>
        turn: {TURN_LABELS[state.turnStatus]}
      </span>
      <span className="conversation-id" title="conversation id">
        {conversationId}
      </span>
    </header>
  );
}
