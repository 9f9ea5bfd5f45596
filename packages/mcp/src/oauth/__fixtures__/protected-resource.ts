// The bearer-protected MCP server of the OAuth tests (Streamable HTTP at /mcp, legacy SSE at /sse), checking tokens the authorization server issued.
import type http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type Grant, json, readBody } from "./fixture-http.js";
import type { OAuthTestServersOptions } from "./oauth-test-servers.js";

export interface ProtectedResourceContext {
  options: OAuthTestServersOptions;
  issuer: string;
  resourceOrigin: string;
  mcpUrl: string;
  metadataPath: string;
  scopesSupported: string[];
  requests: string[];
  accessTokens: Map<string, Grant & { expired: boolean }>;
}

/** The resource server's request handler. */
export function protectedResourceHandler(context: ProtectedResourceContext): (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void> {
  const { options, issuer, resourceOrigin, mcpUrl, metadataPath, scopesSupported, requests, accessTokens } = context;
  const sseSessions = new Map<string, SSEServerTransport>();
  function createMcpServer(grant: Grant): Server {
    const server = new Server({ name: "oauth-protected", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: ["whoami", ...Object.keys(options.toolScopes ?? {})].map((name) => ({ name, inputSchema: { type: "object" as const } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => ({
      content: [{ type: "text" as const, text: `${call.params.name}: client ${grant.clientId} scope ${grant.scope}` }],
    }));
    return server;
  }
  const challenge = (extra = "") =>
    `Bearer ${options.challengeWithMetadataUrl === false ? "" : `resource_metadata="${resourceOrigin}${metadataPath}"`}${extra}`.trim();
  return async (request, response) => {
    const url = new URL(request.url ?? "/", resourceOrigin);
    requests.push(`${request.method} ${url.pathname}`);
    if (url.pathname === metadataPath) {
      json(response, 200, {
        resource: options.sse ? resourceOrigin : mcpUrl,
        authorization_servers: [options.authorizationServerOverride ?? issuer],
        scopes_supported: scopesSupported,
        bearer_methods_supported: ["header"],
      });
      return;
    }
    const sse = options.sse === true && (url.pathname === "/sse" || url.pathname === "/messages");
    if (url.pathname !== "/mcp" && !sse) {
      json(response, 404, { error: "not_found" });
      return;
    }
    const header = request.headers.authorization ?? "";
    const grant = options.unprotected
      ? { clientId: "anonymous", scope: "", expired: false }
      : header.startsWith("Bearer ")
        ? accessTokens.get(header.slice(7))
        : undefined;
    if (grant === undefined || grant.expired) {
      await readBody(request);
      json(response, 401, { error: "invalid_token" }, { "www-authenticate": challenge(grant?.expired ? ', error="invalid_token"' : "") });
      return;
    }
    if (url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      sseSessions.set(transport.sessionId, transport);
      response.on("close", () => sseSessions.delete(transport.sessionId));
      await createMcpServer(grant).connect(transport);
      return;
    }
    if (url.pathname === "/messages") {
      const transport = sseSessions.get(url.searchParams.get("sessionId") ?? "");
      if (transport === undefined) json(response, 404, { error: "unknown session" });
      else await transport.handlePostMessage(request, response);
      return;
    }
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const body = JSON.parse(await readBody(request)) as { method?: string; params?: { name?: string } };
    const needed = body.method === "tools/call" ? options.toolScopes?.[body.params?.name ?? ""] : undefined;
    if (needed !== undefined && !grant.scope.split(" ").includes(needed)) {
      const scope = [...new Set([...grant.scope.split(" ").filter(Boolean), needed])].join(" ");
      json(response, 403, { error: "insufficient_scope" }, { "www-authenticate": challenge(`, error="insufficient_scope", scope="${scope}"`) });
      return;
    }
    const server = createMcpServer(grant);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(request, response, body);
  };
}
