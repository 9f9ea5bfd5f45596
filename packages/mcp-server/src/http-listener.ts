import { randomUUID, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Logger, SdkError } from "@agent-tools/core";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpHttpListenOptions, McpHttpListener } from "./mcp-server-options.js";
import type { McpSession } from "./mcp-session.js";

/** What the listener needs from its `createMcpServer`. */
export interface HttpListenerEnvironment {
  /** A new, unconnected session, already counted by the server handle. */
  openSession(): McpSession;
  logger: Logger;
}

const DEFAULT_IDLE_MS = 30 * 60_000;
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
 * sees a request: the path must match (404), a browser `Origin` must be
 * allowed (403), the bearer token must match when one is set (401). A request
 * without a session id must be `initialize` and opens a session (its own
 * `Server`); DELETE closes one; a session idle for `sessionIdleMs` (with no
 * call running) is closed. Closing a session aborts its running calls.
 *
 * @example
 * const listener = await startHttpListener({ port: 0 }, { openSession, logger });
 * console.error(`MCP at ${listener.url}`);
 */
export async function startHttpListener(options: McpHttpListenOptions, environment: HttpListenerEnvironment): Promise<McpHttpListener> {
  if (options === null || typeof options !== "object" || !Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new SdkError("invalid_options", "listenHttp needs { port } with an integer port from 0 to 65535 (0 picks a free port).");
  }
  const host = options.host ?? "127.0.0.1";
  const endpoint = options.path ?? "/mcp";
  const idleMs = options.sessionIdleMs ?? DEFAULT_IDLE_MS;
  const expectedAuthorization = options.bearerToken === undefined ? undefined : Buffer.from(`Bearer ${options.bearerToken}`);
  const sessions = new Map<string, HttpSession>();
  let allowedOrigins = new Set<string>(options.allowedOrigins ?? []);
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
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== endpoint) return refuse(response, 404, `Not found: the MCP endpoint is ${endpoint}.`);
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      return refuse(response, 403, `Forbidden: the Origin ${origin} is not allowed to use this MCP server.`);
    }
    if (expectedAuthorization && !authorizationMatches(request.headers.authorization, expectedAuthorization)) {
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
    session.onClosed(() => {
      clearTimeout(entry.idleTimer);
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
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  if (options.allowedOrigins === undefined) allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
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
      await Promise.allSettled([...sessions.values()].map((entry) => entry.session.close()));
      sessions.clear();
      server.closeAllConnections();
      await stopped;
    },
  };
}

function authorizationMatches(header: string | undefined, expected: Buffer): boolean {
  if (typeof header !== "string") return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
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
