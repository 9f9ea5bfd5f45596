import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../agent/agent-events.js";
import { subagentBatchAgents, subagentCard, subagentCardState, subagentLine, summarizeSubagentBatch } from "./subagent-display.js";
import { TerminalDisplay } from "./terminal-display.js";

function render(events: AgentEvent[]): string {
  const stream = new PassThrough();
  let output = "";
  stream.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const display = new TerminalDisplay({ stream, colors: false, spinner: false });
  for (const event of events) display.handle(event);
  return output;
}

const reader = { id: "reader", status: "completed", mode: "readonly", rounds: 2, toolCalls: 5, summary: "Read it." };
const fixer = {
  id: "fixer",
  status: "completed",
  mode: "worktree",
  rounds: 3,
  toolCalls: 7,
  worktreePath: "/r/.agent-tools-subagents/app/s-fixer-1a2b",
  applyStatus: "applied",
  applyMethod: "git_apply",
  worktreeCleanupStatus: "removed",
  cleanupReason: "applied",
};
const drafter = {
  id: "drafter",
  status: "completed",
  mode: "worktree",
  rounds: 1,
  toolCalls: 1,
  worktreePath: "/r/.agent-tools-subagents/app/s-drafter-3c4d",
  applyStatus: "skipped",
  skipReason: "apply_policy_none",
  worktreeCleanupStatus: "retained",
  cleanupReason: "unapplied_changes",
};
const broken = {
  id: "broken",
  status: "failed",
  mode: "worktree",
  rounds: 0,
  toolCalls: 0,
  worktreePath: "/r/.agent-tools-subagents/app/s-broken-5e6f",
  worktreeCleanupStatus: "retained",
  cleanupReason: "agent_failed",
  error: "model unavailable",
};
const batch = {
  kind: "subagent_batch",
  status: "ok",
  agentCount: 4,
  concurrency: 4,
  totalDurationMs: 1200,
  mode: "mixed",
  agents: [reader, fixer, drafter, broken],
};

describe("subagent lines", () => {
  it("renders one line per agent with the apply outcome and the worktree cleanup", () => {
    const lines = (subagentBatchAgents(batch) ?? []).map(subagentLine);
    expect(lines).toEqual([
      "reader completed rounds=2 tools=5",
      "fixer completed rounds=3 tools=7 · applied (git_apply) · worktree removed",
      "drafter completed rounds=1 tools=1 · skipped (apply_policy_none) · worktree retained (unapplied_changes)",
      "broken failed rounds=0 tools=0 · not applied · worktree retained (agent_failed) · model unavailable",
    ]);
    expect(
      subagentLine({ id: "x", status: "completed", mode: "worktree", applyStatus: "failed", worktreeCleanupStatus: "retained", cleanupReason: "apply_failed" }),
    ).toBe("x completed rounds=0 tools=0 · failed · worktree retained (apply_failed)");
  });

  it("summarises a batch and a rejection, and ignores other details", () => {
    expect(summarizeSubagentBatch(batch)).toBe("4 agents · 1 failed");
    expect(summarizeSubagentBatch({ ...batch, agents: [reader] })).toBe("1 agent");
    expect(summarizeSubagentBatch({ kind: "subagent_batch", status: "rejected", agents: [], issues: [{ code: "duplicate_agent_id", message: "twice" }] })).toBe(
      "rejected (1 issue); no agents started",
    );
    expect(summarizeSubagentBatch({ kind: "subagent_card" })).toBeUndefined();
    expect(subagentBatchAgents({ replacements: 1 })).toBeUndefined();
    expect(subagentCard({ kind: "subagent_batch" })).toBeUndefined();
  });

  it("shows a card when the agent starts and once a worktree agent is settled", () => {
    expect(subagentCardState({ id: "a", status: "running", rounds: 4 })).toBe("running");
    expect(subagentCardState({ id: "a", status: "completed", mode: "worktree", worktreePath: "/w" })).toBeUndefined();
    expect(subagentCardState({ id: "a", status: "completed", mode: "worktree", worktreePath: "/w", worktreeCleanupStatus: "removed" })).toBe(
      "completed:removed",
    );
    // A worktree agent whose worktree was never created ends at once.
    expect(subagentCardState({ id: "a", status: "failed", mode: "worktree" })).toBe("failed:");
    expect(subagentCardState({ id: "a", status: "completed", mode: "readonly" })).toBe("completed:");
  });
});

