/**
 * The page's whole state machine: gateway messages, the socket's state and
 * the user's own sends, folded into one {@link ViewState}. Pure.
 */
import type { GatewayToPageMessage } from "../protocol/messages.js";
import { applyEvent } from "./apply-event.js";
import { type ChatItem, type SocketStatus, type ViewState, createInitialViewState } from "./view-state.js";

/** What changes the page's state. */
export type PageAction =
  | { type: "gateway"; message: GatewayToPageMessage }
  | { type: "socket"; status: SocketStatus }
  | { type: "user-message-sent"; messageId: string; text: string };

/**
 * Folds one action into the state. A `welcome` whose `latestSeq` is below
 * what the page already applied means the gateway lost its buffer
 * (restarted): the chat is cleared so the replay from 0 rebuilds it. A
 * `firstSeq` past the page's next event means the bounded buffer dropped
 * some: a notice says so.
 *
 * @example
 * const state = pageReducer(createInitialViewState(), { type: "gateway", message: { type: "host-status", host: null } });
 */
export function pageReducer(state: ViewState, action: PageAction): ViewState {
  switch (action.type) {
    case "socket":
      return state.socket === action.status ? state : { ...state, socket: action.status };
    case "user-message-sent":
      return {
        ...state,
        gatewayError: undefined,
        items: [...state.items, { kind: "user", key: `user:${action.messageId}`, messageId: action.messageId, text: action.text, delivery: "pending" }],
      };
    case "gateway":
      return applyGatewayMessage(state, action.message);
  }
}

function applyGatewayMessage(state: ViewState, message: GatewayToPageMessage): ViewState {
  switch (message.type) {
    case "welcome": {
      const base = message.latestSeq < state.lastSeq ? { ...createInitialViewState(), socket: state.socket } : state;
      const firstSeq = message.firstSeq;
      if (firstSeq === undefined || firstSeq <= base.lastSeq + 1 || firstSeq > message.latestSeq) return { ...base, host: message.host };
      // The gateway's buffer is bounded: what came before `firstSeq` is gone, the replay starts later.
      const gap: ChatItem = {
        kind: "notice",
        key: `notice:gap:${firstSeq}`,
        level: "warning",
        message: `Events ${base.lastSeq + 1}-${firstSeq - 1} of this conversation are no longer kept by the gateway; the chat shows what followed.`,
      };
      return { ...base, host: message.host, items: [...base.items, gap] };
    }
    case "host-status":
      return { ...state, host: message.host };
    case "event":
      return applyEvent(state, message.seq, message.event);
    case "error":
      return {
        ...state,
        gatewayError: message.message,
        items: state.items.map((item) => (item.kind === "user" && item.delivery === "pending" ? { ...item, delivery: "failed" as const } : item)),
      };
    default:
      return state;
  }
}
