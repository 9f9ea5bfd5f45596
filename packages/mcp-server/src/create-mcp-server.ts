import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { SdkError, type ToolRegistry } from "@agent-tools/core";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { startHttpListener } from "./http-listener.js";
import { McpServerError } from "./mcp-server-error.js";
import type { AgentToolsMcpServer, McpHttpListener, McpServerOptions } from "./mcp-server-options.js";
import { type McpSession, type McpSessionSettings, createMcpSession } from "./mcp-session.js";
import { createStderrLogger } from "./stderr-logger.js";
import { MAX_STDIO_MESSAGE_BYTES, gateLineLength } from "./stdio-line-limit.js";

/**
 * Serves a registry's tools to MCP clients. `tools/list` answers the
 * registry's exposed tools (with annotations from their metadata) minus
 * `excludeTools`; `tools/call` runs `registry.executeToolCall` with the
 * request's abort signal, streams updates as progress notifications, and
 * applies the registry's approval policy (`ask` becomes an elicitation when
 * the client supports it). Every session is told `tools/list_changed` when
 * the registry's tools change. Diagnostics go to the logger (stderr by
 * default), never to stdout.
 *
 * @example
 * const registry = await buildBuiltinToolRegistry({ workdir: process.cwd() });
 * const server = createMcpServer(registry, { excludeTools: ["ManagedProcess"] });
 * await server.serveStdio(); // until the client closes the stream
 * await registry.close();
 */
export function createMcpServer(registry: ToolRegistry, options: McpServerOptions = {}): AgentToolsMcpServer {
  if (registry === null || typeof registry !== "object" || typeof registry.executeToolCall !== "function") {
    throw new SdkError("invalid_options", "createMcpServer needs a ToolRegistry (e.g. from buildBuiltinToolRegistry) as its first argument.");
  }
  if (options.approval !== undefined && options.approval !== "elicit" && options.approval !== "deny") {
    throw new SdkError("invalid_options", `approval must be "elicit" or "deny", not ${JSON.stringify(options.approval)}.`);
  }
  if (options.excludeTools !== undefined && (!Array.isArray(options.excludeTools) || options.excludeTools.some((name) => typeof name !== "string"))) {
    throw new SdkError("invalid_options", "excludeTools must be an array of tool names.");
  }
  // Case-insensitive, as the registry resolves names; tools that appear later (MCP) are matched too.
  const excluded = new Set((options.excludeTools ?? []).map((name) => name.trim().toLowerCase()));
  const logger = options.logger ?? createStderrLogger();
  const settings: McpSessionSettings = {
    registry,
    name: options.name ?? "agent-tools",
    version: options.version ?? packageVersion(),
    instructions: options.instructions,
    excluded,
    approval: options.approval ?? "elicit",
    logger,
  };
  const sessions = new Set<McpSession>();
  const listeners = new Set<McpHttpListener>();
  let closed = false;

  // Changes often come in bursts (a server reloads several tools): one notification per turn of the event loop.
  let notifyScheduled = false;
  // A registry-like object without the subscription (an older core) still serves, without list_changed.
  const subscribe = typeof registry.onToolsChanged === "function" ? registry.onToolsChanged.bind(registry) : () => () => undefined;
  const stopListening = subscribe(() => {
    if (notifyScheduled) return;
    notifyScheduled = true;
    setImmediate(() => {
      notifyScheduled = false;
      for (const session of sessions) session.notifyToolsChanged();
    });
  });

  const openSession = (): McpSession => {
    if (closed) throw new SdkError("closed", "This MCP server was closed; create a new one with createMcpServer.");
    const session = createMcpSession(settings);
    sessions.add(session);
    session.onClosed(() => sessions.delete(session));
    return session;
  };

  return {
    async serveStdio(streams = {}) {
      const stdin = (streams.stdin ?? process.stdin) as Readable;
      const stdout = (streams.stdout ?? process.stdout) as Writable;
      const session = openSession();
      let tooLarge: McpServerError | undefined;
      const ended = new Promise<void>((resolve) => {
        stdin.once("end", resolve);
        stdin.once("close", resolve);
        stdout.once("error", resolve);
        session.onClosed(resolve);
      });
      // The line limit is enforced in front of the transport: an oversized message ends the
      // session with a reason instead of looking like a client that left.
      const gate = gateLineLength(stdin, MAX_STDIO_MESSAGE_BYTES, () => {
        tooLarge = new McpServerError(
          "message_too_large",
          `A message on stdin was larger than ${MAX_STDIO_MESSAGE_BYTES / 1024 / 1024} MiB, the limit of one JSON-RPC line; the session was closed. Send smaller messages (have a tool read a large file by its path instead of sending it).`,
          { limitBytes: MAX_STDIO_MESSAGE_BYTES },
        );
        void session.close();
      });
      try {
        // The SDK's own buffer, twice as large, never trips before the gate.
        await session.server.connect(new StdioServerTransport(gate.stream, stdout, { maxBufferSize: 2 * MAX_STDIO_MESSAGE_BYTES }));
        await ended;
        // Nothing more is read once the session ended (the transport would only buffer it).
        gate.stop();
        await session.close();
      } finally {
        gate.stop();
      }
      if (tooLarge) throw tooLarge;
    },
    async listenHttp(listenOptions) {
      if (closed) throw new SdkError("closed", "This MCP server was closed; create a new one with createMcpServer.");
      const listener = await startHttpListener(listenOptions, { openSession, logger });
      listeners.add(listener);
      return {
        url: listener.url,
        get sessionCount() {
          return listener.sessionCount;
        },
        async close() {
          listeners.delete(listener);
          await listener.close();
        },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      stopListening();
      await Promise.allSettled([...listeners].map((listener) => listener.close()));
      listeners.clear();
      await Promise.allSettled([...sessions].map((session) => session.close()));
    },
  };
}

/** This package's version, for the `initialize` answer (src/ and dist/ both sit one level below package.json). */
function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}
