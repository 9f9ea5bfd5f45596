// An in-process MCP server over Streamable HTTP on 127.0.0.1 whose tools ask
// the client back: elicitation/create, sampling/createMessage, roots/list.
// Requests are sent raw (server.request), as the conformance suite does, so
// the client's own checks and its method-not-found answers are what the tests see.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  McpError,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { serveStreamableHttp } from "../../__fixtures__/serve-streamable-http.js";

/** A running feature server. */
export interface FeatureServer {
  url: string;
  /** How many `notifications/roots/list_changed` arrived (all sessions). */
  rootsChanges(): number;
  /** Resolves when the count of roots-changed notifications reaches `count`. */
  waitForRootsChanges(count: number): Promise<void>;
  /** The client capabilities of the latest session. */
  clientCapabilities(): unknown;
  stop(): Promise<void>;
}

const json = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const failure = (error: unknown): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: `error ${error instanceof McpError ? error.code : "?"}: ${(error as Error).message}` }],
});

/** Starts the server on a free port of 127.0.0.1. */
export async function startFeatureServer(): Promise<FeatureServer> {
  let changes = 0;
  const waiters: Array<{ count: number; resolve(): void }> = [];
  let capabilities: unknown;
  const servers = new Set<McpServer>();

  const createServer = () => {
    const server = new McpServer({ name: "feature-server", version: "1.0.0" });
    servers.add(server);
    server.server.oninitialized = () => {
      capabilities = server.server.getClientCapabilities();
    };
    server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      changes += 1;
      for (const waiter of waiters.splice(0)) {
        if (changes >= waiter.count) waiter.resolve();
        else waiters.push(waiter);
      }
    });
    server.registerTool("ask", { inputSchema: { message: z.string(), schema: z.string() } }, async ({ message, schema }, extra) => {
      try {
        const params = { message, requestedSchema: JSON.parse(schema) };
        return json(await server.server.request({ method: "elicitation/create", params }, ElicitResultSchema, { signal: extra.signal }));
      } catch (error) {
        return failure(error);
      }
    });
    server.registerTool("sample", { inputSchema: { params: z.string() } }, async ({ params }, extra) => {
      try {
        return json(
          await server.server.request({ method: "sampling/createMessage", params: JSON.parse(params) }, CreateMessageResultSchema, { signal: extra.signal }),
        );
      } catch (error) {
        return failure(error);
      }
    });
    server.registerTool("roots", { inputSchema: {} }, async (_args, extra) => {
      try {
        return json(await server.server.request({ method: "roots/list" }, ListRootsResultSchema, { signal: extra.signal }));
      } catch (error) {
        return failure(error);
      }
    });
    return server;
  };

  const host = await serveStreamableHttp({ createServer });
  return {
    url: host.url,
    rootsChanges: () => changes,
    waitForRootsChanges: (count) => (changes >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    clientCapabilities: () => capabilities,
    async stop() {
      await Promise.allSettled([...servers].map((server) => server.close()));
      await host.close();
    },
  };
}
