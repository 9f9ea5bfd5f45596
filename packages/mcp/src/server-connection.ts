import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolError, raceWithAbort } from "@agent-tools/core";
import { createLegacySseTransport } from "./legacy-sse-transport.js";
import { listMcpRemoteTools } from "./list-remote-tools.js";
import { readBufferOverflowLimit, resultTooLargeError, toolListTooLargeMessage } from "./message-size-limit.js";
import { endStdioProcess, trackStdioProcess } from "./stdio-process-end.js";
import type { McpConnectionState, McpProgress, McpRemoteTool } from "./mcp-remote-types.js";
import type { McpAuthProviderSource, McpAuthTransport, McpClientFeatures } from "./client-host-options.js";
import { retryAfterAuthorization } from "./oauth/retry-after-authorization.js";
import { isUrlElicitationRequired, retryAfterUrlElicitation } from "./client-features/url-elicitation-retry.js";
import { type McpTaskUpdate, awaitToolTask } from "./tasks/await-tool-task.js";
import { RunningToolTasks } from "./tasks/running-tool-tasks.js";
import { isStartedToolTask, startToolCall } from "./tasks/start-tool-call.js";
import type { McpServerConfig } from "./settings.js";
import { singleFlightWithFollowUp } from "./lifecycle/relist-once.js";

/** Options shared by every connection of a runtime. */
export interface McpConnectionOptions {
  clientInfo?: { name: string; version: string };
  /** Called after a `tools/list_changed` notification refreshed {@link McpServerConnection.tools}. */
  onToolsChanged?(connection: McpServerConnection): void;
  /** Called after every successful listing (at connect, after list_changed, on an explicit {@link McpServerConnection.listTools}). */
  onToolsListed?(connection: McpServerConnection): void;
  /** Lines of stderr kept for diagnostics; default 200. */
  stderrTailLines?: number;
  /** Elicitation, sampling and roots: declared capabilities and their handlers. */
  clientFeatures?: McpClientFeatures;
  /** OAuth providers of HTTP and SSE servers. */
  auth?: McpAuthProviderSource;
}

/** Options of {@link McpServerConnection.callTool}. */
export interface McpCallToolOptions {
  signal?: AbortSignal;
  /** Progress of a plain call. */
  onProgress?(progress: McpProgress): void;
  /** Status, status messages and progress of a call the server runs as a task. */
  onTaskUpdate?(update: McpTaskUpdate): void;
}

/** Identity of a configuration for connection reuse: what changes the process or endpoint. */
export function connectionKey(config: McpServerConfig): string {
  const { id, transport, command, args, url, env, cwd, headers, timeoutMs, messageUrl, auth } = config;
  return JSON.stringify({ id, transport, command, args, url, env, cwd, headers, timeoutMs, messageUrl, auth });
}

const isSessionLost = (error: unknown) => error instanceof StreamableHTTPError && error.code === 404;
const isConnectionClosed = (error: unknown) => error instanceof McpError && error.code === ErrorCode.ConnectionClosed;

/**
 * One live connection to one MCP server: connects lazily, lists its tools,
 * serialises calls, reconnects once after a transport failure, re-initialises
 * after an HTTP 404 session loss, keeps a stderr tail. A result over the SDK's
 * stdio message limit fails as `too_large` (the SDK resets the connection; the
 * next call reconnects).
 */
export class McpServerConnection {
  readonly config: McpServerConfig;
  readonly key: string;
  state: McpConnectionState = "idle";
  /** The server's tools as of the last listing (input schemas coerced to object schemas). */
  tools: McpRemoteTool[] = [];
  /** Tools of the last listing that were repaired or skipped, one line each naming the tool and this server. */
  toolListWarnings: string[] = [];
  lastError: string | undefined;
  connectedAt: number | undefined;
  /** When {@link tools} was last filled by a live listing (epoch ms); undefined before the first one. */
  listedAt: number | undefined;
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private connectAbort: AbortController | undefined;
  private queue: Promise<void> = Promise.resolve();
  private holders = 0;
  private readonly stderrLines: string[] = [];
  private partialLine = "";
  private readonly options: McpConnectionOptions;
  /** Clients whose stdio transport dropped a message over the SDK's size limit, with that limit. */
  private readonly overflowLimits = new WeakMap<Client, number>();
  /** The transport of the last connect attempt: an OAuth sign-in finishes on it. */
  private lastTransport: Transport | undefined;
  /** Aborted by close(): ends a sign-in the host is still waiting for. */
  private readonly lifetime = new AbortController();
  /** Calls waiting for their MCP task (polled outside the call queue; close() cancels them). */
  readonly runningTasks = new RunningToolTasks();