describe("TerminalDisplay with the Agent tool", () => {
  it("streams a live line per agent from subagent_card updates, then one line per agent from subagent_batch", () => {
    const card = (index: number, agent: Record<string, unknown>) => ({
      type: "tool-output" as const,
      callId: "c1",
      toolName: "Agent",
      update: { data: { kind: "subagent_card", parentToolCallId: "c1", index, total: 2, concurrency: 2, agent } },
    });
    const output = render([
      { type: "tool-start", turn: 1, callId: "c1", toolName: "Agent", arguments: { agents: [{ id: "reader" }, { id: "fixer" }] }, parallel: false },
      card(1, { id: "reader", status: "running", rounds: 0, toolCalls: 0 }),
      card(2, { id: "fixer", status: "running", mode: "worktree", rounds: 0, toolCalls: 0 }),
      card(1, { id: "reader", status: "running", rounds: 1, toolCalls: 2 }),
      card(1, { ...reader }),
      card(2, { ...fixer, applyStatus: undefined, worktreeCleanupStatus: undefined }),
      card(2, { ...fixer }),
      {
        type: "tool-end",
        turn: 1,
        callId: "c1",
        toolName: "Agent",
        arguments: {},
        isError: false,
        text: "## Reader (reader): completed",
        details: { ...batch, agentCount: 2, agents: [reader, fixer] },
        durationMs: 1500,
      },
    ]);
    expect(output.split("\n").slice(1)).toEqual([
      "    ◦ 1/2 reader running rounds=0 tools=0",
      "    ◦ 2/2 fixer running rounds=0 tools=0",
      "    ◦ 1/2 reader completed rounds=2 tools=5",
      "    ◦ 2/2 fixer completed rounds=3 tools=7 · applied (git_apply) · worktree removed",
      "  ✓ 2 agents 1.5s",
      "    · reader completed rounds=2 tools=5",
      "    · fixer completed rounds=3 tools=7 · applied (git_apply) · worktree removed",
      "",
    ]);
    expect(output.split("\n")[0]).toMatch(/^▸ Agent/);
  });

  it("marks a batch with a failed agent and shows a rejection's issues from the text", () => {
    const failed = render([
      {
        type: "tool-end",
        turn: 1,
        callId: "c2",
        toolName: "Agent",
        arguments: {},
        isError: true,
        text: "## Broken (broken): failed",
        details: { ...batch, agentCount: 1, agents: [broken] },
        durationMs: 20,
      },
    ]);
    expect(failed).toContain("■ 1 agent · 1 failed 20ms");
    expect(failed).toContain("    · broken failed rounds=0 tools=0 · not applied · worktree retained (agent_failed) · model");
    const rejected = render([
      {
        type: "tool-end",
        turn: 1,
        callId: "c3",
        toolName: "Agent",
        arguments: {},
        isError: true,
        text: "Agent rejected this call. No subagents were started.\n\nIssues:\n1. [duplicate_agent_id] agent=a twice",
        details: { kind: "subagent_batch", status: "rejected", agents: [], issues: [{ code: "duplicate_agent_id", agentId: "a", message: "twice" }] },
        durationMs: 1,
      },
    ]);
    expect(rejected).toContain("✗ Agent rejected this call.");
    expect(rejected).toContain("1. [duplicate_agent_id] agent=a twice");
  });
});
