import type { Logger, ToolRegistry } from "@agent-tools/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { callTool } from "./call-tool.js";
import { listMcpTools } from "./tool-list.js";

/** What every session of one `createMcpServer` shares. */
export interface McpSessionSettings {
  registry: ToolRegistry;
  name: string;
  version: string;
  instructions?: string;
  /** Excluded tool names, lower-cased. */
  excluded: ReadonlySet<string>;
  approval: "elicit" | "deny";
  logger: Logger;
  /** How long `close()` waits for aborted calls to settle (their process trees to end). */
  settleMs?: number;
}

/**
 * One MCP session: its own low-level `Server` over one transport, with the
 * calls it is running.
 *
 * Invariants: every running call's signal is aborted when the session
 * closes, from either side (the client closed the stream or sent DELETE, or
 * the host called `close()`); `close()` waits for the aborted calls to
 * settle, so a Bash call's process tree is gone when it resolves; a closed
 * session never opens again.
 */
export interface McpSession {
  readonly server: Server;
  /** Calls still running. */
  readonly runningCalls: number;
  readonly closed: boolean;
  /** Sends `notifications/tools/list_changed` if the client finished initialising; never throws. */
  notifyToolsChanged(): void;
  /** Aborts the running calls, waits for them to settle and closes the transport. Idempotent. */
  close(): Promise<void>;
  /** Runs `listener` once when the session has closed (at once if it already has). */
  onClosed(listener: () => void): void;
}

const DEFAULT_SETTLE_MS = 15_000;

/**
 * Creates a session's `Server` with the `tools/list`, `tools/call` and
 * `logging/setLevel` handlers (capabilities `tools.listChanged` and
 * `logging`); connect it to a transport with `session.server.connect(...)`.
 *
 * @example
 * const session = createMcpSession(settings);
 * await session.server.connect(new StdioServerTransport());
 */
export function createMcpSession(settings: McpSessionSettings): McpSession {
  const server = new Server(
    { name: settings.name, version: settings.version },
    { capabilities: { tools: { listChanged: true }, logging: {} }, ...(settings.instructions ? { instructions: settings.instructions } : {}) },
  );
  const sessionAbort = new AbortController();
  const calls = new Set<Promise<unknown>>();
  const closedListeners = new Set<() => void>();
  let initialized = false;
  /** The threshold the client set with `logging/setLevel`; none: no log messages are sent. */
  let logLevel: LoggingLevel | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;

  const markClosed = () => {
    if (closed) return;
    closed = true;
    sessionAbort.abort(new Error("The MCP session closed."));
    for (const listener of closedListeners) listener();
    closedListeners.clear();
  };

  server.oninitialized = () => {
    initialized = true;
  };
  // The transport ended from the other side (stream closed, DELETE, idle close).
  server.onclose = () => {
    markClosed();
  };
  server.onerror = (error) => settings.logger.warn("MCP protocol error", { error: error.message });

  // Replaces the SDK's own handler (which would send every message to a client that set no level):
  // one session is one client here, and only a client that asked for log messages gets them.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listMcpTools(settings.registry, settings.excluded) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const signal = AbortSignal.any([extra.signal, sessionAbort.signal]);
    const running = callTool(
      { registry: settings.registry, server, excluded: settings.excluded, approval: settings.approval, logger: settings.logger, logLevel: () => logLevel },
      request.params,
      { requestId: extra.requestId, signal, sendNotification: extra.sendNotification },
    );
    calls.add(running);
    try {
      return await running;
    } finally {
      calls.delete(running);
    }
  });

  return {
    server,
    get runningCalls() {
      return calls.size;
    },
    get closed() {
      return closed;
    },
    notifyToolsChanged() {
      if (!initialized || closed) return;
      server.sendToolListChanged().catch((error: unknown) => settings.logger.debug("list_changed was not sent", { error: String(error) }));
    },
    close() {
      closing ??= (async () => {
        markClosed();
        await settle([...calls], settings.settleMs ?? DEFAULT_SETTLE_MS);
        await server.close().catch((error: unknown) => settings.logger.warn("closing an MCP session failed", { error: String(error) }));
      })();
      return closing;
    },
    onClosed(listener) {
      if (closed) listener();
      else closedListeners.add(listener);
    },
  };
}

/** Waits for the promises to settle, at most `ms` (a call that ignores its abort must not hold up the close). */
async function settle(promises: readonly Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([Promise.allSettled(promises), limit]);
  clearTimeout(timer);
}
