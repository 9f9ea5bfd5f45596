// A dependency-free stdio MCP server (starts fast) whose tools/call never answers.
import readline from "node:readline";

const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    reply({
      jsonrpc: "2.0",
      id: message.id,
      result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hang", version: "0.0.1" } },
    });
  } else if (message.method === "tools/list") {
    reply({ jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "hang", description: "Never answers.", inputSchema: { type: "object" } }] } });
  }
});
