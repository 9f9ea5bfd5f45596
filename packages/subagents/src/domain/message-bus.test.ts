import { describe, expect, it } from "vitest";
import { renderBusDelta, renderBusSnapshot, visibleTo } from "./message-bus.js";
import type { SubagentChannel, SubagentMessage } from "./subagent-types.js";

let nextSeq = 0;
const message = (
  senderId: string,
  recipientId: string,
  body: string,
  channel: SubagentChannel = "direct",
  extra: Partial<SubagentMessage> = {},
): SubagentMessage => ({
  seq: ++nextSeq,
  senderId,
  recipientId,
  channel,
  body,
  createdAt: nextSeq,
  ...extra,
});
const names = new Map([
  ["scout", "Scout"],
  ["builder", "Builder"],
]);

describe("visibleTo", () => {
  it("shows messages to the viewer, broadcasts and the viewer's own, case-insensitively", () => {
    expect(visibleTo(message("parent", "Scout", "hi"), "scout")).toBe(true);
    expect(visibleTo(message("builder", "*", "all"), "scout")).toBe(true);
    expect(visibleTo(message("SCOUT", "builder", "mine"), "scout")).toBe(true);
    expect(visibleTo(message("builder", "parent", "not yours"), "scout")).toBe(false);
    expect(visibleTo(message("builder", "parent", "to parent"), "parent")).toBe(true);
  });
  it("hides empty bodies", () => {
    expect(visibleTo(message("parent", "scout", "  \n "), "scout")).toBe(false);
  });
});

describe("renderBusSnapshot", () => {
  it("says when there is nothing to see", () => {
    expect(renderBusSnapshot({ messages: [message("builder", "parent", "x")], viewerId: "scout", names })).toEqual({
      text: "Agent Message Bus: no messages for you yet.",
      renderedSeq: 0,
      omitted: 0,
    });
  });

  it("buckets by priority and block-quotes bodies", () => {
    nextSeq = 0;
    const messages = [
      message("builder", "*", "FYI: tests are slow", "shared"),
      message("parent", "*", "Use pnpm.\nNever npm.", "decision", { subject: "tooling" }),
      message("builder", "*", "Which node version?", "question"),
      message("parent", "scout", "Look at src/ first."),
      message("scout", "builder", "I took src/."),
      message("builder", "parent", "hidden from scout"),
    ];
    const snapshot = renderBusSnapshot({ messages, viewerId: "scout", names });
    expect(snapshot.renderedSeq).toBe(5);
    expect(snapshot.omitted).toBe(0);
    expect(snapshot.text).toBe(
      [
        "Agent Message Bus (5 of 5 messages you can see; newest last in each section)",
        "",
        "### Direct Inbox",
        "- seq=4 [direct] from parent to you",
        "> Look at src/ first.",
        "",
        "### Shared Decisions",
        "- seq=2 [decision] from parent to all agents subject: tooling",
        "> Use pnpm.",
        "> Never npm.",
        "",
        "### Open Questions",
        "- seq=3 [question] from Builder (builder) to all agents",
        "> Which node version?",
        "",
        "### Recent",
        "- seq=1 [shared] from Builder (builder) to all agents",
        "> FYI: tests are slow",
        "- seq=5 [direct] from you to Builder (builder)",
        "> I took src/.",
      ].join("\n"),
    );
  });

  it("cuts bodies at 2400 characters", () => {
    nextSeq = 0;
    const snapshot = renderBusSnapshot({ messages: [message("parent", "scout", "a".repeat(2500))], viewerId: "scout", names });
    expect(snapshot.text).toContain(`> ${"a".repeat(2400)}…\n> ... [truncated, total chars=2500]`);
    expect(snapshot.text).not.toContain("a".repeat(2401));
  });

  it("renders at most 24 messages, direct ones first, and reports the contiguous rendered prefix", () => {
    nextSeq = 0;
    const recent = Array.from({ length: 20 }, (_, index) => message("builder", "*", `recent ${index + 1}`, "shared")); // seq 1-20
    const direct = Array.from({ length: 10 }, (_, index) => message("parent", "scout", `direct ${index + 1}`)); // seq 21-30
    const snapshot = renderBusSnapshot({ messages: [...direct, ...recent], viewerId: "scout", names });
    expect(snapshot.omitted).toBe(6);
    // All 10 direct messages, then the 14 newest recent ones (seq 7-20): seq 1-6 were left out.
    expect(snapshot.text).toContain("direct 1\n");
    expect(snapshot.text).toContain("direct 10");
    expect(snapshot.text).not.toContain("recent 6\n");
    expect(snapshot.text).toContain("recent 7\n");
    expect(snapshot.renderedSeq).toBe(0);
    expect(snapshot.text).toContain("(6 messages omitted; messages after seq=0 not shown here are re-delivered via delta)");
    expect(snapshot.text.split("\n- seq=").length - 1).toBe(24);
  });

  it("computes renderedSeq up to the first omitted message", () => {
    nextSeq = 0;
    const early = Array.from({ length: 3 }, (_, index) => message("parent", "scout", `early direct ${index}`)); // 1-3
    const middle = Array.from({ length: 25 }, (_, index) => message("builder", "*", `shared ${index}`, "shared")); // 4-28
    const snapshot = renderBusSnapshot({ messages: [...early, ...middle], viewerId: "scout", names });
    // 3 direct + the 21 newest shared (seq 8-28): seq 4-7 omitted.
    expect(snapshot.omitted).toBe(4);
    expect(snapshot.renderedSeq).toBe(3);
  });

  it("orders input by seq whatever the given order", () => {
    nextSeq = 0;
    const first = message("parent", "scout", "one");
    const second = message("parent", "scout", "two");
    const snapshot = renderBusSnapshot({ messages: [second, first], viewerId: "scout", names });
    expect(snapshot.text.indexOf("one")).toBeLessThan(snapshot.text.indexOf("two"));
    expect(snapshot.renderedSeq).toBe(2);
  });
});

describe("renderBusDelta", () => {
  it("renders the visible messages after sinceSeq under its heading", () => {
    nextSeq = 0;
    const messages = [message("parent", "scout", "old"), message("builder", "parent", "not for scout"), message("builder", "scout", "new one", "question")];
    expect(renderBusDelta({ messages, viewerId: "scout", sinceSeq: 1, names })).toBe(
      ["Agent Message Bus (new messages)", "- seq=3 [question] from Builder (builder) to you", "> new one"].join("\n"),
    );
  });
  it("is empty when nothing is new", () => {
    nextSeq = 0;
    const messages = [message("parent", "scout", "old")];
    expect(renderBusDelta({ messages, viewerId: "scout", sinceSeq: 1, names })).toBe("");
    expect(renderBusDelta({ messages: [], viewerId: "scout", sinceSeq: 0, names })).toBe("");
  });
  it("shows the parent messages from agents by name", () => {
    nextSeq = 0;
    const text = renderBusDelta({
      messages: [message("Scout", "parent", "done"), message("BUILDER", "parent", "built")],
      viewerId: "parent",
      sinceSeq: 0,
      names,
    });
    // A name equal to the id is not repeated; names are found case-insensitively.
    expect(text).toContain("- seq=1 [direct] from Scout to you\n> done");
    expect(text).toContain("- seq=2 [direct] from Builder (BUILDER) to you\n> built");
  });
});
