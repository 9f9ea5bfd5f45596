import { randomUUID } from "node:crypto";
import type { Logger, ToolRegistry, ToolUpdate } from "@agent-tools/core";
import { previewForMessage, shortenForMessage } from "@agent-tools/core/internal";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolRequest, CallToolResult, LoggingLevel, RequestId, ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { askApproval } from "./approval-elicitation.js";
import { TOOL_UPDATE_LOG_LEVEL, logLevelAllows } from "./log-level.js";
import { mcpErrorResult, toMcpCallResult } from "./result-mapping.js";

/** What one `tools/call` needs from its session. */
export interface CallToolEnvironment {
  registry: ToolRegistry;
  server: Server;
  /** Excluded tool names, lower-cased. */
  excluded: ReadonlySet<string>;
  approval: "elicit" | "deny";
  logger: Logger;
  /** The session's `logging/setLevel` threshold, if the client set one. */
  logLevel?(): LoggingLevel | undefined;
}

/** The parts of the SDK's request-handler `extra` a call uses. */
export interface CallToolExtra {
  requestId: RequestId;
  /** Aborted when the client cancels the request or the session ends. */
  signal: AbortSignal;
  sendNotification(notification: ServerNotification): Promise<void>;
}

/**
 * Runs one MCP `tools/call` against the registry: refuses unknown and
 * excluded names (naming the available tools), applies the approval
 * decision (`deny` refuses, `ask` goes through {@link askApproval}), streams
 * `onUpdate` events as `notifications/progress` when the request carries a
 * progress token and as `notifications/message` (level `info`, logger: the
 * tool's name) when the client set a log level that lets `info` through, and
 * maps the result. Never throws for a tool failure.
 *
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(environment, request.params, extra));
 */
export async function callTool(environment: CallToolEnvironment, params: CallToolRequest["params"], extra: CallToolExtra): Promise<CallToolResult> {
  const { registry, excluded } = environment;
  const canonical = registry.resolveToolName(params.name);
  if (canonical === undefined || excluded.has(canonical.toLowerCase())) {
    const names = registry.tools.map((tool) => tool.name).filter((name) => !excluded.has(name.toLowerCase()));
    return mcpErrorResult(
      `Unknown tool: ${shortenForMessage(params.name)}. Available tools: ${names.join(", ") || "(none)"}. Call tools/list for their descriptions and input schemas.`,
      { code: "unknown_tool", recoverable: true },
    );
  }
  const args = params.arguments ?? {};
  const decision = registry.approvalDecision(canonical);
  if (decision === "deny") {
    return mcpErrorResult(`${canonical} is denied by the approval policy of the host serving these tools; it cannot be called. Use another tool.`, {
      code: "permission_denied",
      recoverable: false,
    });
  }
  let approvalGranted = false;
  if (decision === "ask") {
    const outcome = await askApproval({
      server: environment.server,
      mode: environment.approval,
      toolName: canonical,
      arguments: args,
      relatedRequestId: extra.requestId,
      signal: extra.signal,
    });
    if (!outcome.approved) return mcpErrorResult(outcome.message, { code: "permission_denied", recoverable: false });
    approvalGranted = true;
  }
  const progressToken = params._meta?.progressToken;
  let progress = 0;
  let answered = false;
  const send = (notification: ServerNotification) =>
    // Notifications are fire and forget: a client gone mid-call must not fail the call.
    extra.sendNotification(notification).catch((error: unknown) => environment.logger.debug("a notification was not sent", { error: String(error) }));
  // Decided when the call starts: without a token or a log level that lets updates through,
  // the tool gets no onUpdate (some tools skip the work of reporting then).
  const logging = logLevelAllows(environment.logLevel?.(), TOOL_UPDATE_LOG_LEVEL);
  const onUpdate =
    progressToken === undefined && !logging
      ? undefined
      : (event: { update: ToolUpdate }) => {
          // A client treats progress for a request it already has the answer to as a protocol error.
          if (answered) return;
          const message = progressMessage(event.update);
          if (progressToken !== undefined) {
            progress += 1;
            void send({ method: "notifications/progress", params: { progressToken, progress, ...(message ? { message } : {}) } });
          }
          if (message && logging) void send({ method: "notifications/message", params: { level: TOOL_UPDATE_LOG_LEVEL, logger: canonical, data: message } });
        };
  const result = await registry.executeToolCall(
    // Request ids repeat across sessions; the call id must not.
    { id: `mcp_${randomUUID()}`, name: canonical, arguments: JSON.stringify(args) },
    { signal: extra.signal, onUpdate, approvalGranted },
  );
  answered = true;
  return toMcpCallResult(result);
}

/** The progress message of an update: its text, else a status or message in its data, else its data in short. */
function progressMessage(update: ToolUpdate): string | undefined {
  if (typeof update.text === "string" && update.text !== "") return update.text;
  const data = update.data as { status?: unknown; message?: unknown } | undefined;
  if (data === undefined || data === null) return undefined;
  if (typeof data.message === "string") return data.message;
  if (typeof data.status === "string") return data.status;
  return previewForMessage(data, 500);
}
