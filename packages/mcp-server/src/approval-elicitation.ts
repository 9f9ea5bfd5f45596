import { previewForMessage } from "@agent-tools/core/internal";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ElicitRequestFormParams, RequestId } from "@modelcontextprotocol/sdk/types.js";

/** How a call whose approval decision is `ask` ended. */
export type ApprovalOutcome = { approved: true } | { approved: false; message: string };

/** What {@link askApproval} needs. */
export interface AskApprovalRequest {
  server: Server;
  /** `elicit` asks clients that can be asked; `deny` refuses every `ask`. */
  mode: "elicit" | "deny";
  toolName: string;
  arguments: Record<string, unknown>;
  /** The `tools/call` request the question belongs to (on HTTP it travels on that request's stream). */
  relatedRequestId: RequestId;
  signal: AbortSignal;
}

/** The schema of the approval question: one boolean. */
const APPROVAL_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    approve: { type: "boolean", title: "Approve", description: "Run the tool with these arguments.", default: false },
  },
  required: ["approve"],
};

/**
 * Settles an `ask` decision. With `mode: "elicit"` and a client that declared
 * the elicitation capability, the user is asked through `elicitation/create`
 * and only accept with `approve: true` approves; otherwise the call is refused
 * with a message that says how a host or user can allow the tool.
 *
 * @example
 * const outcome = await askApproval({ server, mode: "elicit", toolName: "Bash", arguments: args, relatedRequestId: extra.requestId, signal });
 */
export async function askApproval(request: AskApprovalRequest): Promise<ApprovalOutcome> {
  const { server, toolName } = request;
  const howToAllow = `To allow it, the host serving these tools can set its approval policy for ${toolName} to "allow" (approval: { policies: { ${JSON.stringify(toolName)}: "allow" } })`;
  if (request.mode === "deny") {
    return {
      approved: false,
      message: `${toolName} needs the user's approval before it runs, and this server refuses such calls (approval: "deny"). ${howToAllow}.`,
    };
  }
  if (!server.getClientCapabilities()?.elicitation?.form) {
    return {
      approved: false,
      message: `${toolName} needs the user's approval before it runs, and this MCP client cannot ask the user (it did not declare the elicitation capability). ${howToAllow}, or connect with a client that supports elicitation.`,
    };
  }
  try {
    const answer = await server.elicitInput(
      {
        mode: "form",
        message: `Allow the tool ${toolName} to run with these arguments?\n${previewForMessage(request.arguments, 2_000)}`,
        requestedSchema: APPROVAL_SCHEMA,
      },
      { relatedRequestId: request.relatedRequestId, signal: request.signal },
    );
    if (answer.action === "accept" && answer.content?.approve === true) return { approved: true };
    const how = answer.action === "accept" ? "did not approve it" : answer.action === "decline" ? "declined it" : "cancelled the question";
    return { approved: false, message: `The user declined this call of ${toolName} (they ${how}); it did not run. Ask the user before trying it again.` };
  } catch (error) {
    return {
      approved: false,
      message: `${toolName} needs the user's approval, and asking through the MCP client failed: ${(error as Error)?.message ?? String(error)}. The call did not run.`,
    };
  }
}
