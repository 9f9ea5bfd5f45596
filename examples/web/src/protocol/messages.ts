/**
 * The wire protocol of the web example: JSON messages over two WebSocket
 * endpoints of the gateway.
 *
 * - The page connects to `/page?token=T&conversation=C&after=SEQ`.
 * - The executing host connects to `/host?token=T`.
 *
 * The gateway runs no tool and holds no workspace: it forwards what a page
 * sends to the host, stamps each host event with a per-conversation sequence
 * number, keeps the events of every conversation in a replay buffer, and
 * sends a (re)connecting page every event after the `after` it names. A page
 * that reloads mid-turn therefore sees everything it missed, in order.
 *
 * Every message is one JSON object per WebSocket text frame.
 */
import type { AgentEvent } from "@agent-tools/example-cli/agent";

/** Incremented when a message changes shape; both ends refuse another version. */
export const WEB_PROTOCOL_VERSION = 1;

/** A conversation id: 1-64 characters of `[A-Za-z0-9_-]`. */
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// ---------------------------------------------------------------------------
// Page -> gateway -> host (the gateway adds nothing but forwards as is)
// ---------------------------------------------------------------------------

/** The user sent a chat message: the host starts a turn of the agent loop. */
export interface UserMessageCommand {
  type: "user-message";
  conversationId: string;
  /** Chosen by the page; echoed in the host's `turn-start`, so the page can match its own message. */
  messageId: string;
  text: string;
}

/** The stop button: the host aborts the running turn (model request and tool calls, process trees included). */
export interface StopCommand {
  type: "stop";
  conversationId: string;
}

/** The user answered an approval prompt that the host sent as `approval-request`. */
export interface ApprovalAnswerCommand {
  type: "approval-answer";
  conversationId: string;
  requestId: string;
  approved: boolean;
}

/** What a page sends. */
export type PageCommand = UserMessageCommand | StopCommand | ApprovalAnswerCommand;

// ---------------------------------------------------------------------------
// Host -> gateway -> page: events of a conversation
// ---------------------------------------------------------------------------

/** A turn started for a user message. */
export interface TurnStartEvent {
  type: "turn-start";
  messageId: string;
  text: string;
}

/** A turn ended (after the agent loop's `session-end`), also when stopped or failed. */
export interface TurnEndEvent {
  type: "turn-end";
  messageId: string;
  status: "answered" | "max-turns" | "model-error" | "aborted";
}

/** The host asks the user to approve one tool call; answered with `approval-answer`. */
export interface ApprovalRequestEvent {
  type: "approval-request";
  requestId: string;
  callId: string;
  toolName: string;
  /** The call's arguments (parsed JSON), for the prompt. */
  arguments: unknown;
  /** The approval rule's reason, when it gave one. */
  reason?: string;
}

/** An approval request ended: answered, or cancelled because the turn stopped. */
export interface ApprovalResolvedEvent {
  type: "approval-resolved";
  requestId: string;
  approved: boolean;
  by: "user" | "cancelled";
}

/** Every event of a conversation: the agent loop's own events plus the web host's. */
export type ConversationEvent = AgentEvent | TurnStartEvent | TurnEndEvent | ApprovalRequestEvent | ApprovalResolvedEvent;

/** The host sends one event of a conversation. */
export interface HostEventMessage {
  type: "event";
  conversationId: string;
  event: ConversationEvent;
}

/** The first message of a host after it connected. */
export interface HostHelloMessage {
  type: "host-hello";
  protocol: number;
  /** Shown by the page, e.g. "scripted demo" or the model name. */
  model: string;
  workdir: string;
}

/** What a host sends. */
export type HostMessage = HostHelloMessage | HostEventMessage;

// ---------------------------------------------------------------------------
// Gateway -> page
// ---------------------------------------------------------------------------

/** The first message a page receives: whether a host is connected, and the replay that follows. */
export interface GatewayWelcomeMessage {
  type: "welcome";
  protocol: number;
  conversationId: string;
  /** Null while no executing host is connected. */
  host: { model: string; workdir: string } | null;
  /** The sequence number of the newest buffered event (0 for none). */
  latestSeq: number;
  /**
   * The oldest sequence number still buffered (`latestSeq + 1` when none):
   * the replay buffer is bounded, so events before it are gone. A page whose
   * `after` is below `firstSeq - 1` missed some; a `latestSeq` below its
   * `after` means the gateway restarted and its history is gone.
   */
  firstSeq?: number;
}

/** One event of the conversation, numbered from 1 without gaps. Replayed events look the same. */
export interface GatewayEventMessage {
  type: "event";
  conversationId: string;
  seq: number;
  event: ConversationEvent;
}

/** The executing host connected or went away. */
export interface GatewayHostStatusMessage {
  type: "host-status";
  host: { model: string; workdir: string } | null;
}

/** A command the gateway refused (bad JSON, unknown type, no host connected, ...). */
export interface GatewayErrorMessage {
  type: "error";
  message: string;
}

/** What the gateway sends a page. */
export type GatewayToPageMessage = GatewayWelcomeMessage | GatewayEventMessage | GatewayHostStatusMessage | GatewayErrorMessage;

/** What the gateway sends the host: the page commands, forwarded unchanged. */
export type GatewayToHostMessage = PageCommand;
