// A stdio MCP server for the permission table: argv[2] is its name (github
// or gitlab), argv[3] a folder where every tools/call writes a marker file
// (so a test sees whether a tool ran).
import { writeFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

const [serverName, markerDir] = process.argv.slice(2);
const names = serverName === "github" ? ["create_issue", "list_issues", "delete_repo"] : ["create_issue"];
const tools = names.map((name) => ({
  name,
  description: `${name} of ${serverName} (writes a marker file).`,
  inputSchema: { type: "object", properties: { title: { type: "string" } } },
}));
const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case "initialize":
      reply({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: serverName, version: "0.0.1" } },
      });
      break;
    case "tools/list":
      reply({ jsonrpc: "2.0", id: message.id, result: { tools } });
      break;
    case "tools/call":
      writeFileSync(path.join(markerDir, `${serverName}-${message.params.name}-${Date.now()}-${Math.random()}`), "ran\n");
      reply({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "done" }] } });
      break;
    default:
      reply({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
});
