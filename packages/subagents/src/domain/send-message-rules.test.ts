import { describe, expect, it } from "vitest";
import { normalizeChannel, renderSendMessageResult, resolveSendMessage } from "./send-message-rules.js";
import type { SubagentIdentity, SubagentMessage } from "./subagent-types.js";

const roster: SubagentIdentity[] = [
  { id: "Scout", name: "Scout", role: "r", identityPrompt: "", createdAt: 0, updatedAt: 0 },
  { id: "builder", name: "Builder", role: "r", identityPrompt: "", createdAt: 0, updatedAt: 0 },
];

describe("resolveSendMessage: recipients", () => {
  it("broadcasts with *", () => {
    expect(resolveSendMessage({ to: "*", senderId: "scout", roster })).toEqual({ ok: true, recipientId: "*", channel: "shared" });
  });
  it("reaches the parent case-insensitively, except from the parent", () => {
    expect(resolveSendMessage({ to: "PARENT", senderId: "scout", roster })).toEqual({ ok: true, recipientId: "parent", channel: "direct" });
    expect(resolveSendMessage({ to: "Parent", senderId: "parent", roster })).toEqual({
      ok: false,
      message: "The parent agent cannot send a message to itself.",
    });
  });
  it("resolves roster ids case-insensitively to their canonical case", () => {
    expect(resolveSendMessage({ to: "scout", senderId: "parent", roster })).toEqual({ ok: true, recipientId: "Scout", channel: "direct" });
    expect(resolveSendMessage({ to: " BUILDER ", senderId: "Scout", roster })).toEqual({ ok: true, recipientId: "builder", channel: "direct" });
  });
  it("allows an empty to only with channel shared", () => {
    expect(resolveSendMessage({ channel: "shared", senderId: "scout", roster })).toEqual({ ok: true, recipientId: "*", channel: "shared" });
    expect(resolveSendMessage({ to: "", channel: "shared", senderId: "scout", roster })).toEqual({ ok: true, recipientId: "*", channel: "shared" });
    for (const channel of [undefined, "direct", "decision"]) {
      const result = resolveSendMessage({ to: " ", channel, senderId: "scout", roster });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain('"to" is required');
    }
  });
  it("lists the valid recipients for an unknown one", () => {
    expect(resolveSendMessage({ to: "ghost", senderId: "scout", roster })).toEqual({
      ok: false,
      message: 'Unknown recipient "ghost". Valid recipients: "parent", "*", "Scout", "builder".',
    });
    expect(resolveSendMessage({ to: "ghost", senderId: "parent", roster: [] })).toEqual({
      ok: false,
      message: 'Unknown recipient "ghost". Valid recipients: "*".',
    });
  });
});

describe("resolveSendMessage: channels", () => {
  it("normalises a broadcast: decision and question kept, anything else shared", () => {
    const channelFor = (channel?: string) => {
      const result = resolveSendMessage({ to: "*", channel, senderId: "scout", roster });
      return result.ok ? result.channel : undefined;
    };
    expect([channelFor(undefined), channelFor(""), channelFor("direct"), channelFor("bogus"), channelFor("decision"), channelFor("Question")]).toEqual([
      "shared",
      "shared",
      "shared",
      "shared",
      "decision",
      "question",
    ]);
  });
  it("normalises a direct message: shared and invalid become direct", () => {
    const channelFor = (channel?: string) => {
      const result = resolveSendMessage({ to: "builder", channel, senderId: "scout", roster });
      return result.ok ? result.channel : undefined;
    };
    expect([channelFor(undefined), channelFor("shared"), channelFor("bogus"), channelFor("direct"), channelFor("decision"), channelFor("question")]).toEqual([
      "direct",
      "direct",
      "direct",
      "direct",
      "decision",
      "question",
    ]);
    expect(normalizeChannel(undefined, false)).toBe("direct");
  });
});

describe("renderSendMessageResult", () => {
  const base: SubagentMessage = { seq: 7, senderId: "Scout", recipientId: "parent", channel: "direct", body: "done", createdAt: 1 };
  it("names the parent, all agents or the id", () => {
    const text = (recipientId: string) =>
      renderSendMessageResult({ message: { ...base, recipientId }, senderName: "Scout", recipientName: "x", parentConversationId: "c" }).text;
    expect(text("parent")).toBe("Message sent to parent via Agent Message Bus.\nseq=7\nchannel=direct");
    expect(text("*")).toBe("Message sent to all agents via Agent Message Bus.\nseq=7\nchannel=direct");
    expect(text("builder")).toBe("Message sent to builder via Agent Message Bus.\nseq=7\nchannel=direct");
  });
  it("fills the details with a body preview of 800 characters", () => {
    const { details } = renderSendMessageResult({
      message: { ...base, channel: "question", subject: "s", sourceRunId: "run", sourceToolCallId: "call", body: "b".repeat(801) },
      senderName: "Scout",
      recipientName: "Parent Agent",
      parentConversationId: "conv",
    });
    expect(details).toEqual({
      kind: "subagent_message",
      parentConversationId: "conv",
      seq: 7,
      senderId: "Scout",
      senderName: "Scout",
      recipientId: "parent",
      recipientName: "Parent Agent",
      channel: "question",
      subject: "s",
      sourceRunId: "run",
      sourceToolCallId: "call",
      bodyPreview: `${"b".repeat(800)}...`,
    });
    const short = renderSendMessageResult({
      message: { ...base, body: "b".repeat(800) },
      senderName: "S",
      recipientName: "P",
      parentConversationId: "c",
    }).details;
    expect(short.bodyPreview).toBe("b".repeat(800));
    expect(Object.keys(short)).not.toContain("subject");
  });
});
