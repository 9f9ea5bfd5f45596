import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@agent-tools/core";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { checkListenOptions } from "./http-listen-options.js";
import { type RequestGuards, createRequestGuards } from "./http-request-guards.js";
import type { McpHttpListenOptions, McpHttpListener } from "./mcp-server-options.js";
import type { McpSession } from "./mcp-session.js";

/** What the listener needs from its `createMcpServer`. */
export interface HttpListenerEnvironment {
  /** A new, unconnected session, already counted by the server handle. */
  openSession(): McpSession;
  logger: Logger;
}

/** A JSON-RPC request body larger than this is refused before parsing. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** One HTTP session: its MCP session, its transport and its idle timer. */
interface HttpSession {
  session: McpSession;
  transport: StreamableHTTPServerTransport;
  /** Set once the client's initialize succeeded. */
  id?: string;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Starts a Streamable HTTP listener on `node:http`. Before the MCP transport
 * sees a request: the `Host` header must name this server (403, DNS-rebinding
 * protection, as the MCP SDK's host-header validation answers), the path must
 * match (404), a browser `Origin` must be allowed (403), the bearer token must
 * match when one is set (401). A request without a session id must be
 * `initialize` and opens a session (its own `Server`) unless `maxSessions`
 * are open (503); DELETE closes one; a session idle for `sessionIdleMs` (with
 * no call running) is closed. Closing a session aborts its running calls.
 *
 * @example
 * const listener = await startHttpListener({ port: 0 }, { openSession, logger });
 * console.error(`MCP at ${listener.url}`);
 */
export async function startHttpListener(options: McpHttpListenOptions, environment: HttpListenerEnvironment): Promise<McpHttpListener> {
  const settings = checkListenOptions(options);
  const { host, path: endpoint, sessionIdleMs: idleMs, maxSessions } = settings;
  /** Initialized sessions by id. */
  const sessions = new Map<string, HttpSession>();
  /** Every open session, initialized or not: what `maxSessions` counts (checked and added in one synchronous step). */
  const open = new Set<HttpSession>();
  let guards: RequestGuards | undefined;
  let closed = false;

  const touch = (entry: HttpSession) => {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      // A long call is activity too: look again later instead of cutting it off.
      if (entry.session.runningCalls > 0) return touch(entry);
      environment.logger.info("closing an idle MCP session", { idleMs });
      void entry.session.close();
    }, idleMs);
    entry.idleTimer.unref();
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Set in the listen callback, which runs before the first request is handled.
    const checks = guards as RequestGuards;
    if (!checks.hostAllowed(request.headers.host)) {
      // No list of the allowed names: a DNS-rebinding page can read this answer.
      const shown = request.headers.host === undefined ? "A request without a Host header" : `Host ${JSON.stringify(request.headers.host.slice(0, 200))}`;
      return refuse(
        response,
        403,
        `Forbidden: ${shown} does not name this MCP server (DNS-rebinding protection). Connect through the address the server printed; its host can allow more names with allowedHosts (--allow-host).`,
      );
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== endpoint) return refuse(response, 404, `Not found: the MCP endpoint is ${endpoint}.`);
    const origin = request.headers.origin;
    if (!checks.originAllowed(origin)) {
      return refuse(response, 403, `Forbidden: the Origin ${origin} is not allowed to use this MCP server.`);
    }
    if (!checks.authorized(request.headers.authorization)) {
      response.setHeader("WWW-Authenticate", 'Bearer realm="agent-tools-mcp"');
      return refuse(response, 401, "Unauthorized: send Authorization: Bearer <token> with the token this server was started with.");
    }
    if (closed) return refuse(response, 503, "The MCP server is shutting down.");
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const entry = sessions.get(sessionId);
      if (!entry) return refuse(response, 404, "Session not found: it was closed or never existed; initialize a new session.", -32001);
      touch(entry);
      await entry.transport.handleRequest(request, response);
      return;
    }
    if (request.method !== "POST") return refuse(response, 400, "Bad request: send an initialize POST first, then use the mcp-session-id it returns.");
    const body = await readJsonBody(request);
    if (body === undefined) return refuse(response, 400, "Bad request: the body is not JSON or is larger than 4 MB.", -32700);
    const initializing = Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
    if (!initializing) return refuse(response, 400, "Bad request: no valid mcp-session-id header; initialize a session first.");
    if (open.size >= maxSessions) {
      response.setHeader("Retry-After", "60");
      return refuse(
        response,
        503,
        `Too many MCP sessions: this server allows ${maxSessions} at a time. End a session you no longer use (HTTP DELETE with its mcp-session-id) or wait for an idle one to close (after ${Math.round(idleMs / 1000)} s without a request), then initialize again.`,
      );
    }
    const entry = await openHttpSession();
    await entry.transport.handleRequest(request, response, body);
    // An initialize the transport refused leaves a session nobody can reach.
    if (entry.id === undefined) await entry.session.close();
  }

  async function openHttpSession(): Promise<HttpSession> {
    const session = environment.openSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        entry.id = sessionId;
        sessions.set(sessionId, entry);
        touch(entry);
      },
    });
    const entry: HttpSession = { session, transport };
    open.add(entry);
    session.onClosed(() => {
      clearTimeout(entry.idleTimer);
      open.delete(entry);
      if (entry.id !== undefined) sessions.delete(entry.id);
      // Closed from the transport's side (DELETE): still wait for the aborted calls.
      void session.close();
    });
    await session.server.connect(transport);
    return entry;
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      environment.logger.error("an MCP HTTP request failed", { error: String(error) });
      if (!response.headersSent) refuse(response, 500, "Internal error of the MCP server; see its log.", -32603);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // Requests wait for the listen callback, so every request sees the guards of the bound port.
  guards = createRequestGuards({
    boundHost: host,
    port,
    extraHosts: settings.allowedHosts,
    extraOrigins: settings.allowedOrigins,
    ...(settings.bearerToken === undefined ? {} : { bearerToken: settings.bearerToken }),
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}${endpoint}`,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...open].map((entry) => entry.session.close()));
      sessions.clear();
      open.clear();
      server.closeAllConnections();
      await stopped;
    },
  };
}

function refuse(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The parsed JSON body, or undefined when it is not JSON or too large. */
async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}
