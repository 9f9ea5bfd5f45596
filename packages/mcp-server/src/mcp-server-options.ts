/**
 * The options and handle of `createMcpServer`: a registry's tools served to
 * any MCP client (Claude Desktop, Cursor, an IDE, another agent).
 */
import type { Logger } from "@agent-tools/core";

/** Options of `createMcpServer(registry, options)`. */
export interface McpServerOptions {
  /** The server's name and version in the MCP `initialize` answer; default `agent-tools` and the package version. */
  name?: string;
  version?: string;
  /** Text for the client's model, sent as the `initialize` answer's `instructions`. */
  instructions?: string;
  /**
   * Tool names (the registry's) to leave out of `tools/list` and refuse in
   * `tools/call`. Default: none.
   */
  excludeTools?: readonly string[];
  /**
   * What happens to a call whose approval decision is `ask`:
   * - `elicit` (default): the client is asked through `elicitation/create`
   *   when it declared the capability; accepted runs the call, declined or
   *   cancelled answers an error result; a client without the capability gets
   *   an error result that says how to allow the tool.
   * - `deny`: every `ask` is refused with that error result.
   */
  approval?: "elicit" | "deny";
  /** Where diagnostics go (never stdout: on stdio that is the protocol stream); default stderr. */
  logger?: Logger;
}

/** Options of the Streamable HTTP listener. */
export interface McpHttpListenOptions {
  /** Default 127.0.0.1. Binding elsewhere is the host's explicit choice. */
  host?: string;
  /** 0 picks a free port (read it from the returned `url`). */
  port: number;
  /** The MCP endpoint path; default `/mcp`. */
  path?: string;
  /**
   * When set, every request must carry `Authorization: Bearer <token>` (the
   * scheme in any case, as RFC 7235 says); others get 401. Compared in
   * constant time.
   */
  bearerToken?: string;
  /**
   * `Host` header values to accept besides the server's own names, as
   * `name` (any port) or `name:port`, e.g. `["mybox.lan:8123"]`. Always
   * accepted: `127.0.0.1`, `localhost`, `[::1]` and the bound address, each
   * with the bound port (for a wildcard bind, `0.0.0.0` or `::`, every
   * address of the machine's interfaces with the port). Any other Host is
   * refused with 403 before anything else is read (DNS-rebinding
   * protection: a web page rebound to this address sends its own name).
   */
  allowedHosts?: readonly string[];
  /**
   * Browser origins to accept in the `Origin` header besides the server's
   * own (`http://` plus each of its names above with the port), e.g.
   * `["http://localhost:5173"]`. A request with any other `Origin` is
   * refused with 403; requests without `Origin` (non-browser clients) pass.
   */
  allowedOrigins?: readonly string[];
  /**
   * Open sessions allowed at a time (initialized or initializing); an
   * `initialize` past it gets 503 with a JSON-RPC error and `Retry-After`.
   * Default 32.
   */
  maxSessions?: number;
  /** A session idle this long is closed and its calls aborted; default 30 minutes. */
  sessionIdleMs?: number;
}

/** A running Streamable HTTP listener. */
export interface McpHttpListener {
  /** e.g. `http://127.0.0.1:43121/mcp`. */
  readonly url: string;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /** Stops listening, closes every session and aborts their running calls. Does not close the registry. */
  close(): Promise<void>;
}

/** A registry served over MCP. One handle serves any number of stdio or HTTP sessions. */
export interface AgentToolsMcpServer {
  /**
   * Serves one session over stdio (the process's stdin/stdout unless given).
   * Resolves when the client closes the stream; running calls are then
   * aborted (Bash sessions and their process trees end). Rejects with
   * `McpServerError` (`message_too_large`) after closing the session the same
   * way when a line (one JSON-RPC message) passes 10 MiB: its request id is
   * in bytes nobody read, so no error response could name it, and a client
   * left waiting is worse than one told the server ended.
   */
  serveStdio(streams?: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream }): Promise<void>;
  /** Starts a Streamable HTTP listener; each client session gets its own MCP session. */
  listenHttp(options: McpHttpListenOptions): Promise<McpHttpListener>;
  /** Ends every session and listener. Does not close the registry (the host owns it). */
  close(): Promise<void>;
}
