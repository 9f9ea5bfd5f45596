// Serves MCP servers over Streamable HTTP on 127.0.0.1 for tests: a request
// with an `mcp-session-id` header goes to that session's transport (404 when
// unknown); one without starts a new session on a fresh server.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** What {@link serveStreamableHttp} needs. */
export interface ServeStreamableHttpOptions {
  /** Builds the server of a new session. */
  createServer(): McpServer;
  /** Runs first on every request; returns true when it answered the request itself. */
  intercept?(request: http.IncomingMessage, response: http.ServerResponse): Promise<boolean>;
  /** Sees each request's parsed POST body (undefined for other methods) before it is routed. */
  onBody?(body: unknown): Promise<void>;
}

/** A listening HTTP host of MCP sessions. */
export interface StreamableHttpHost {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** `<origin>/mcp`. */
  url: string;
  /** Drops every connection and stops listening (the servers are the caller's to close, first). */
  close(): Promise<void>;
}

const readBody = (request: http.IncomingMessage) =>
  new Promise<unknown>((resolve) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => resolve(body ? JSON.parse(body) : undefined));
  });

/** Listens on a free port of 127.0.0.1 and routes requests to per-session transports. */
export async function serveStreamableHttp(options: ServeStreamableHttpOptions): Promise<StreamableHttpHost> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer(async (request, response) => {
    if (options.intercept !== undefined && (await options.intercept(request, response))) return;
    const sessionId = request.headers["mcp-session-id"];
    const body = request.method === "POST" ? await readBody(request) : undefined;
    await options.onBody?.(body);
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (transport === undefined) {
        response.writeHead(404).end();
        return;
      }
      await transport.handleRequest(request, response, body);
      return;
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/mcp`,
    async close() {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
