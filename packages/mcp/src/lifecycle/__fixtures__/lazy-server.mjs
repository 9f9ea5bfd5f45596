// A small MCP server for the lazy-lifecycle tests, built with the MCP SDK.
// Usage: node lazy-server.mjs <name> <record-dir> <tool,tool,...>
// On start it appends "<name> <pid>" to <record-dir>/starts.log, so a test counts real process starts;
// each call of a tool it has appends "<name> <tool>" to <record-dir>/calls.log.
// Each listed tool answers "<name>:<tool>:<pid>". Control tools (always listed):
//   sleep {ms}: answers after ms milliseconds;
//   forget {tool}: drops a tool WITHOUT notifying list_changed (the client's list goes stale);
//   remove {tool}: drops a tool and notifies list_changed.
// A call to a tool it does not have fails with McpError InvalidParams "Unknown tool: <name>".
import { appendFileSync } from "node:fs";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

const [name = "lazy", recordDir, toolList = "hello"] = process.argv.slice(2);
if (recordDir) appendFileSync(path.join(recordDir, "starts.log"), `${name} ${process.pid}\n`);
const object = (properties = {}) => ({ type: "object", properties });
const tools = new Map(
  toolList
    .split(",")
    .filter(Boolean)
    .map((tool) => [tool, { name: tool, description: `${tool} of ${name}.`, inputSchema: object() }]),
);
tools.set("sleep", { name: "sleep", description: "Answers after ms milliseconds.", inputSchema: object({ ms: { type: "number" } }) });
tools.set("forget", { name: "forget", description: "Drops a tool silently.", inputSchema: object({ tool: { type: "string" } }) });
tools.set("remove", { name: "remove", description: "Drops a tool and notifies.", inputSchema: object({ tool: { type: "string" } }) });

const server = new Server({ name: `lazy-${name}`, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools.values()] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name: tool, arguments: args = {} } = request.params;
  if (!tools.has(tool)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${tool}`);
  if (recordDir) appendFileSync(path.join(recordDir, "calls.log"), `${name} ${tool}\n`);
  const text = (value) => ({ content: [{ type: "text", text: String(value) }] });
  if (tool === "sleep") {
    await new Promise((resolve) => setTimeout(resolve, Number(args.ms ?? 100)));
    return text(`slept ${process.pid}`);
  }
  if (tool === "forget" || tool === "remove") {
    tools.delete(String(args.tool));
    if (tool === "remove") await server.sendToolListChanged();
    return text(`dropped ${args.tool}`);
  }
  return text(`${name}:${tool}:${process.pid}`);
});
await server.connect(new StdioServerTransport());
