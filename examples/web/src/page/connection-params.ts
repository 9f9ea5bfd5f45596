/**
 * Where the page connects: the token and the conversation id from the page's
 * URL, and the gateway's `/page` WebSocket URL built from them.
 */
import { CONVERSATION_ID_PATTERN } from "../protocol/messages.js";

/** The token and conversation of this page. */
export interface ConnectionParams {
  token: string;
  conversationId: string;
  /** True when the id was generated here (the caller writes it into the URL). */
  generated: boolean;
}

/**
 * Reads `?token=` and `?conversation=` from a page URL. A missing or
 * malformed conversation id is replaced by a new one.
 *
 * @example
 * readConnectionParams("http://127.0.0.1:8080/?token=t&conversation=c1"); // { token: "t", conversationId: "c1", generated: false }
 */
export function readConnectionParams(pageUrl: string, newId: () => string = randomId): ConnectionParams {
  const url = new URL(pageUrl);
  const token = url.searchParams.get("token") ?? "";
  const given = url.searchParams.get("conversation");
  if (given !== null && CONVERSATION_ID_PATTERN.test(given)) return { token, conversationId: given, generated: false };
  return { token, conversationId: newId(), generated: true };
}

/** The page URL with `conversation` set, for `history.replaceState`, so a reload keeps the conversation. */
export function urlWithConversation(pageUrl: string, conversationId: string): string {
  const url = new URL(pageUrl);
  url.searchParams.set("conversation", conversationId);
  return url.toString();
}

/**
 * The gateway's WebSocket URL for this page: `/page` on the page's own host,
 * `ws:` or `wss:` after the page's scheme.
 *
 * @example
 * pageSocketUrl("http://127.0.0.1:8080/?token=t", { token: "t", conversationId: "c1" }, 7);
 * // "ws://127.0.0.1:8080/page?token=t&conversation=c1&after=7"
 */
export function pageSocketUrl(pageUrl: string, params: { token: string; conversationId: string }, after: number): string {
  const url = new URL("/page", pageUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  url.searchParams.set("token", params.token);
  url.searchParams.set("conversation", params.conversationId);
  url.searchParams.set("after", String(after));
  return url.toString();
}

/**
 * A random id of 22 characters of `[A-Za-z0-9_-]` (conversation and message
 * ids). Uses `crypto.getRandomValues`, which also works on plain-HTTP pages
 * where `crypto.randomUUID` is missing.
 */
export function randomId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  const bytes = crypto.getRandomValues(new Uint8Array(22));
  let id = "";
  for (const byte of bytes) id += alphabet[byte & 63];
  return id;
}
