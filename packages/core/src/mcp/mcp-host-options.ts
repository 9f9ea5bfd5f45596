/**
 * What a host passes as `buildBuiltinToolRegistry({ mcp })` (and to
 * `mcpTools` of `@agent-tools/mcp`), and the handle it gets back in
 * `onReady`. Contracts only, so a host's options type-check without
 * `@agent-tools/mcp` installed; the implementation lives there.
 */
import type { ToolBundle } from "../types.js";
import type { McpElicitationRequest, McpElicitationResult, McpRootsSource, McpSamplingOptions } from "./mcp-client-feature-types.js";
import type { McpConfigError, McpLoadError, McpLoadReport } from "./mcp-errors.js";
import type {
  McpManifestStore,
  McpPromptInfo,
  McpPromptResult,
  McpResourceUpdate,
  McpServerLifecycle,
  McpUrlElicitationRequest,
  McpUrlElicitationResult,
} from "./mcp-lifecycle-types.js";
import type { McpOAuthOptions } from "./mcp-oauth-types.js";
import type { McpOp, McpSettings } from "./mcp-settings-types.js";

/** The server and tool behind a dynamic `mcp_<server>_<tool>` name. */
export interface McpToolTarget {
  serverId: string;
  toolName: string;
}

/** The MCP bundles of one registry, as its host sees them in `onReady`. */
export interface McpHostBundles {
  /** Trusted: McpManager, and ToolSearch while lazy loading is active. */
  readonly manager: ToolBundle;
  /** Untrusted: the dynamic `mcp_<server>_<tool>` tools. */
  readonly tools: ToolBundle;
  /** `[manager, tools]`, to pass to a registry. */
  readonly bundles: readonly ToolBundle[];
  /** `(server, tool)` behind a dynamic tool name. */
  resolveToolName(name: string): McpToolTarget | undefined;
  /** True while MCP tools are hidden until ToolSearch activates them. */
  isDeferralActive(): boolean;
  /** Connects newly enabled servers, stops removed ones and rebuilds the tools; concurrent calls share one run. */
  refresh(): Promise<McpLoadReport>;
  /** Tells connected servers that the roots changed (`notifications/roots/list_changed`); a no-op without `roots`. */
  notifyRootsChanged(): Promise<void>;
  /** Each enabled server's lifecycle state, tool count and manifest tokens, without starting any. */
  servers(): McpServerLifecycle[];
  /** The prompts of every enabled server that offers prompts (starts those servers). */
  prompts(): Promise<McpPromptInfo[]>;
  /** Fills in one prompt on its server. */
  getPrompt(serverId: string, name: string, args?: Record<string, string>): Promise<McpPromptResult>;
  /** Closes every connection. */
  close(): Promise<void>;
}

/**
 * The MCP options of a registry: the host's live settings and the callbacks
 * behind client features and OAuth. The registry supplies the scope and the
 * logger. Using them needs `@agent-tools/mcp` installed next to the sdk.
 */
export interface McpHostOptions {
  /** The host's live settings getter; read on every use, never snapshotted. */
  getSettings(): McpSettings;
  /**
   * Commits settings ops (normally `settings = applyMcpOps(settings, ops)`).
   * The new settings must be visible to `getSettings` when it returns, even if
   * it returns a promise (for persistence). Absent: MCP settings are read-only.
   */
  applyOps?(ops: readonly McpOp[]): void | Promise<void>;
  /** `continue` (default): report load failures to `onLoadError` and go on; `throw`: reject. */
  loadFailureMode?: "continue" | "throw";
  /** Load failures (all servers, or some) in `continue` mode. */
  onLoadError?(error: McpLoadError | McpConfigError): void;
  /** True: never spawn stdio servers (http and sse still work). */
  sandbox?: boolean;
  /** Lazy loading of MCP tools; `false` turns it off. Default budget 12 000 tokens. */
  toolSearch?: false | { tokenBudget?: number };
  /** How the SDK introduces itself to servers. */
  clientInfo?: { name: string; version: string };
  /**
   * Elicitation (form mode): a server asks the user for values. Resolve with
   * `accept` and the values, `decline` or `cancel`; abort the question when
   * `signal` aborts. Without it the capability is not declared.
   */
  onElicitation?(request: McpElicitationRequest): Promise<McpElicitationResult>;
  /**
   * Sampling: servers may ask `model` for completions, each one approved by
   * `approve` first. Without it (or without `approve`) the capability is not
   * declared.
   */
  sampling?: McpSamplingOptions;
  /**
   * Roots offered to servers (`roots/list`), read on every request: `file://`
   * URIs with names. `false` or absent: not declared. After a change call
   * `notifyRootsChanged()` of the bundles.
   */
  roots?: McpRootsSource | false;
  /**
   * OAuth 2.1 for HTTP and SSE servers: the sign-in callback, the credential
   * store, its encryption key, the redirect URL and client metadata. Absent:
   * only servers whose settings name `auth` (client credentials,
   * pre-registered clients) use OAuth.
   */
  oauth?: McpOAuthOptions;
  /**
   * Where server manifests (tool lists) are cached so a registry lists a
   * server's tools without starting it. Default: the SQLite file of the
   * host's data directory; `false`: no cache, every enabled server is
   * started when the registry is built.
   */
  manifestCache?: McpManifestStore | false;
  /** A started server with no call for this long is stopped (its manifest stays). Default 600 000 (10 min); 0: never. */
  idleStopMs?: number;
  /** A subscribed resource changed (after `ReadMcpResource` with `subscribe: true`). */
  onResourceUpdated?(update: McpResourceUpdate): void;
  /**
   * URL-mode elicitation: a server asks the user to open a URL. Without it
   * the capability is not declared (form mode is `onElicitation`).
   */
  onUrlElicitation?(request: McpUrlElicitationRequest): Promise<McpUrlElicitationResult>;
  /** Receives the created bundles, e.g. to keep `resolveToolName` for approval rules. */
  onReady?(bundles: McpHostBundles): void;
}
