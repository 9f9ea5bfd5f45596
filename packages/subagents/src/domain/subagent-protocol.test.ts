import { describe, expect, it } from "vitest";
import { subagentCardArguments, subagentCardCallId, subagentRunId } from "./subagent-protocol.js";

describe("subagent protocol ids", () => {
  it("builds card call ids and run ids", () => {
    expect(subagentCardCallId("call_7", 1)).toBe("call_7:agent:1");
    expect(subagentRunId("call_7", 3, "Reviewer", "4f1c")).toBe("call_7:agent:3:Reviewer:4f1c");
  });
});

describe("subagentCardArguments", () => {
  it("carries the card flag, the 1-based index and the given agent facts", () => {
    expect(
      subagentCardArguments({
        parentToolCallId: "call_7",
        index: 2,
        total: 3,
        concurrency: 2,
        agent: { id: "scout", name: "Scout", role: "Explorer", mode: "worktree", prompt: "Look around" },
      }),
    ).toEqual({
      subagent_card: true,
      parent_tool_call_id: "call_7",
      index: 2,
      total: 3,
      concurrency: 2,
      id: "scout",
      name: "Scout",
      role: "Explorer",
      mode: "worktree",
      prompt: "Look around",
    });
  });

  it("leaves absent optional facts out", () => {
    const args = subagentCardArguments({ parentToolCallId: "c", index: 1, total: 1, agent: { id: "a" } });
    expect(args).toEqual({ subagent_card: true, parent_tool_call_id: "c", index: 1, total: 1, id: "a" });
    expect(Object.keys(args)).not.toContain("concurrency");
  });
});
