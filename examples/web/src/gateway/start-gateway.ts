/**
 * The gateway: an HTTP server that serves the built page and two WebSocket
 * endpoints, `/page` for browsers and `/host` for the executing host. It runs
 * no tool and reads no workspace: it checks, numbers, buffers and forwards.
 *
 * Invariants:
 * - Every WebSocket upgrade carries the token (`?token=`), compared in
 *   constant time; a wrong or missing one is refused with 401 before any
 *   WebSocket exists. A browser's `Origin` must be this gateway's own
 *   `http://127.0.0.1:<port>` / `http://localhost:<port>` / bound host (403
 *   otherwise); clients that send no Origin (Node) pass on the token alone.
 * - At most one host: while one is connected, another is refused with 409
 *   (a host retries with backoff, so it takes over once the first is gone;
 *   replacing instead would let two hosts knock each other out forever).
 * - A page receives `welcome`, then every buffered event after its `after`,
 *   then live events; all sends happen synchronously in one tick, so no live
 *   event can slip between the replay and the subscription.
 * - This module imports no tool, registry or SDK package (only `ws`, Node and
 *   the protocol's types), so it can run where no workspace is readable.
 */
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { type WebSocket, WebSocketServer } from "ws";
import type { GatewayHostStatusMessage, GatewayToPageMessage, GatewayWelcomeMessage } from "../protocol/messages.js";
import { CONVERSATION_ID_PATTERN, WEB_PROTOCOL_VERSION } from "../protocol/messages.js";
import { parseHostMessage, parsePageCommand } from "./message-validation.js";
import { DEFAULT_REPLAY_LIMITS, ReplayBuffer, type ReplayBufferLimits } from "./replay-buffer.js";
import { servePageFile } from "./static-files.js";

/** The built page: `examples/web/dist/page` (the same from `src/gateway` and `dist/gateway`). */
export const DEFAULT_PAGE_DIR = fileURLToPath(new URL("../../dist/page", import.meta.url));

/** Options of {@link startGateway}. */
export interface GatewayOptions {
  /** Interface to listen on; default `127.0.0.1` (reachable from this machine only). */
  host?: string;
  /** Port; default 0 (any free port). */
  port?: number;
  /** The shared secret pages and the host must present as `?token=`. */
  token: string;
  /** The built page; default {@link DEFAULT_PAGE_DIR}. */
  pageDir?: string;
  /** Bounds of each conversation's replay buffer; default 10,000 events or 20 MB. */
  replayLimits?: Partial<ReplayBufferLimits>;
  /** Conversations kept; past it the least recently active one is forgotten. Default 200. */
  maxConversations?: number;
}

/** A running gateway. */
export interface Gateway {
  /** `http://<host>:<port>` (no token). */
  readonly url: string;
  readonly port: number;
  /** Closes every connection and the server. */
  close(): Promise<void>;
}

/** A page whose socket has this much unsent data is dropped (it reconnects with `after` and misses nothing). */
const MAX_PAGE_BACKLOG_BYTES = 64 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

interface HostConnection {
  socket: WebSocket;
  hello?: { model: string; workdir: string };
}

