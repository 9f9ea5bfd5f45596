import { CodedError } from "@agent-tools/core";

/** Codes of {@link McpServerError}. */
export const MCP_SERVER_ERROR_CODES = ["message_too_large"] as const;
/** A code of {@link McpServerError}. */
export type McpServerErrorCode = (typeof MCP_SERVER_ERROR_CODES)[number];

/**
 * A session of `createMcpServer` ended because of what the client sent:
 * `message_too_large` when a stdio line passed the limit (details:
 * `limitBytes`). `serveStdio` rejects with it; the `agent-tools-mcp` command
 * prints it and exits 1.
 *
 * @example
 * try {
 *   await server.serveStdio();
 * } catch (error) {
 *   if (error instanceof McpServerError && error.code === "message_too_large") process.exitCode = 1;
 * }
 */
export class McpServerError extends CodedError<McpServerErrorCode, Record<string, unknown>> {
  override readonly name = "McpServerError";
}
