/**
 * The agent-tools-mcp command with the conformance suite's fixture tools
 * (./server-fixture-tools.ts) served besides the built-ins: the same
 * `runMcpCli` the bin (packages/mcp-server/src/cli/main.ts) runs, the same
 * flags, with `tools` added. Only the test starts it; run with tsx and
 * `--conditions=@agent-tools/source`. SIGTERM closes it like the bin.
 */
import { runMcpCli } from "../../packages/mcp-server/src/cli/run-mcp-cli.js";
import { CONFORMANCE_FIXTURE_TOOLS } from "./server-fixture-tools.js";

const controller = new AbortController();
process.on("SIGTERM", () => controller.abort());
process.on("SIGINT", () => controller.abort());

process.exitCode = await runMcpCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  version: "0.0.0-conformance-fixture",
  tools: CONFORMANCE_FIXTURE_TOOLS,
});
process.stdin.unref?.();
setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
