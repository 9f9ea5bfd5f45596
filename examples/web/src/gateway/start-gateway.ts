/**
 * The gateway: an HTTP server that serves the built page and two WebSocket
 * endpoints, `/page` for browsers and `/host` for the executing host. It runs
 * no tool and reads no workspace: it checks, numbers, buffers and forwards.
 *
 * Invariants:
 * - Two tokens with different powers (`?token=`, compared in constant
 *   time): the page token opens `/page` only, the host token `/host` only.
 *   A missing or unknown token is refused with 401, the other endpoint's
 *   token with 403, before any WebSocket exists. So the page's URL (shared,
 *   bookmarked, in browser history) never lets its holder become the host
 *   and send pages approval prompts or events of its own.
 * - A browser's `Origin` must be this gateway's own
 *   `http://127.0.0.1:<port>` / `http://localhost:<port>` / bound host (403
 *   otherwise); clients that send no Origin (Node) pass on the token alone.
 * - A page speaks only page commands (`user-message`, `stop`,
 *   `approval-answer`), rebuilt field by field before they are forwarded;
 *   pages receive only what the gateway and the host send.
 * - At most one host: while one is connected, another is refused with 409
 *   (a host retries with backoff, so it takes over once the first is gone;
 *   replacing instead would let two hosts knock each other out forever).
 * - A page receives `welcome`, then every buffered event after its `after`,
 *   then live events; all sends happen synchronously in one tick, so no live
 *   event can slip between the replay and the subscription.
 * - This module imports no tool, registry or SDK package (only `ws`, Node and
 *   the protocol's types), so it can run where no workspace is readable.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { type WebSocket, WebSocketServer } from "ws";
import type { GatewayHostStatusMessage, GatewayToPageMessage, GatewayWelcomeMessage } from "../protocol/messages.js";
import { CONVERSATION_ID_PATTERN, WEB_PROTOCOL_VERSION } from "../protocol/messages.js";
import { tokenEquals } from "./gateway-token.js";
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
  /** The secret pages present as `?token=` on `/page` (it goes into the page's URL). */
  pageToken: string;
  /** The secret only the executing host presents as `?token=` on `/host`; must differ from `pageToken`. */
  hostToken: string;
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
 * const { pageToken, hostToken } = createGatewayTokens();
 * const gateway = await startGateway({ pageToken, hostToken });
 * console.log(`${gateway.url}/?token=${pageToken}`);
 * await gateway.close();
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  if ("token" in options) {
    throw new TypeError("startGateway takes pageToken and hostToken (two different secrets, e.g. from createGatewayTokens()), not one token for both.");
  }
  for (const name of ["pageToken", "hostToken"] as const) {
    if (typeof options[name] !== "string" || options[name].length < 8) {
      throw new TypeError(`startGateway needs a ${name} of at least 8 characters (e.g. crypto.randomBytes(24).toString('base64url')).`);
    }
  }
  if (options.pageToken === options.hostToken) {
    throw new TypeError("pageToken and hostToken must differ: a page's token must not open /host.");
  }
  const { pageToken, hostToken } = options;
  const bindHost = options.host ?? "127.0.0.1";
  const pageDir = options.pageDir ?? DEFAULT_PAGE_DIR;
  const limits: ReplayBufferLimits = { ...DEFAULT_REPLAY_LIMITS, ...options.replayLimits };
  const maxConversations = options.maxConversations ?? 200;

  const conversations = new Map<string, ReplayBuffer>();
  const pages = new Map<string, Set<WebSocket>>();
  let host: HostConnection | undefined;

  const server = http.createServer((request, response) => {
    void servePageFile(request, response, pageDir).catch(() => response.destroy());
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  const alive = new WeakSet<WebSocket>();

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
    // Both comparisons always run, so the time does not say which token was given.
    const given = url.searchParams.get("token");
    const isPageToken = tokenEquals(given, pageToken);
    const isHostToken = tokenEquals(given, hostToken);
    if (!isPageToken && !isHostToken) {
      return refuse(socket, 401, "Unauthorized", "Missing or wrong token: use the URL with ?token=... that the gateway printed.");
    }
    if (url.pathname === "/host" ? !isHostToken : !isPageToken) {
      return refuse(
        socket,
        403,
        "Forbidden",
        url.pathname === "/host"
          ? "The page's token cannot open /host: the executing host connects with the host token."
          : "The host token opens /host only: a page connects with the page token in the URL the gateway printed.",
      );
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
