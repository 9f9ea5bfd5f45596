// A dependency-free stdio MCP server that writes JSON-RPC by hand, so it can
// send what the MCP SDK's server would refuse: tools with broken input schemas,
// a tool without a name, and results larger than the SDK's message limit.
// tools/list answers in two pages (nextCursor "page-2").
import readline from "node:readline";

const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const text = (value) => ({ content: [{ type: "text", text: String(value) }] });

const firstPage = [
  {
    name: "echo",
    description: "Echoes text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  },
  {
    name: "string_schema",
    description: "Lists its properties as an array under a string type.",
    inputSchema: { type: "string", properties: ["query", "limit"] },
  },
  { description: "A tool without a name.", inputSchema: { type: "object" } },
  { name: "untyped", description: "Has properties but no type.", inputSchema: { properties: { q: { type: "string" } }, required: ["q"] } },
];
const secondPage = [
  { name: "not_an_object", description: "Its input schema is a string.", inputSchema: "anything goes" },
  {
    name: "bad_required",
    description: "required is a string, one property is not a schema.",
    inputSchema: { type: "object", properties: { a: { type: "string" }, b: "number" }, required: "a" },
  },
  {
    name: "big",
    description: "Returns `bytes` characters of text.",
    inputSchema: { type: "object", properties: { bytes: { type: "number" } }, required: ["bytes"] },
  },
  { name: "pid", description: "Returns the server process id.", inputSchema: { type: "object" } },
];

function call(name, args) {
  switch (name) {
    case "echo":
      return text(args.text);
    case "string_schema":
    case "untyped":
    case "not_an_object":
    case "bad_required":
      return text(`${name} got ${JSON.stringify(args)}`);
    case "big":
      return text("x".repeat(Number(args.bytes)));
    case "pid":
      return text(process.pid);
    default:
      return { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true };
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // notifications: initialized, cancelled
  switch (message.method) {
    case "initialize":
      reply({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "raw", version: "0.0.1" } },
      });
      break;
    case "tools/list":
      if (message.params?.cursor === "page-2") reply({ jsonrpc: "2.0", id: message.id, result: { tools: secondPage } });
      else reply({ jsonrpc: "2.0", id: message.id, result: { tools: firstPage, nextCursor: "page-2" } });
      break;
    case "tools/call":
      reply({ jsonrpc: "2.0", id: message.id, result: call(message.params.name, message.params.arguments ?? {}) });
      break;
    case "ping":
      reply({ jsonrpc: "2.0", id: message.id, result: {} });
      break;
    default:
      reply({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
});
