/**
 * Shape checks of what the gateway receives: page commands and host
 * messages. The gateway forwards only what passes; each failure is a
 * sentence the sender can act on.
 */
import { CONVERSATION_ID_PATTERN, type ConversationEvent, type HostMessage, type PageCommand, WEB_PROTOCOL_VERSION } from "../protocol/messages.js";

/** A parse result: the value, or why it was refused. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** Longest chat message a page may send, in characters. */
export const MAX_USER_MESSAGE_CHARS = 100_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string): Checked<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "The message is not valid JSON: send one JSON object per WebSocket text frame." };
  }
  if (!isRecord(value) || typeof value.type !== "string") {
    return { ok: false, message: 'The message must be a JSON object with a string "type".' };
  }
  return { ok: true, value };
}

function badField(type: string, field: string, expected: string): Checked<never> {
  return { ok: false, message: `A "${type}" message needs ${field} (${expected}).` };
}

/**
 * Checks a page's command. `conversationId` must be the conversation the page
 * connected to.
 *
 * @example
 * const checked = parsePageCommand(text, "c1");
 * if (checked.ok) forward(checked.value);
 */
export function parsePageCommand(text: string, conversationId: string): Checked<PageCommand> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const message = parsed.value;
  const type = message.type as string;
  if (type !== "user-message" && type !== "stop" && type !== "approval-answer") {
    return { ok: false, message: `Unknown command type "${type}": a page sends "user-message", "stop" or "approval-answer".` };
  }
  if (typeof message.conversationId !== "string" || !CONVERSATION_ID_PATTERN.test(message.conversationId)) {
    return badField(type, "conversationId", "1-64 characters of A-Z, a-z, 0-9, _ and -");
  }
  if (message.conversationId !== conversationId) {
    return {
      ok: false,
      message: `This connection is for conversation "${conversationId}", not "${message.conversationId}": reconnect with ?conversation=${message.conversationId}.`,
    };
  }
  switch (type) {
    case "user-message":
      if (typeof message.messageId !== "string" || message.messageId.length === 0 || message.messageId.length > 128) {
        return badField(type, "messageId", "a string of 1-128 characters");
      }
      if (typeof message.text !== "string" || message.text.trim() === "") return badField(type, "text", "a non-empty string");
      if (message.text.length > MAX_USER_MESSAGE_CHARS) return badField(type, "text", `at most ${MAX_USER_MESSAGE_CHARS} characters`);
      return { ok: true, value: { type, conversationId, messageId: message.messageId, text: message.text } };
    case "stop":
      return { ok: true, value: { type, conversationId } };
    default:
      if (typeof message.requestId !== "string" || message.requestId === "") return badField(type, "requestId", "the approval-request's requestId");
      if (typeof message.approved !== "boolean") return badField(type, "approved", "true or false");
      return { ok: true, value: { type: "approval-answer", conversationId, requestId: message.requestId, approved: message.approved } };
  }
}

/**
 * Checks a host's message: `host-hello` with this protocol version, or an
 * `event` of a valid conversation.
 *
 * @example
 * const checked = parseHostMessage(text);
 */
export function parseHostMessage(text: string): Checked<HostMessage> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const message = parsed.value;
  if (message.type === "host-hello") {
    if (message.protocol !== WEB_PROTOCOL_VERSION) {
      return { ok: false, message: `The host speaks protocol ${String(message.protocol)}; this gateway speaks ${WEB_PROTOCOL_VERSION}.` };
    }
    if (typeof message.model !== "string" || typeof message.workdir !== "string") return badField("host-hello", "model and workdir", "strings");
    return { ok: true, value: { type: "host-hello", protocol: WEB_PROTOCOL_VERSION, model: message.model, workdir: message.workdir } };
  }
  if (message.type === "event") {
    if (typeof message.conversationId !== "string" || !CONVERSATION_ID_PATTERN.test(message.conversationId)) {
      return badField("event", "conversationId", "1-64 characters of A-Z, a-z, 0-9, _ and -");
    }
    if (!isRecord(message.event) || typeof message.event.type !== "string") return badField("event", "event", 'an object with a string "type"');
    return { ok: true, value: { type: "event", conversationId: message.conversationId, event: message.event as unknown as ConversationEvent } };
  }
  return { ok: false, message: `Unknown host message type "${String(message.type)}": a host sends "host-hello" or "event".` };
}
