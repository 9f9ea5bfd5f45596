// Serves a built-in registry over stdio for the tests.
// Usage: node --import tsx --conditions=@agent-tools/source serve-stdio.ts  (configuration in MCP_SERVER_FIXTURE, JSON)
import path from "node:path";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createMcpServer } from "../create-mcp-server.js";
import type { FixtureConfig } from "../testing-helpers.js";

const config = JSON.parse(process.env.MCP_SERVER_FIXTURE ?? "{}") as FixtureConfig;
const registry = await buildBuiltinToolRegistry({
  workdir: config.workdir,
  dataDir: path.join(config.workdir, ".agent-tools-data"),
  approval: config.approval,
  mcp: config.mcpServers ? { getSettings: () => ({ servers: config.mcpServers as never, selected: [] }), toolSearch: false } : undefined,
});
const server = createMcpServer(registry, { excludeTools: config.excludeTools, approval: config.serverApproval, instructions: "Test tools." });
await server.serveStdio();
await registry.close();
process.stderr.write("serve-stdio: closed\n");
