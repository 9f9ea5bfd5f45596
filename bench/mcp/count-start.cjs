// Preloaded (`node --require`) into each server of bench/mcp/lazy-lifecycle.ts: appends this process's pid to the start log, so the bench counts every server start.
const log = process.env.AGENT_TOOLS_BENCH_MCP_START_LOG;
if (log) require("node:fs").appendFileSync(log, `${process.pid}\n`);
