#!/usr/bin/env node
/**
 * The `agent-tools-mcp` bin: wires {@link runMcpCli} to the process.
 * SIGINT and SIGTERM close the server and the registry; a second signal
 * exits at once.
 */
import { readFileSync } from "node:fs";
import { runMcpCli } from "./run-mcp-cli.js";

// The same relative path from src/cli/main.ts and dist/cli/main.js.
const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

const controller = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  if (controller.signal.aborted) process.exit(signal === "SIGINT" ? 130 : 143);
  controller.abort();
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

const code = await runMcpCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  version: packageJson.version,
});
process.exitCode = code;
// Everything is closed; stdin (still open after a signal in stdio mode) must
// not keep the process alive. The timer does not hold the loop open either.
process.stdin.unref?.();
setTimeout(() => process.exit(code), 2000).unref();
