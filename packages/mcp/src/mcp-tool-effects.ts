import type { ToolEffects } from "@agent-tools/core/durable";
import type { McpRemoteTool } from "./mcp-remote-types.js";

/**
 * What running an MCP server's tool again would do, for the call ledger of
 * durable runs: `idempotent` when the server says so (`idempotentHint:
 * true`, or `readOnlyHint: true` without `destructiveHint: true`, since
 * MCP reads a read-only tool as idempotent), else `unsafe`, so an
 * interrupted call is reported `outcome_unknown` instead of being sent
 * again. Never `none`: the server's hints are not trusted to make its
 * tool read-only here (see `mcpToolAnnotations`), and a server that lies
 * about idempotence gets at most one repeat of a call whose outcome was
 * lost.
 *
 * @example
 * mcpToolEffects({ annotations: { idempotentHint: true } }); // "idempotent"
 * mcpToolEffects({ annotations: { readOnlyHint: true, destructiveHint: true } }); // "unsafe"
 */
export function mcpToolEffects(remote: Pick<McpRemoteTool, "annotations">): ToolEffects {
  const hints = remote.annotations;
  if (hints === null || typeof hints !== "object") return "unsafe";
  if (hints.idempotentHint === true) return "idempotent";
  return hints.readOnlyHint === true && hints.destructiveHint !== true ? "idempotent" : "unsafe";
}
