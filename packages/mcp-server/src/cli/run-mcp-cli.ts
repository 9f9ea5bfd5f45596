/**
 * The `agent-tools-mcp` command without the process around it: parses the
 * flags, builds the built-in registry, serves it over stdio or Streamable
 * HTTP until the client leaves or `signal` aborts, then closes the server and
 * the registry (running calls are aborted, their processes end).
 */
import { statSync } from "node:fs";
import { SdkError, type ToolDefinition } from "@agent-tools/core";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createMcpServer } from "../index.js";
import type { AgentToolsMcpServer } from "../mcp-server-options.js";
import { createStderrLogger } from "../stderr-logger.js";
import { MCP_CLI_USAGE, type McpCliServeOptions, parseMcpCliArgs } from "./parse-mcp-cli-args.js";

/** The process around one run of the command. */
export interface RunMcpCliOptions {
  /** Arguments without `node` and the script. */
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The protocol streams in stdio mode. */
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Diagnostics, usage errors and the HTTP URL. */
  stderr: NodeJS.WritableStream;
  /** Aborted on SIGINT / SIGTERM: the server and the registry are closed. */
  signal: AbortSignal;
  /** Printed by `--version` and sent in the MCP `initialize` answer. */
  version: string;
  /**
   * Tools served besides the built-ins (`BuiltinToolRegistryOptions.tools`).
   * The `agent-tools-mcp` bin passes none; a test harness passes its fixture
   * tools (the conformance suite's, tests/mcp-conformance/server-fixture-tools.ts).
   */
  tools?: readonly ToolDefinition[];
}

/** Exit code of a command line or a directory the command cannot accept. */
export const MCP_CLI_USAGE_EXIT_CODE = 2;

/**
 * Runs the command; resolves with its exit code (0, 1 on a failure while
 * serving, 2 on bad arguments). Never writes anything but the protocol to
 * `stdout` in stdio mode.
 *
 * @example
 * const controller = new AbortController();
 * process.on("SIGTERM", () => controller.abort());
 * process.exitCode = await runMcpCli({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(),
 *   stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal, version: "0.1.0" });
 */
export async function runMcpCli(io: RunMcpCliOptions): Promise<number> {
  let options: McpCliServeOptions;
  try {
    const command = parseMcpCliArgs(io.argv, io.env, io.cwd);
    if (command.kind === "help") {
      io.stdout.write(MCP_CLI_USAGE);
      return 0;
    }
    if (command.kind === "version") {
      io.stdout.write(`${io.version}\n`);
      return 0;
    }
    options = command.options;
    checkDirectory("--workdir", options.workdir);
    for (const root of options.additionalRoots) checkDirectory(`--root ${root.alias}`, root.path);
  } catch (error) {
    if (!(error instanceof SdkError)) throw error;
    io.stderr.write(`${error.message}\n\n${MCP_CLI_USAGE}`);
    return MCP_CLI_USAGE_EXIT_CODE;
  }

  const logger = createStderrLogger("agent-tools-mcp", io.stderr);
  let registry: BuiltinToolRegistry;
  try {
    registry = await buildBuiltinToolRegistry({
      workdir: options.workdir,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      additionalRoots: options.additionalRoots,
      approval: { policies: options.policies, ...(options.defaultDecision === undefined ? {} : { defaultDecision: options.defaultDecision }) },
      logger,
      ...(io.tools === undefined ? {} : { tools: io.tools }),
    });
  } catch (error) {
    // invalid_root, invalid_options: the command line named something the SDK refuses.
    io.stderr.write(`agent-tools-mcp: cannot build the tools: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof SdkError ? MCP_CLI_USAGE_EXIT_CODE : 1;
  }

  const server = createMcpServer(registry, { version: io.version, excludeTools: options.excludeTools, approval: options.approval, logger });
  try {
    await serve(server, options, io);
    return 0;
  } catch (error) {
    io.stderr.write(`agent-tools-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    // Server first (its sessions abort their calls), then the registry (processes, database handles).
    await server.close().catch((error: unknown) => logger.error("closing the MCP server failed", { error: String(error) }));
    await registry.close().catch((error: unknown) => logger.error("closing the tools failed", { error: String(error) }));
  }
}

async function serve(server: AgentToolsMcpServer, options: McpCliServeOptions, io: RunMcpCliOptions): Promise<void> {
  const aborted = new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  if (options.http === undefined) {
    // Ends when the client closes stdin or on a signal, whichever comes first.
    await Promise.race([server.serveStdio({ stdin: io.stdin, stdout: io.stdout }), aborted]);
    return;
  }
  const http = options.http;
  const listener = await server.listenHttp({
    port: http.port,
    host: http.host,
    ...(http.bearerToken === undefined ? {} : { bearerToken: http.bearerToken }),
    allowedOrigins: http.allowedOrigins,
    allowedHosts: http.allowedHosts,
    ...(http.maxSessions === undefined ? {} : { maxSessions: http.maxSessions }),
  });
  try {
    const loopback = http.host === "127.0.0.1" || http.host === "::1" || http.host === "localhost";
    if (!loopback && http.bearerToken === undefined) {
      io.stderr.write(`agent-tools-mcp: warning: listening on ${http.host} without --token: anyone who reaches this address can run the tools.\n`);
    }
    io.stderr.write(`agent-tools-mcp: listening on ${listener.url}${http.bearerToken === undefined ? "" : " (bearer token required)"}\n`);
    await aborted;
  } finally {
    await listener.close();
  }
}

function checkDirectory(flag: string, directory: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch {
    throw new SdkError("invalid_options", `agent-tools-mcp: ${flag}: ${directory} does not exist; pass an existing directory.`);
  }
  if (!isDirectory) throw new SdkError("invalid_options", `agent-tools-mcp: ${flag}: ${directory} is not a directory; pass a directory.`);
}
