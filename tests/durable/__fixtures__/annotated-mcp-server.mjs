// A stdio MCP server whose tools carry the annotations a server may send
// (readOnlyHint, idempotentHint, destructiveHint), for the effects table:
// what an MCP tool's effects become depends on them alone. With a folder as
// argv[2], every tools/call appends the tool's name to <folder>/calls.log.
import { appendFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

const callLog = process.argv[2] === undefined ? undefined : path.join(process.argv[2], "calls.log");

const tools = [
  { name: "lookup", annotations: { readOnlyHint: true } },
  { name: "upsert", annotations: { readOnlyHint: false, idempotentHint: true } },
  { name: "send_email", annotations: { readOnlyHint: false, destructiveHint: false } },
  { name: "append_row", annotations: { idempotentHint: false } },
  { name: "purge", annotations: { readOnlyHint: true, destructiveHint: true } },
  { name: "plain" },
].map((tool) => ({ ...tool, description: `${tool.name} (a test tool)`, inputSchema: { type: "object", properties: {} } }));
const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case "initialize":
      reply({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "annotated", version: "0.0.1" } },
      });
      break;
    case "tools/list":
      reply({ jsonrpc: "2.0", id: message.id, result: { tools } });
      break;
    case "tools/call":
      if (callLog !== undefined) appendFileSync(callLog, `${message.params.name}\n`);
      reply({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "done" }] } });
      break;
    default:
      reply({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
});
