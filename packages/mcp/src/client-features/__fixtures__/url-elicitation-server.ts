// An in-process MCP server over Streamable HTTP on 127.0.0.1 for URL-mode
// elicitation: tool `open` sends elicitation/create (mode url) with the URL it
// is given; tool `paid` refuses with UrlElicitationRequiredError (-32042)
// until the user has "visited" its consent page (GET /consent/<id> on this
// server), which also sends notifications/elicitation/complete.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, ElicitResultSchema, McpError, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { serveStreamableHttp } from "../../__fixtures__/serve-streamable-http.js";

/** A running URL-elicitation server. */
export interface UrlElicitationServer {
  url: string;
  /** The consent page of elicitation `id`. */
  consentUrl(id: string): string;
  /** Client capabilities of the latest session. */
  clientCapabilities(): unknown;
  /** How many times `paid` was called. */
  paidCalls(): number;
  stop(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startUrlElicitationServer(): Promise<UrlElicitationServer> {
  const servers = new Set<McpServer>();
  /** Consent id -> the server that asked for it (to notify completion). */
  const pending = new Map<string, McpServer>();
  const consented = new Set<string>();
  let capabilities: unknown;
  let paid = 0;
  let base = "";

  const createServer = () => {
    const server = new McpServer({ name: "url-elicitation-server", version: "1.0.0" });
    servers.add(server);
    server.server.oninitialized = () => {
      capabilities = server.server.getClientCapabilities();
    };
    server.registerTool("open", { inputSchema: { url: z.string(), message: z.string() } }, async ({ url, message }, extra): Promise<CallToolResult> => {
      try {
        const params = { mode: "url" as const, elicitationId: randomUUID(), url, message };
        const answer = await server.server.request({ method: "elicitation/create", params }, ElicitResultSchema, { signal: extra.signal });
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      } catch (error) {
        return { isError: true, content: [{ type: "text", text: `error ${error instanceof McpError ? error.code : "?"}: ${(error as Error).message}` }] };
      }
    });
    // `ids` names the consents the call needs (comma-separated); `scheme` replaces the consent URLs' scheme (to send a javascript: one).
    server.registerTool("paid", { inputSchema: { ids: z.string(), url: z.string().optional() } }, async ({ ids, url }): Promise<CallToolResult> => {
      paid += 1;
      const missing = ids.split(",").filter((id) => !consented.has(id));
      if (missing.length === 0) return { content: [{ type: "text", text: `paid with ${ids}` }] };
      for (const id of missing) pending.set(id, server);
      throw new UrlElicitationRequiredError(
        missing.map((id) => ({ mode: "url" as const, elicitationId: id, url: url ?? `${base}/consent/${id}`, message: `Approve payment ${id}` })),
        "Payment approval needed",
      );
    });
    return server;
  };

  const intercept = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const consent = request.url?.match(/^\/consent\/([\w-]+)$/);
    if (consent) {
      const id = consent[1]!;
      consented.add(id);
      const server = pending.get(id);
      pending.delete(id);
      await server?.server.createElicitationCompletionNotifier(id)();
      response.writeHead(200, { "content-type": "text/plain" }).end("approved");
      return true;
    }
    return false;
  };
  const host = await serveStreamableHttp({ createServer, intercept });
  base = host.origin;
  return {
    url: `${base}/mcp`,
    consentUrl: (id) => `${base}/consent/${id}`,
    clientCapabilities: () => capabilities,
    paidCalls: () => paid,
    async stop() {
      await Promise.allSettled([...servers].map((server) => server.close()));
      await host.close();
    },
  };
}
