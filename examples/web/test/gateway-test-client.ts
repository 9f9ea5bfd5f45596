/**
 * A page as the tests see it: a real `ws` client on the gateway's `/page`
 * endpoint that records every message and waits for conditions (never for
 * fixed times).
 */
import { WebSocket } from "ws";
import type { ConversationEvent, GatewayToPageMessage, PageCommand } from "../src/protocol/messages.js";

/** The page endpoint URL of a gateway. */
export function pageUrl(gatewayUrl: string, token: string | undefined, conversation: string, after?: number): string {
  const url = new URL(gatewayUrl);
  url.protocol = "ws:";
  url.pathname = "/page";
  if (token !== undefined) url.searchParams.set("token", token);
  url.searchParams.set("conversation", conversation);
  if (after !== undefined) url.searchParams.set("after", String(after));
  return url.toString();
}

/** Resolves with the HTTP status of a refused upgrade, or "open" when it was accepted. */
export function upgradeOutcome(url: string, headers: Record<string, string> = {}): Promise<number | "open"> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on("open", () => {
      resolve("open");
      socket.close();
    });
    socket.on("error", () => undefined);
  });
}

/** Polls `condition` until it returns a value other than undefined/false. */
export async function waitFor<T>(condition: () => T | undefined | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A connected test page. */
export class TestPage {
  readonly messages: GatewayToPageMessage[] = [];
  closed = false;
  private constructor(
    readonly socket: WebSocket,
    readonly conversationId: string,
  ) {
    socket.on("message", (data) => this.messages.push(JSON.parse(data.toString()) as GatewayToPageMessage));
    socket.on("close", () => (this.closed = true));
  }

  /** Connects and waits for the welcome message. */
  static async connect(gatewayUrl: string, token: string, conversationId: string, after?: number): Promise<TestPage> {
    const socket = new WebSocket(pageUrl(gatewayUrl, token, conversationId, after));
    const page = new TestPage(socket, conversationId);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    await waitFor(() => page.messages.some((message) => message.type === "welcome"), "welcome");
    return page;
  }

  /** The numbered events received, in arrival order. */
  get events(): Array<{ seq: number; event: ConversationEvent }> {
    return this.messages.flatMap((message) => (message.type === "event" ? [{ seq: message.seq, event: message.event }] : []));
  }

  send(command: PageCommand): void {
    this.socket.send(JSON.stringify(command));
  }

  /** Sends a user message and waits for its turn-end; returns the turn's events. */
  async runTurn(messageId: string, text: string, timeoutMs = 120_000): Promise<ConversationEvent[]> {
    const startIndex = this.events.length;
    this.send({ type: "user-message", conversationId: this.conversationId, messageId, text });
    await this.waitForEvent((event) => event.type === "turn-end" && event.messageId === messageId, `turn-end of ${messageId}`, timeoutMs);
    return this.events.slice(startIndex).map((entry) => entry.event);
  }

  /** Waits for an event matching `match` and returns it. */
  waitForEvent<E extends ConversationEvent>(match: (event: ConversationEvent) => event is E, what: string, timeoutMs?: number): Promise<E>;
  waitForEvent(match: (event: ConversationEvent) => boolean, what: string, timeoutMs?: number): Promise<ConversationEvent>;
  waitForEvent(match: (event: ConversationEvent) => boolean, what: string, timeoutMs = 120_000): Promise<ConversationEvent> {
    return waitFor(() => this.events.find((entry) => match(entry.event))?.event, what, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      this.socket.once("close", () => resolve());
      this.socket.close();
    });
  }
}

/** An upgrade's outcome: the refusal's HTTP status, or the open socket. */
export interface RawSocketAttempt {
  /** The refusal's status, or 101 when the socket opened. */
  status: number;
  /** The open socket (the caller closes it); absent when refused. */
  socket?: WebSocket;
}

/** Opens a plain `ws` socket to `url` (any endpoint, any token): what an attacker's script would do. */
export function openRawSocket(url: string, headers: Record<string, string> = {}): Promise<RawSocketAttempt> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on("unexpected-response", (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.on("open", () => resolve({ status: 101, socket }));
    socket.on("error", () => resolve({ status: 0 }));
  });
}
