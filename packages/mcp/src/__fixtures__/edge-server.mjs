// A small MCP server for edge cases, started by the tests.
// Usage: node edge-server.mjs stdio | node edge-server.mjs http [port]
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export const LONG_TOOL_NAME = "this_is_a_very_long_tool_name_that_goes_on_and_on_beyond_the_sixty_four_character_limit";
const marker = process.env.EDGE_MARKER_FILE;
const note = (line) => {
  if (marker) appendFileSync(marker, `${line}\n`);
};
const object = (properties = {}, extra = {}) => ({ type: "object", properties, ...extra });
const baseTools = [
  { name: "echo", description: "Echoes text.", inputSchema: object({ text: { type: "string" } }, { required: ["text"], additionalProperties: false }) },
  { name: "slow", description: "Waits ms milliseconds, reporting progress.", inputSchema: object({ ms: { type: "number" } }) },
  { name: "hang", description: "Never answers until cancelled; no progress.", inputSchema: object() },
  { name: "crash", description: "Exits the server process mid-call.", inputSchema: object() },
  { name: "fail", description: "Always returns an error result.", inputSchema: object() },
  { name: "pid", description: "Returns the server process id.", inputSchema: object() },
  { name: LONG_TOOL_NAME, description: "A tool with a very long name.", inputSchema: object() },
  { name: "add_tool", description: "Adds a tool and notifies list_changed.", inputSchema: object({ name: { type: "string" } }) },
  { name: "mixed", description: "Returns every content type.", inputSchema: object() },
  { name: "extra_keys", description: "Accepts any keys.", inputSchema: object({ known: { type: "string" } }, { additionalProperties: true }) },
  { name: "drop_sessions", description: "HTTP only: forgets every session.", inputSchema: object() },
  { name: "big", description: "Returns `bytes` characters of text.", inputSchema: object({ bytes: { type: "number" } }, { required: ["bytes"] }) },
];
const added = [];
const sessions = new Map();
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function createServer() {
  const server = new Server({ name: "edge-server", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...baseTools, ...added] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const text = (value) => ({ content: [{ type: "text", text: String(value) }] });
    switch (name) {
      case "echo":
        return text(args.text);
      case "slow": {
        const token = request.params._meta?.progressToken;
        const total = Number(args.ms ?? 1000);
        const started = Date.now();
        note(`slow-start ${extra.requestId}`);
        while (Date.now() - started < total) {
          if (extra.signal.aborted) {
            note(`slow-cancelled ${extra.requestId}`);
            return text("cancelled");
          }
          if (token !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: Date.now() - started, total, message: "working" },
            });
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        note(`slow-done ${extra.requestId}`);
        return text(`slept ${total}`);
      }
      case "hang":
        await new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }));
        note(`hang-cancelled ${extra.requestId}`);
        return text("cancelled");
      case "crash":
        process.stderr.write("edge-server: crashing on purpose\n");
        setTimeout(() => process.exit(3), 10);
        return new Promise(() => undefined);
      case "fail":
        return { content: [{ type: "text", text: "boom: the tool failed on purpose" }], isError: true };
      case "pid":
        return text(process.pid);
      case LONG_TOOL_NAME:
        return text("long name ok");
      case "add_tool":
        added.push({ name: String(args.name), description: "Added at run time.", inputSchema: object() });
        for (const session of [server, ...[...sessions.values()].map((entry) => entry.server)]) await session.sendToolListChanged().catch(() => undefined);
        return text(`added ${args.name}`);
      case "mixed":
        return {
          content: [
            { type: "text", text: "plain text" },
            { type: "image", data: TINY_PNG, mimeType: "image/png" },
            { type: "resource", resource: { uri: "memo://one", mimeType: "text/plain", text: "resource body" } },
            { type: "resource_link", uri: "memo://two", name: "two" },
          ],
          structuredContent: { answer: 42 },
        };
      case "extra_keys":
        return text(JSON.stringify(args));
      case "big":
        return text("x".repeat(Number(args.bytes)));
      case "drop_sessions":
        setTimeout(() => sessions.clear(), 5);
        return text("dropped");
      default:
        if (added.some((tool) => tool.name === name)) return text(`${name} ran`);
        return { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true };
    }
  });
  return server;
}

const mode = process.argv[2] ?? "stdio";
if (mode === "stdio") {
  process.stderr.write("edge-server: started on stdio\n");
  await createServer().connect(new StdioServerTransport());
} else {
  const readBody = (request) =>
    new Promise((resolve) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => resolve(body ? JSON.parse(body) : undefined));
    });
  const httpServer = http.createServer(async (request, response) => {
    const sessionId = request.headers["mcp-session-id"];
    const body = request.method === "POST" ? await readBody(request) : undefined;
    if (sessionId) {
      const entry = sessions.get(sessionId);
      if (!entry) {
        response
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      await entry.transport.handleRequest(request, response, body);
      return;
    }
    const server = createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, { server, transport }),
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  httpServer.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
    process.stdout.write(`LISTENING ${httpServer.address().port}\n`);
  });
}