/**
 * Starts the gateway.
 *
 * @example
 * const gateway = await startGateway({ token: randomBytes(24).toString("base64url") });
 * console.log(`${gateway.url}/?token=...`);
 * await gateway.close();
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  if (typeof options.token !== "string" || options.token.length < 8) {
    throw new TypeError("startGateway needs a token of at least 8 characters (e.g. crypto.randomBytes(24).toString('base64url')).");
  }
  const bindHost = options.host ?? "127.0.0.1";
  const pageDir = options.pageDir ?? DEFAULT_PAGE_DIR;
  const limits: ReplayBufferLimits = { ...DEFAULT_REPLAY_LIMITS, ...options.replayLimits };
  const maxConversations = options.maxConversations ?? 200;
  const expectedToken = Buffer.from(options.token);

  const conversations = new Map<string, ReplayBuffer>();
  const pages = new Map<string, Set<WebSocket>>();
  let host: HostConnection | undefined;

  const server = http.createServer((request, response) => {
    void servePageFile(request, response, pageDir).catch(() => response.destroy());
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  const alive = new WeakSet<WebSocket>();

  const tokenMatches = (given: string | null): boolean => {
    if (given === null) return false;
    const buffer = Buffer.from(given);
    return buffer.length === expectedToken.length && timingSafeEqual(buffer, expectedToken);
  };
  const originAllowed = (origin: string | undefined, port: number): boolean => {
    if (origin === undefined) return true;
    const allowed = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://${bindHost}:${port}`, `http://[::1]:${port}`]);
    return allowed.has(origin.toLowerCase());
  };
  const refuse = (socket: Socket, status: number, reason: string, text: string) => {
    const body = `${text}\n`;
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };
  const bufferOf = (conversationId: string): ReplayBuffer => {
    let buffer = conversations.get(conversationId);
    if (buffer) {
      // Most recently active last, so the first is the one to forget.
      conversations.delete(conversationId);
    } else {
      buffer = new ReplayBuffer(conversationId, limits);
    }
    conversations.set(conversationId, buffer);
    // Forget the least recently active conversations that no page is watching.
    for (const candidate of conversations.keys()) {
      if (conversations.size <= maxConversations) break;
      if (candidate !== conversationId && !pages.has(candidate)) conversations.delete(candidate);
    }
    return buffer;
  };
  const sendTo = (socket: WebSocket, frame: string) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_PAGE_BACKLOG_BYTES) {
      socket.close(1013, "Too far behind: reconnect with after=<last seq>.");
      return;
    }
    socket.send(frame);
  };
  const sendMessage = (socket: WebSocket, message: GatewayToPageMessage) => sendTo(socket, JSON.stringify(message));
  const hostStatus = (): GatewayHostStatusMessage["host"] => (host?.hello ? { ...host.hello } : null);
  const broadcastHostStatus = () => {
    const frame = JSON.stringify({ type: "host-status", host: hostStatus() } satisfies GatewayHostStatusMessage);
    for (const set of pages.values()) for (const socket of set) sendTo(socket, frame);
  };

  const acceptPage = (socket: WebSocket, conversationId: string, after: number) => {
    const buffer = conversations.get(conversationId);
    const welcome: GatewayWelcomeMessage = {
      type: "welcome",
      protocol: WEB_PROTOCOL_VERSION,
      conversationId,
      host: hostStatus(),
      latestSeq: buffer?.latestSeq ?? 0,
      firstSeq: buffer?.firstSeq ?? 1,
    };
    sendMessage(socket, welcome);
    for (const frame of buffer?.framesAfter(after) ?? []) sendTo(socket, frame);
    let set = pages.get(conversationId);
    if (!set) pages.set(conversationId, (set = new Set()));
    set.add(socket);
    socket.on("message", (data, isBinary) => {
      if (isBinary) return sendMessage(socket, { type: "error", message: "Binary frames are not accepted: send JSON text frames." });
      const checked = parsePageCommand(data.toString(), conversationId);
      if (!checked.ok) return sendMessage(socket, { type: "error", message: checked.message });
      if (!host?.hello || host.socket.readyState !== host.socket.OPEN) {
        return sendMessage(socket, {
          type: "error",
          message: "No executing host is connected, so nothing can run: start one (see the web example's README) and send again.",
        });
      }
      host.socket.send(JSON.stringify(checked.value));
    });
    socket.on("close", () => {
      set.delete(socket);
      if (set.size === 0) pages.delete(conversationId);
    });
  };

  const acceptHost = (socket: WebSocket) => {
    const connection: HostConnection = { socket };
    host = connection;
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const checked = parseHostMessage(data.toString());
      if (!checked.ok) {
        // A host that speaks another protocol cannot be served; anything else is dropped with a note in the host's close reason.
        if (connection.hello === undefined) socket.close(1008, checked.message.slice(0, 120));
        return;
      }
      const message = checked.value;
      if (message.type === "host-hello") {
        connection.hello = { model: message.model, workdir: message.workdir };
        broadcastHostStatus();
        return;
      }
      const { frame } = bufferOf(message.conversationId).append(message.event);
      for (const page of pages.get(message.conversationId) ?? []) sendTo(page, frame);
    });
    socket.on("close", () => {
      if (host !== connection) return;
      host = undefined;
      if (connection.hello) broadcastHostStatus();
    });
  };

  server.on("upgrade", (request, socket: Socket, head) => {
    socket.on("error", () => socket.destroy());
    const port = (server.address() as AddressInfo).port;
    const url = new URL(request.url ?? "/", "http://gateway.invalid");
    if (url.pathname !== "/page" && url.pathname !== "/host") return refuse(socket, 404, "Not Found", "WebSocket endpoints: /page and /host.");
    if (!tokenMatches(url.searchParams.get("token"))) {
      return refuse(socket, 401, "Unauthorized", "Missing or wrong token: use the URL with ?token=... that the gateway printed.");
    }
    if (!originAllowed(request.headers.origin, port)) {
      return refuse(socket, 403, "Forbidden", "WebSockets are accepted only from the gateway's own page (Origin mismatch).");
    }
    if (url.pathname === "/host") {
      if (host) return refuse(socket, 409, "Conflict", "Another executing host is connected; this one may retry once it is gone.");
      return sockets.handleUpgrade(request, socket, head, (ws) => {
        watch(ws);
        acceptHost(ws);
      });
    }
    const conversationId = url.searchParams.get("conversation") ?? "";
    if (!CONVERSATION_ID_PATTERN.test(conversationId)) {
      return refuse(socket, 400, "Bad Request", "Name a conversation: ?conversation= 1-64 characters of A-Z, a-z, 0-9, _ and -.");
    }
    const afterText = url.searchParams.get("after") ?? "0";
    if (!/^\d{1,15}$/.test(afterText)) return refuse(socket, 400, "Bad Request", "after must be a whole number (the last seq the page has).");
    sockets.handleUpgrade(request, socket, head, (ws) => {
      watch(ws);
      acceptPage(ws, conversationId, Number(afterText));
    });
  });

  // Dead peers (a laptop lid closed, a killed process without a FIN) are found by ping/pong and dropped.
  const watch = (ws: WebSocket) => {
    alive.add(ws);
    ws.on("pong", () => alive.add(ws));
    ws.on("error", () => ws.terminate());
  };
  const heartbeat = setInterval(() => {
    for (const ws of sockets.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = bindHost.includes(":") ? `[${bindHost}]` : bindHost;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: async () => {
      clearInterval(heartbeat);
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