  constructor(config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.config = config;
    this.key = connectionKey(config);
    this.options = options;
  }

  /** The last stderr lines of a stdio server (at most 200 by default). */
  get stderrTail(): string[] {
    return this.partialLine ? [...this.stderrLines, this.partialLine] : [...this.stderrLines];
  }

  /** Name and version the server reported, once connected. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.client?.getServerVersion();
  }

  /** What the server declared at initialize, in the manifest's terms; undefined before the first connect. */
  get serverCapabilities(): { resources?: boolean; resourceSubscribe?: boolean; prompts?: boolean; tasks?: boolean } | undefined {
    const capabilities = this.client?.getServerCapabilities();
    if (!capabilities) return undefined;
    return {
      resources: capabilities.resources !== undefined,
      resourceSubscribe: capabilities.resources?.subscribe === true,
      prompts: capabilities.prompts !== undefined,
      tasks: capabilities.tasks !== undefined,
    };
  }

  /** The server's `instructions` from initialize, if any. */
  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  /** Connects (or reuses the live connection) and returns the client; a dropped connection is reopened once per call. */
  async connect(signal?: AbortSignal): Promise<Client> {
    if (this.state === "closed") throw new ToolError("unavailable", `MCP server ${this.config.id} was stopped.`);
    if (this.client) return this.client;
    // One shared attempt, aborted only by close(); each caller waits with its own signal.
    // A connect refused for want of OAuth tokens runs the host's sign-in and is tried again.
    this.connecting ??= this.withAuthorization(() => this.open()).finally(() => {
      this.connecting = undefined;
    });
    return raceAbort(this.connecting, signal);
  }

