import { ToolError, type ToolDefinition, defineTool } from "@agent-tools/core";
import { sendMessageInputSchema } from "../domain/agent-schemas.js";
import type { SubagentMessageDetails } from "../domain/subagent-protocol.js";
import { renderSendMessageResult, resolveSendMessage } from "../domain/send-message-rules.js";
import { PARENT_AGENT_ID } from "../domain/subagent-types.js";
import type { SubagentConversation } from "../runtime/subagent-conversation.js";

const DESCRIPTION = [
  "Send a message on the Agent Message Bus to the parent agent (`parent`), one subagent (its id) or every agent (`*`).",
  "Delivery is pull-based: recipients see it at their next turn boundary, never mid-turn.",
  "channel: direct (default for one recipient), shared (default for `*`), decision (a settled choice everyone should follow), question (something you need answered).",
].join(" ");

/** Who sends with a SendMessage instance. */
export interface SendMessageSender {
  /** `parent` or the child's canonical agent id. */
  readonly id: string;
  readonly name: string;
  /** The child's run id (absent for the parent). */
  readonly runId?: string;
}

/**
 * A SendMessage tool speaking for one sender: one instance for the parent
 * and one per running child. The store assigns the message's `seq`; a store
 * failure is a tool error, never a silent drop.
 */
export function createSendMessageTool(conversation: SubagentConversation, sender: SendMessageSender): ToolDefinition {
  return defineTool<typeof sendMessageInputSchema, SubagentMessageDetails>({
    name: "SendMessage",
    description: DESCRIPTION,
    inputSchema: sendMessageInputSchema,
    metadata: { groupId: "subagent", kind: "message", isReadOnly: true, displayCategory: "other", annotations: { readOnly: true, listedInPlanMode: true } },
    // Read-only for the workspace, but a second run posts the message twice on the bus: never run again after a crash.
    effects: "unsafe",
    async execute(input, context) {
      let roster;
      try {
        roster = await conversation.roster();
      } catch (error) {
        throw storeFailure(error);
      }
      const resolved = resolveSendMessage({ to: input.to, channel: input.channel, senderId: sender.id, roster });
      if (!resolved.ok) throw new ToolError("invalid_arguments", resolved.message);
      let message;
      try {
        message = await conversation.appendMessage({
          senderId: sender.id,
          recipientId: resolved.recipientId,
          channel: resolved.channel,
          ...(input.subject === undefined ? {} : { subject: input.subject }),
          body: input.message,
          ...(sender.runId === undefined ? {} : { sourceRunId: sender.runId }),
          sourceToolCallId: context.callId,
        });
      } catch (error) {
        throw storeFailure(error);
      }
      const recipientName =
        message.recipientId === PARENT_AGENT_ID
          ? "Parent Agent"
          : message.recipientId === "*"
            ? "All Agents"
            : (roster.find((identity) => identity.id.toLowerCase() === message.recipientId.toLowerCase())?.name ?? message.recipientId);
      const rendered = renderSendMessageResult({ message, senderName: sender.name, recipientName, parentConversationId: conversation.conversationId });
      return { content: rendered.text, details: rendered.details };
    },
  }) as unknown as ToolDefinition;
}

/** The tool error of a failed store (reading the roster or appending): never a silent drop; "Try again" only when that may help. */
function storeFailure(error: unknown): ToolError {
  const permanent = error instanceof ToolError && !error.recoverable;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError("io", `The message was not sent: the message store failed (${message}).${permanent ? "" : " Try again."}`, {
    cause: error,
    recoverable: !permanent,
  });
}
