/**
 * The contracts of MCP's lazy lifecycle, resources, prompts and URL-mode
 * elicitation as a host meets them: the manifest cache port, each server's
 * lifecycle state, the prompt and resource-update shapes. A leaf module;
 * `@agent-tools/mcp` implements it and re-exports these names.
 */
import type { ToolContent } from "../types.js";

/** A tool as a server lists it (its schema untouched, untrusted data). */
export interface McpManifestTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: Record<string, unknown>;
  /** `execution.taskSupport` of the listing (`required`, `optional` or `forbidden`), when the server named it. */
  taskSupport?: "required" | "optional" | "forbidden";
}

/**
 * What a server's last listing told: its tools and capabilities, kept so a
 * registry can list the server's tools without starting it. Keyed by the
 * server's id and the hash of its configuration; untrusted data (it came
 * from the server).
 */
export interface McpManifest {
  serverId: string;
  /** Hash of the configuration that produced it and the project it was made for (`mcpConfigHash`: command, url, args, cwd, a digest of the env and header entries; never a value). */
  configHash: string;
  /** When the listing was fetched (epoch ms). */
  fetchedAt: number;
  tools: McpManifestTool[];
  serverInfo?: { name: string; version: string };
  capabilities?: { resources?: boolean; resourceSubscribe?: boolean; prompts?: boolean; tasks?: boolean };
  instructions?: string;
}

/**
 * Where manifests are cached between registries (and processes). The sdk's
 * default is the SQLite file of the host's data directory; PostgreSQL and
 * in-memory adapters live in `@agent-tools/mcp`.
 */
export interface McpManifestStore {
  /** The manifest of `serverId` made with `configHash`, if cached and readable. */
  get(serverId: string, configHash: string): Promise<McpManifest | undefined>;
  /**
   * Stores a manifest under (serverId, configHash), replacing that pair's
   * older one. Keeps up to 16 manifests (configuration hashes) per server
   * id; a put beyond that drops the oldest by `fetchedAt`.
   */
  put(manifest: McpManifest): Promise<void>;
  /** Forgets every manifest of `serverId` (all its configuration hashes). */
  delete(serverId: string): Promise<void>;
  /** Releases what the store opened. */
  close?(): Promise<void>;
}

/**
 * Where a server is in its lazy lifecycle: `configured` (nothing known yet),
 * `manifest_known` (its tools are listed from the cache; not running),
 * `started` (connected), `invoked` (connected and called at least once),
 * `failed` (its last start failed).
 */
export type McpServerLifecycleState = "configured" | "manifest_known" | "started" | "invoked" | "failed";

/** One server as the host's handle shows it. */
export interface McpServerLifecycle {
  serverId: string;
  state: McpServerLifecycleState;
  toolsCount: number;
  /** Estimated tokens of this server's tool schemas as a model would see them. */
  manifestTokens: number;
  /** When the listing the tools come from was fetched (epoch ms). */
  manifestFetchedAt?: number;
  lastError?: string;
}

/** One argument of an MCP prompt. */
export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A prompt a server offers (`prompts/list`). */
export interface McpPromptInfo {
  serverId: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
}

/** A prompt filled in by its server (`prompts/get`). */
export interface McpPromptResult {
  description?: string;
  messages: Array<{ role: "user" | "assistant"; content: ToolContent }>;
}

/** A subscribed resource changed on its server (`notifications/resources/updated`). */
export interface McpResourceUpdate {
  serverId: string;
  uri: string;
}

/**
 * What the host's `onUrlElicitation` receives: a server asks the user to
 * open `url` (sign-in, payment, consent) outside the conversation. The SDK
 * never opens it; show the origin and let the user choose.
 */
export interface McpUrlElicitationRequest {
  serverId: string;
  elicitationId: string;
  url: string;
  /** `new URL(url).origin`, for the host's UI. */
  origin: string;
  message: string;
  /** Aborts when the call or the registry ends. */
  signal: AbortSignal;
}

/** The user's answer to a URL-mode elicitation. */
export interface McpUrlElicitationResult {
  action: "accept" | "decline" | "cancel";
}
