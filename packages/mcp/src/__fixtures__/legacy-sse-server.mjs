// A bare legacy HTTP+SSE MCP server that never announces its POST endpoint
// (clients must be configured with messageUrl), plus a /secure path that
// answers 401. Usage: node legacy-sse-server.mjs -> prints "LISTENING <port>".
import http from "node:http";

let stream;
const send = (message) => stream?.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
const tools = [{ name: "echo", description: "Echoes text.", inputSchema: { type: "object", properties: { text: { type: "string" } } } }];

function handle(message) {
  if (message.id === undefined) return;
  switch (message.method) {
    case "initialize":
      return send({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "legacy-sse", version: "0.1.0" } },
      });
    case "tools/list":
      return send({ jsonrpc: "2.0", id: message.id, result: { tools } });
    case "tools/call":
      return send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: `legacy: ${message.params.arguments?.text}` }] } });
    default:
      return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  }
}

const server = http.createServer((request, response) => {
  if (request.url.startsWith("/secure")) {
    response.writeHead(401, { "content-type": "text/plain" }).end("Unauthorized");
    return;
  }
  if (request.method === "GET" && request.url === "/sse") {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    response.write(": connected\n\n");
    stream = response;
    return;
  }
  if (request.method === "POST" && request.url.startsWith("/messages")) {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      response.writeHead(202).end("Accepted");
      handle(JSON.parse(body));
    });
    return;
  }
  response.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`LISTENING ${server.address().port}\n`));