  private createTransport(): Transport {
    const config = this.config;
    if (config.transport === "stdio") {
      const transport = new StdioClientTransport({ command: config.command, args: config.args, env: config.env, cwd: config.cwd, stderr: "pipe" });
      transport.stderr?.on("data", (chunk: Buffer) => this.appendStderr(chunk.toString("utf8")));
      trackStdioProcess(transport);
      return transport;
    }
    const url = new URL(config.url);
    const authProvider = this.options.auth?.providerFor(config);
    if (config.transport === "sse") return createLegacySseTransport(url, { headers: config.headers, messageUrl: config.messageUrl, authProvider });
    return new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers }, authProvider });
  }

  private async open(): Promise<Client> {
    this.state = "connecting";
    const controller = new AbortController();
    this.connectAbort = controller;
    const signal = controller.signal;
    const client = new Client(this.options.clientInfo ?? { name: "agent-tools", version: "0.1.0" }, {
      capabilities: this.options.clientFeatures?.capabilities(this.config) ?? {},
    });
    this.options.clientFeatures?.install(client, this.config);
    client.onerror = (error) => {
      // The SDK's only report of an oversized stdio message; the close that follows rejects the pending requests.
      const limit = readBufferOverflowLimit(error);
      if (limit !== undefined) this.overflowLimits.set(client, limit);
    };
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.state !== "closed") this.state = "disconnected";
    };
    // One re-list in flight per client; notifications during it ask for one more after it (a flood lists a few times).
    const relist = singleFlightWithFollowUp(async () => {
      if (this.client !== client) return;
      try {
        await this.listTools(client);
        this.options.onToolsChanged?.(this);
      } catch (error) {
        this.lastError = `tools/list after list_changed failed: ${(error as Error).message}`;
      }
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (this.client !== client) return;
      await relist();
    });
    const transport = this.createTransport();
    this.lastTransport = transport;
    try {
      await client.connect(transport, { timeout: this.config.timeoutMs, signal });
      this.client = client;
      await this.listTools(client, signal);
      if ((this.state as McpConnectionState) === "closed") throw new ToolError("unavailable", `MCP server ${this.config.id} was stopped while connecting.`);
      this.state = "connected";
      this.connectedAt = Date.now();
      this.lastError = undefined;
      return client;
    } catch (caught) {
      this.client = undefined;
      this.state = (this.state as McpConnectionState) === "closed" ? "closed" : "failed";
      let error = caught;
      if (signal.aborted) error = new ToolError("unavailable", `MCP server ${this.config.id} was stopped while connecting.`);
      const overflow = this.overflowLimits.get(client);
      if (overflow !== undefined && isConnectionClosed(error))
        error = new ToolError("too_large", toolListTooLargeMessage(this.config.id, overflow), { details: { serverId: this.config.id, limitBytes: overflow } });
      this.lastError = (error as Error)?.message ?? String(error);
      await client.close().catch(() => undefined);
      await endStdioProcess(transport);
      throw error;
    } finally {
      if (this.connectAbort === controller) this.connectAbort = undefined;
    }
  }

  /**
   * Lists every page of the server's tools, each input schema coerced to an
   * object schema, and stores them in {@link tools}; tools that were repaired
   * or skipped are described in {@link toolListWarnings}.
   */
  async listTools(client?: Client, signal?: AbortSignal): Promise<McpRemoteTool[]> {
    const active = client ?? (await this.connect(signal));
    const listing = await listMcpRemoteTools(active, this.config.id, { timeout: this.config.timeoutMs, signal });
    this.tools = listing.tools;
    this.toolListWarnings = listing.warnings;
    this.listedAt = Date.now();
    this.options.onToolsListed?.(this);
    return listing.tools;
  }

  /**
   * Calls a tool. Calls to one server run one at a time; an abort while
   * queued leaves the queue, an abort while running sends the server a
   * cancellation. A 404 session loss re-initialises and retries once. A tool
   * the server runs as a task (tasks/) is awaited outside the queue; a call
   * refused with -32042 asks the host's onUrlElicitation and is retried once.
   */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallToolOptions = {}): Promise<CallToolResult> {
    return retryAfterUrlElicitation(() => this.callToolOnce(name, args, options), {
      serverId: this.config.id,
      broker: this.options.clientFeatures?.urlElicitation,
      signal: () => (options.signal ? AbortSignal.any([options.signal, this.lifetime.signal]) : this.lifetime.signal),
      timeoutMs: this.config.timeoutMs,
    });
  }

  private async callToolOnce(name: string, args: Record<string, unknown>, options: McpCallToolOptions): Promise<CallToolResult> {
    const outcome = await this.exclusive(options.signal, async () => {
      const attempt = async () => {
        const client = await this.connect(options.signal);
        try {
          const onTaskUpdate = options.onTaskUpdate;
          return await startToolCall(client, name, args, {
            signal: options.signal,
            timeout: this.config.timeoutMs,
            taskSupport: this.tools.find((tool) => tool.name === name)?.taskSupport,
            onProgress: options.onProgress,
            onTaskProgress: onTaskUpdate && ((taskId, progress) => onTaskUpdate({ taskId, status: "working", ...progress })),
          });
        } catch (error) {
          if (isSessionLost(error) || isConnectionClosed(error)) await this.dropClient(client);
          const overflow = this.overflowLimits.get(client);
          if (overflow !== undefined && isConnectionClosed(error)) throw resultTooLargeError(this.config.id, name, overflow);
          throw error;
        }
      };
      try {
        // A server asking for more scopes (403 insufficient_scope) sends the user through the host's sign-in once more.
        return await this.withAuthorization(attempt, options.signal, async () => {
          if (this.client) await this.dropClient(this.client);
        });
      } catch (error) {
        if (isSessionLost(error) && !options.signal?.aborted) return attempt();
        throw this.describeFailure(error, options.signal);
      }
    });
    if (!isStartedToolTask(outcome)) return outcome;
    const waiting = awaitToolTask(outcome, {
      serverId: this.config.id,
      signal: options.signal,
      lifetime: this.lifetime.signal,
      timeout: this.config.timeoutMs,
      onUpdate: options.onTaskUpdate,
    });
    try {
      return await this.runningTasks.track(waiting);
    } catch (error) {
      throw this.describeFailure(error, options.signal);
    }
  }

  /**
   * Runs `operation`, and again after the host's OAuth sign-in when the
   * server refused it for want of tokens or scopes. The sign-in is aborted
   * by close() and by `callSignal`; the combined signal is built only when
   * a sign-in is needed, not on every call.
   */
  private withAuthorization<T>(operation: () => Promise<T>, callSignal?: AbortSignal, reset?: () => Promise<void>): Promise<T> {
    return retryAfterAuthorization(operation, {
      source: this.options.auth,
      config: this.config,
      transport: () => this.lastTransport as McpAuthTransport | undefined,
      signal: () => (callSignal ? AbortSignal.any([callSignal, this.lifetime.signal]) : this.lifetime.signal),
      reset,
    });
  }

  /** The error a model sees for a failed start or call: a ToolError naming this server (an abort passes through). */
  describeFailure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted || error instanceof ToolError || isUrlElicitationRequired(error)) return error;
    const id = this.config.id;
    if (isConnectionClosed(error)) {
      const tail = this.stderrTail.slice(-5).join("\n");
      return new ToolError(
        "unavailable",
        `MCP server ${id} closed the connection during the call (it may have crashed); it is restarted on the next call.${tail ? `\nLast stderr lines:\n${tail}` : ""}`,
        { details: { serverId: id } },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolError(
        "timeout",
        `MCP server ${id} did not answer within ${this.config.timeoutMs} ms. Retry later, or ask the user to raise its timeoutMs.`,
        { details: { serverId: id } },
      );
    }
    const message = (error as Error)?.message ?? String(error);
    return new ToolError("unavailable", `MCP server ${id} failed: ${message}`, { details: { serverId: id } });
  }

  private async dropClient(client: Client): Promise<void> {
    if (this.client === client) {
      this.client = undefined;
      if (this.state !== "closed") this.state = "disconnected";
    }
    const transport = client.transport;
    await client.close().catch(() => undefined);
    await endStdioProcess(transport);
  }

  private async exclusive<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    const previous = this.queue;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.queue = previous.then(() => mine);
    // When nobody holds or waits for the lock, skip the wait (and its abort listener).
    const idle = this.holders === 0;
    this.holders += 1;
    try {
      if (!idle) await waitUnlessAborted(previous, signal);
      return await run();
    } finally {
      this.holders -= 1;
      release();
    }
  }

  private appendStderr(text: string): void {
    const limit = this.options.stderrTailLines ?? 200;
    const parts = (this.partialLine + text).split(/\r?\n/);
    this.partialLine = parts.pop() ?? "";
    this.stderrLines.push(...parts);
    if (this.stderrLines.length > limit) this.stderrLines.splice(0, this.stderrLines.length - limit);
  }

  /** Closes the connection (terminating an HTTP session, ending a stdio process); later calls fail. */
  async close(): Promise<void> {
    this.state = "closed";
    this.connectAbort?.abort();
    this.lifetime.abort();
    // Running tasks send tasks/cancel on the lifetime's abort; let those go out before the transport closes.
    await this.runningTasks.settle();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    if (!client) return;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
    await endStdioProcess(transport);
    this.state = "closed";
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return raceWithAbort(promise, signal, () => new ToolError("cancelled", "Cancelled while connecting to the MCP server."));
}

/** Waits for `promise` to settle either way, unless `signal` aborts first. */
function waitUnlessAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  return raceWithAbort(
    promise.catch(() => undefined),
    signal,
    () => new ToolError("cancelled", "Cancelled while waiting for the MCP server."),
  );
}
