/**
 * The executing host's link to the gateway: it connects OUT to
 * `/host?token=<host token>`, says `host-hello`, runs the commands the
 * gateway forwards (see {@link ConversationTurns}) and sends their events
 * back.
 *
 * Invariants:
 * - The host reconnects with backoff (250 ms doubling to 5 s) whenever the
 *   link drops or is refused (gateway restarting, another host connected),
 *   until `close()`.
 * - Turns keep running while the link is down; their events wait in an
 *   outbox (at most 10,000, oldest dropped) and go out, in order, right after
 *   the next `host-hello`.
 */
import { WebSocket } from "ws";
import type { ConversationEvent, GatewayToHostMessage, HostEventMessage, HostHelloMessage } from "../protocol/messages.js";
import { WEB_PROTOCOL_VERSION } from "../protocol/messages.js";
import { ConversationTurns, type TurnSettings } from "./conversation-turns.js";

/** Options of {@link connectExecutingHost}: the turn settings and the gateway to connect to. */
export interface ExecutingHostOptions extends TurnSettings {
  /** The gateway's base URL, `http://127.0.0.1:PORT` (or `ws://`). */
  gatewayUrl: string;
  /** The gateway's host token (not the page's: that one cannot open `/host`). */
  hostToken: string;
  /** Told when the link to the gateway comes up (after `host-hello`) or goes down. */
  onConnectionChange?(connected: boolean): void;
}

/** A running executing host. */
export interface ExecutingHost {
  /** Stops every running turn, waits for them to end, and closes the link. Does not close the registry. */
  close(): Promise<void>;
}

const MAX_OUTBOX = 10_000;
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/** The `/host` WebSocket URL of a gateway base URL, with the host token. */
export function hostEndpointUrl(gatewayUrl: string, hostToken: string): string {
  const url = new URL(gatewayUrl);
  url.protocol = url.protocol === "https:" || url.protocol === "wss:" ? "wss:" : "ws:";
  url.pathname = "/host";
  url.search = "";
  url.searchParams.set("token", hostToken);
  return url.toString();
}

/**
 * Connects an executing host to a gateway and keeps it connected.
 *
 * @example
 * const registry = await buildBuiltinToolRegistry({ workdir, approval: web.approval });
 * const host = connectExecutingHost({ gatewayUrl: gateway.url, hostToken, registry, model, modelName: model.id, approval: web });
 * // ... later
 * await host.close();
 * await registry.close();
 */
export function connectExecutingHost(options: ExecutingHostOptions): ExecutingHost {
  const endpoint = hostEndpointUrl(options.gatewayUrl, options.hostToken);
  const outbox: string[] = [];
  let socket: WebSocket | undefined;
  let ready = false;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const send = (conversationId: string, event: ConversationEvent) => {
    const frame = JSON.stringify({ type: "event", conversationId, event } satisfies HostEventMessage);
    if (ready && socket?.readyState === WebSocket.OPEN) {
      socket.send(frame);
      return;
    }
    outbox.push(frame);
    if (outbox.length > MAX_OUTBOX) outbox.shift();
  };
  const turns = new ConversationTurns({
    registry: options.registry,
    model: options.model,
    modelName: options.modelName,
    systemPrompt: options.systemPrompt,
    maxTurns: options.maxTurns,
    approval: options.approval,
    emit: send,
  });

  const connect = () => {
    retryTimer = undefined;
    if (closed) return;
    const ws = new WebSocket(endpoint, { maxPayload: 16 * 1024 * 1024 });
    socket = ws;
    ws.on("open", () => {
      retryMs = FIRST_RETRY_MS;
      const hello: HostHelloMessage = { type: "host-hello", protocol: WEB_PROTOCOL_VERSION, model: options.modelName, workdir: options.registry.workdir };
      ws.send(JSON.stringify(hello));
      for (const frame of outbox.splice(0)) ws.send(frame);
      ready = true;
      options.onConnectionChange?.(true);
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      let command: GatewayToHostMessage;
      try {
        command = JSON.parse(data.toString()) as GatewayToHostMessage;
      } catch {
        return;
      }
      // The gateway checked the shape; a throw here must not take the link down.
      try {
        turns.handle(command);
      } catch (error) {
        send(command.conversationId, { type: "notice", level: "error", message: `The host could not handle ${command.type}: ${String(error)}` });
      }
    });
    // Refused upgrades (401, 409) and connection errors end in "close" too.
    ws.on("error", () => undefined);
    ws.on("close", () => {
      const wasReady = ready;
      ready = false;
      if (socket === ws) socket = undefined;
      if (wasReady) options.onConnectionChange?.(false);
      if (closed) return;
      retryTimer = setTimeout(connect, retryMs);
      retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
    });
  };
  connect();

  return {
    close: async () => {
      if (closed) return;
      await turns.stopAll();
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const ws = socket;
      if (ws && ws.readyState !== WebSocket.CLOSED) {
        // The last events (turn-end of stopped turns) go out before the link closes.
        await new Promise<void>((resolve) => {
          ws.once("close", () => resolve());
          ws.close(1000, "host closing");
        });
      }
    },
  };
}
