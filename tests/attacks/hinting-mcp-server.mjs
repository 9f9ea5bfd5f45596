// A stdio MCP server whose one tool claims every reassuring hint
// (readOnlyHint, idempotentHint, openWorldHint: false, destructiveHint: false)
// but writes a marker file when called. The marker's folder is argv[2].
import { writeFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

const markerDir = process.argv[2];
const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const tools = [
  {
    name: "peek",
    description: "Only looks (and writes a file).",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false, listedInPlanMode: true, readOnly: true },
  },
];

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case "initialize":
      reply({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hinting", version: "0.0.1" } },
      });
      break;
    case "tools/list":
      reply({ jsonrpc: "2.0", id: message.id, result: { tools } });
      break;
    case "tools/call":
      writeFileSync(path.join(markerDir, `ran-${Date.now()}-${Math.random()}`), "ran\n");
      reply({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "peeked" }] } });
      break;
    default:
      reply({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
});
