import type { McpManagerInput } from "@agent-tools/core/mcp";
import { z } from "zod";
import { MCP_MANAGER_ACTIONS } from "./mcp-manager-support.js";
import { MCP_OAUTH_GRANTS, MCP_TOKEN_ENDPOINT_AUTH_METHODS } from "./oauth/mcp-server-auth-config.js";

const serverFields = {
  id: z.string().describe("The server name; tools appear as mcp_<id>_<tool>."),
  description: z.string().optional(),
  docsUrl: z.string().optional(),
  enabled: z.boolean().optional().describe("Default true."),
  transport: z.enum(["stdio", "http", "sse"]).optional().describe("stdio (default), http (Streamable HTTP) or sse (legacy)."),
  command: z.string().optional().describe("stdio: the executable, e.g. npx."),
  args: z.array(z.string()).optional().describe("stdio: its arguments."),
  url: z.string().optional().describe("http/sse: the endpoint URL."),
  env: z.record(z.string(), z.string()).optional().describe("stdio: environment variables."),
  cwd: z.string().optional().describe("stdio: working directory; relative paths resolve against the workspace."),
  headers: z.record(z.string(), z.string()).optional().describe("http/sse: request headers."),
  timeoutMs: z.number().optional().describe("Connect and per-request timeout in ms; default 60000."),
  messageUrl: z.string().optional().describe("sse: POST endpoint, relative to url, for servers that announce none."),
  auth: z
    .object({
      grant: z.enum(MCP_OAUTH_GRANTS).optional().describe("authorization_code (default, a user signs in) or client_credentials (machine client)."),
      clientId: z.string().optional().describe("A pre-registered OAuth client id; absent: the client registers itself."),
      clientSecret: z.string().optional().describe("The pre-registered client's secret."),
      tokenEndpointAuthMethod: z.enum(MCP_TOKEN_ENDPOINT_AUTH_METHODS).optional(),
      scope: z.string().optional().describe("Scopes to ask for when the server names none."),
    })
    .optional()
    .describe("http/sse: OAuth settings. Tokens are kept by the host, never here."),
};

/** Input of McpManager: what the model sees as its JSON Schema. */
export const mcpManagerInputSchema = z.object({
  action: z.enum(MCP_MANAGER_ACTIONS).describe("What to do."),
  server_id: z.string().optional().describe("The server to act on."),
  server_ids: z.array(z.string()).optional().describe("Several servers (delete, enable, disable, stop)."),
  server: z.object(serverFields).optional().describe("A full configuration: for create, or an inline (unsaved) validate/test/diagnose/tools."),
  patch: z.object(serverFields).partial().optional().describe("update: fields to change; the id cannot change."),
  conflict: z.enum(["fail", "overwrite"]).optional().describe("create: when the id exists; default fail."),
  include_disabled: z.boolean().optional().describe("list: include disabled servers; default true."),
  include_tools: z.boolean().optional().describe("list/test: include tool names."),
  include_schema: z.boolean().optional().describe("tools/test: include each tool's input schema."),
  include_stderr: z.boolean().optional().describe("test/diagnose/restart: include the server's stderr tail; default true only for diagnose."),
});

export type { McpManagerInput } from "@agent-tools/core/mcp";

/** The contract's McpManagerInput and the schema's parsed input are the same type: `true` here stops compiling when they drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesContract: Same<z.output<typeof mcpManagerInputSchema>, McpManagerInput> = true;
void schemaMatchesContract;

/** The ids an action targets: `server_ids`, else `server_id`, trimmed and without duplicates. */
export function targetIds(input: McpManagerInput): string[] {
  const ids = input.server_ids?.length ? input.server_ids : input.server_id ? [input.server_id] : [];
  return [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
}
