import type { ToolDefinition, ToolMetadata } from "../types.js";
import { resolveToolAnnotations } from "./tool-annotations.js";

/** Every decision an approval rule may hold. */
export const APPROVAL_DECISIONS = Object.freeze(["allow", "ask", "deny"] as const);

/** What a host decides for a tool. */
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** True for exactly `allow`, `ask` or `deny`. */
export function isApprovalDecision(value: unknown): value is ApprovalDecision {
  return value === "allow" || value === "ask" || value === "deny";
}

/** A question to the host before an `ask` tool runs. */
export interface ApprovalRequest {
  callId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  metadata: ToolMetadata;
  signal: AbortSignal;
  /** True when a PreToolUse hook deferred the decision to the host (permission policies only). */
  deferred?: boolean;
  /** The permission rule that asked, as written (permission policies only). */
  rule?: string;
  /** Why the policy asks, in words (permission policies only). */
  reason?: string;
}

/** Approval rules of a registry. */
export interface ApprovalOptions {
  /**
   * Decisions keyed by tool name, `server:<serverId>` or `group:<groupId>`,
   * looked up in that order. Keys are exact (case-sensitive) and must name
   * something the registry has, values exactly `allow`, `ask` or `deny`:
   * `createToolRegistry` throws `SdkError` otherwise (a misspelt rule would
   * silently not apply). The rules are read once, when the registry is created.
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
 * `group:<id>` -> read-only (the tool's resolved `annotations.readOnly`)
 * allow -> default. Only own keys of `policies` count (a tool named
 * `toString` finds no inherited rule); a value that is
 * not a decision, or an invalid `defaultDecision`, resolves to `deny` (a
 * registry refuses both when it is created; this guards direct callers).
 *
 * @example
 * resolveApproval("Bash", bashTool.metadata, { policies: { Bash: "ask" } }); // "ask"
 */
export function resolveApproval(toolName: string, metadata: ToolMetadata, options: ApprovalOptions | undefined): ApprovalDecision {
  const policies = options?.policies ?? {};
  const keys = [toolName, ...(metadata.serverId === undefined ? [] : [`server:${metadata.serverId}`]), `group:${metadata.groupId}`];
  for (const key of keys) {
    if (!Object.hasOwn(policies, key)) continue;
    const decision: unknown = policies[key];
    if (decision === undefined) continue;
    return isApprovalDecision(decision) ? decision : "deny";
  }
  if (resolveToolAnnotations(metadata).readOnly) return "allow";
  const fallback: unknown = options?.defaultDecision ?? "allow";
  return isApprovalDecision(fallback) ? fallback : "deny";
}

/** The metadata approval and the policy judge one call by: the tool's, with the server its input names (see `ToolDefinition.callServerId`). */
export function callMetadata(tool: Pick<ToolDefinition, "metadata" | "callServerId">, input: unknown): ToolMetadata {
  const serverId = tool.callServerId?.(input);
  return typeof serverId === "string" && serverId !== "" ? Object.freeze({ ...tool.metadata, serverId }) : tool.metadata;
}
