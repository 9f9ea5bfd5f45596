/**
 * SendMessage's rules as pure functions: who a message goes to, on which
 * channel, and how the result reads.
 */
import type { SubagentMessageDetails } from "./subagent-protocol.js";
import { BROADCAST_RECIPIENT, PARENT_AGENT_ID, SUBAGENT_LIMITS, type SubagentChannel, type SubagentIdentity, type SubagentMessage } from "./subagent-types.js";

/** The outcome of {@link resolveSendMessage}. */
export type SendMessageResolution =
  | { readonly ok: true; readonly recipientId: string; readonly channel: SubagentChannel }
  | { readonly ok: false; readonly message: string };

/**
 * Resolves a SendMessage recipient and channel. `*` broadcasts; `parent`
 * (any case) reaches the parent, except from the parent itself; a roster id
 * matches case-insensitively and resolves to its canonical case; an empty
 * `to` is allowed only with `channel=shared` (a broadcast). Channels: a
 * broadcast keeps `decision`/`question` and is otherwise `shared`; a direct
 * message keeps `direct`/`decision`/`question` and is otherwise `direct`.
 *
 * @example
 * resolveSendMessage({ to: "SCOUT", senderId: "parent", roster }); // { ok: true, recipientId: "scout", channel: "direct" }
 */
export function resolveSendMessage(options: {
  readonly to?: string;
  readonly channel?: string;
  readonly senderId: string;
  readonly roster: readonly SubagentIdentity[];
}): SendMessageResolution {
  const to = options.to?.trim() ?? "";
  const channel = options.channel?.trim().toLowerCase() ?? "";
  const fromParent = options.senderId.toLowerCase() === PARENT_AGENT_ID;
  let recipientId: string;
  if (to === "") {
    if (channel !== "shared") {
      return {
        ok: false,
        message: `"to" is required: use "parent", "*" (all agents) or an agent id. Only channel "shared" may leave it empty (then the message goes to all agents).`,
      };
    }
    recipientId = BROADCAST_RECIPIENT;
  } else if (to === BROADCAST_RECIPIENT) {
    recipientId = BROADCAST_RECIPIENT;
  } else if (to.toLowerCase() === PARENT_AGENT_ID) {
    if (fromParent) return { ok: false, message: "The parent agent cannot send a message to itself." };
    recipientId = PARENT_AGENT_ID;
  } else {
    const identity = options.roster.find((candidate) => candidate.id.toLowerCase() === to.toLowerCase());
    if (identity === undefined) {
      const valid = [...(fromParent ? [] : [PARENT_AGENT_ID]), BROADCAST_RECIPIENT, ...options.roster.map((candidate) => candidate.id)];
      return { ok: false, message: `Unknown recipient "${to}". Valid recipients: ${valid.map((id) => `"${id}"`).join(", ")}.` };
    }
    recipientId = identity.id;
  }
  return { ok: true, recipientId, channel: normalizeChannel(channel, recipientId === BROADCAST_RECIPIENT) };
}

/** The channel a message travels on, given the requested one (any string) and whether it is a broadcast. */
export function normalizeChannel(requested: string | undefined, broadcast: boolean): SubagentChannel {
  const channel = requested?.trim().toLowerCase();
  if (channel === "decision" || channel === "question") return channel;
  return broadcast ? "shared" : "direct";
}

/**
 * SendMessage's result: `Message sent to <parent|all agents|id> via Agent
 * Message Bus.` with the seq and channel, and `subagent_message` details
 * carrying a body preview of at most 800 characters (plus `...`).
 */
export function renderSendMessageResult(options: {
  readonly message: SubagentMessage;
  readonly senderName: string;
  readonly recipientName: string;
  readonly parentConversationId: string;
}): { text: string; details: SubagentMessageDetails } {
  const { message } = options;
  const target = message.recipientId === PARENT_AGENT_ID ? "parent" : message.recipientId === BROADCAST_RECIPIENT ? "all agents" : message.recipientId;
  const limit = SUBAGENT_LIMITS.messagePreviewChars;
  const bodyPreview = message.body.length > limit ? `${message.body.slice(0, limit)}...` : message.body;
  return {
    text: `Message sent to ${target} via Agent Message Bus.\nseq=${message.seq}\nchannel=${message.channel}`,
    details: {
      kind: "subagent_message",
      parentConversationId: options.parentConversationId,
      seq: message.seq,
      senderId: message.senderId,
      senderName: options.senderName,
      recipientId: message.recipientId,
      recipientName: options.recipientName,
      channel: message.channel,
      ...(message.subject === undefined ? {} : { subject: message.subject }),
      ...(message.sourceRunId === undefined ? {} : { sourceRunId: message.sourceRunId }),
      ...(message.sourceToolCallId === undefined ? {} : { sourceToolCallId: message.sourceToolCallId }),
      bodyPreview,
    },
  };
}
