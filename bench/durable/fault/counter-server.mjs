// The counting MCP stdio server of the fault-injection harness (official MCP
// SDK, low-level Server). Its one tool, `count`, appends its `call` argument
// as one line to the counter file (argv[2]) and fsyncs it before answering,
// so the number of lines holding a call id is the number of times the server
// ran that call: more than one is a duplicated side effect. The tool carries
// no idempotent hint, so the SDK treats it as `unsafe`.
// Usage: node counter-server.mjs <counter-file>
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const counterFile = process.argv[2];
if (!counterFile) {
  process.stderr.write("usage: counter-server.mjs <counter-file>\n");
  process.exit(2);
}

const tools = [
  {
    name: "count",
    description: "Counts one call: appends the call argument to the counter file.",
    inputSchema: { type: "object", properties: { call: { type: "string" } }, required: ["call"], additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
];

function appendLine(line) {
  const descriptor = openSync(counterFile, "a");
  try {
    writeSync(descriptor, `${line}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

const server = new Server({ name: "fault-counter", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  if (name !== "count" || typeof args.call !== "string") {
    return { isError: true, content: [{ type: "text", text: `unknown tool or argument: ${name}` }] };
  }
  appendLine(args.call);
  return { content: [{ type: "text", text: `counted ${args.call}` }] };
});
await server.connect(new StdioServerTransport());
