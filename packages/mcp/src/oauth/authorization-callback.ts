/**
 * The one interactive step of an OAuth sign-in: the host opens the
 * authorization URL for the user and returns the redirect it received.
 */
import { ToolError } from "@agent-tools/core";
import type { McpAuthorizationResult } from "@agent-tools/core/mcp";

export type { McpAuthorizationCallback, McpAuthorizationRequest, McpAuthorizationResult } from "@agent-tools/core/mcp";

/**
 * The authorization code in a host's answer, after checking the `state`
 * (when the answer carries one) and turning an `error` redirect into a
 * message that names the server.
 */
export function readAuthorizationCode(serverId: string, result: McpAuthorizationResult, expectedState: string | undefined): string {
  let code: string | undefined;
  let state: string | undefined;
  if ("callbackUrl" in result) {
    let url: URL;
    try {
      url = new URL(result.callbackUrl);
    } catch {
      throw new ToolError("invalid_arguments", `The OAuth redirect for MCP server ${serverId} is not a URL; the host must return the full callback URL.`, {
        details: { serverId },
      });
    }
    const error = url.searchParams.get("error");
    if (error) {
      const description = url.searchParams.get("error_description");
      throw new ToolError(
        "permission_denied",
        `The authorization server of MCP server ${serverId} refused the sign-in: ${error}${description ? ` (${description})` : ""}.`,
        {
          details: { serverId, error },
        },
      );
    }
    code = url.searchParams.get("code") ?? undefined;
    state = url.searchParams.get("state") ?? undefined;
  } else {
    code = result.code;
    state = result.state;
  }
  if (!code)
    throw new ToolError("invalid_arguments", `The OAuth redirect for MCP server ${serverId} carries no code; sign in again with McpManager action=login.`, {
      details: { serverId },
    });
  if (expectedState !== undefined && state !== undefined && state !== expectedState)
    throw new ToolError(
      "permission_denied",
      `The OAuth redirect for MCP server ${serverId} does not belong to this sign-in (state mismatch); sign in again with McpManager action=login.`,
      {
        details: { serverId },
      },
    );
  if (expectedState !== undefined && state === undefined && "callbackUrl" in result)
    throw new ToolError("permission_denied", `The OAuth redirect for MCP server ${serverId} has no state; sign in again with McpManager action=login.`, {
      details: { serverId },
    });
  return code;
}
