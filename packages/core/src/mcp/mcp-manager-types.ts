/**
 * The arguments and result `details` of the McpManager tool, for typed
 * results of `registry.executeToolCall`. Contracts only: the tool (and the
 * zod schema these types are checked against) lives in `@agent-tools/mcp`.
 */
import type { ToolErrorCode } from "../errors.js";
import type { McpServerLifecycle } from "./mcp-lifecycle-types.js";
import type { McpOAuthGrant, McpTokenEndpointAuthMethod } from "./mcp-settings-types.js";

/** One McpManager action. */
export type McpManagerAction =
  | "list"
  | "read"
  | "create"
  | "update"
  | "delete"
  | "enable"
  | "disable"
  | "validate"
  | "test"
  | "diagnose"
  | "restart"
  | "stop"
  | "tools"
  | "login"
  | "logout";

/** A server configuration as McpManager takes it (`server`, or every field optional in `patch`). */
export interface McpManagerServerInput {
  /** The server name; tools appear as mcp_<id>_<tool>. */
  id: string;
  description?: string;
  docsUrl?: string;
  /** Default true. */
  enabled?: boolean;
  /** stdio (default), http (Streamable HTTP) or sse (legacy). */
  transport?: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  url?: string;
  env?: Record<string, string>;
  cwd?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  messageUrl?: string;
  /** http/sse: OAuth settings. Tokens are kept by the host, never here. */
  auth?: {
    grant?: McpOAuthGrant;
    clientId?: string;
    clientSecret?: string;
    tokenEndpointAuthMethod?: McpTokenEndpointAuthMethod;
    scope?: string;
  };
}

/** Arguments of McpManager; which fields apply depends on `action`. */
export interface McpManagerInput {
  action: McpManagerAction;
  /** The server to act on. */
  server_id?: string;
  /** Several servers (delete, enable, disable, stop). */
  server_ids?: string[];
  /** A full configuration: for create, or an inline (unsaved) validate/test/diagnose/tools. */
  server?: McpManagerServerInput;
  /** update: fields to change; the id cannot change. */
  patch?: Partial<McpManagerServerInput>;
  /** create: when the id exists; default fail. */
  conflict?: "fail" | "overwrite";
  /** list: include disabled servers; default true. */
  include_disabled?: boolean;
  /** list/test: include tool names. */
  include_tools?: boolean;
  /** tools/test: include each tool's input schema. */
  include_schema?: boolean;
  /** test/diagnose/restart: include the server's stderr tail; default true only for diagnose. */
  include_stderr?: boolean;
}

/** The `details` of every McpManager result. */
export interface McpManagerDetails {
  kind: "manage_mcp";
  action: McpManagerAction;
  /** On a refused call: the ToolError code (invalid_arguments, not_found, permission_denied, other). */
  code?: ToolErrorCode;
  /** not_found: the ids that do not exist. */
  missingServerIds?: string[];
  /** invalid_arguments: the argument that is missing or wrong. */
  field?: string;
  serverId?: string;
  serverIds?: string[];
  transport?: string;
  ok: boolean;
  phase?: string;
  serverCount?: number;
  enabledCount?: number;
  toolsCount?: number;
  changed?: boolean;
  stopped?: string[];
  errors: string[];
  warnings?: string[];
  suggestions?: string[];
  servers?: unknown[];
  /** list/read: each shown server's lazy lifecycle (state, tools, manifest tokens, when its manifest was fetched). */
  lifecycles?: McpServerLifecycle[];
  tools?: unknown[];
  stderr?: string[];
  durationMs?: number;
  /** OAuth of the server: whether tokens are stored, their expiry and scopes; never a secret. */
  auth?: { authorized: boolean; expiresAt?: number; scopes?: string; refreshable?: boolean; failedPhase?: string };
}
