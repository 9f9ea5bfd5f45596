import type { ToolMetadata } from "../types.js";

/** What a host decides for a tool. */
export type ApprovalDecision = "allow" | "ask" | "deny";

/** A question to the host before an `ask` tool runs. */
export interface ApprovalRequest {
  callId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  metadata: ToolMetadata;
  signal: AbortSignal;
}

/** Approval rules of a registry. */
export interface ApprovalOptions {
  /**
   * Decisions keyed by tool name, `server:<serverId>` or `group:<groupId>`,
   * looked up in that order.
   */
  policies?: Readonly<Record<string, ApprovalDecision>>;
  /** Decision for non-read-only tools no rule names; default `allow`. Read-only tools are allowed. */
  defaultDecision?: ApprovalDecision;
  /**
   * Asked for `ask` tools; resolve true / "allow" to run the call. Without it,
   * `ask` fails closed (the call is refused).
   */
  onAsk?(request: ApprovalRequest): Promise<boolean | ApprovalDecision> | boolean | ApprovalDecision;
}

/**
 * Resolves the decision for a tool: tool name -> `server:<id>` ->
 * `group:<id>` -> read-only allow -> default.
 */
export function resolveApproval(toolName: string, metadata: ToolMetadata, options: ApprovalOptions | undefined): ApprovalDecision {
  const policies = options?.policies ?? {};
  const byName = policies[toolName];
  if (byName) return byName;
  if (metadata.serverId !== undefined) {
    const byServer = policies[`server:${metadata.serverId}`];
    if (byServer) return byServer;
  }
  const byGroup = policies[`group:${metadata.groupId}`];
  if (byGroup) return byGroup;
  if (metadata.isReadOnly) return "allow";
  return options?.defaultDecision ?? "allow";
}
