import { describe, expect, it } from "vitest";
import { compareIds, renderParentRoster, renderRosterForAgentTool } from "./roster-rendering.js";
import type { AgentPromptTemplate, SubagentIdentity, SubagentRunRecord } from "./subagent-types.js";

const identity = (id: string, extra: Partial<SubagentIdentity> = {}): SubagentIdentity => ({
  id,
  name: id.toUpperCase(),
  role: `${id} role`,
  identityPrompt: "",
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});
const run = (agentId: string, startedAt: number, extra: Partial<SubagentRunRecord> = {}): SubagentRunRecord => ({
  runId: `c:agent:1:${agentId}:${startedAt}`,
  agentId,
  status: "completed",
  mode: "readonly",
  prompt: "p",
  messages: [],
  contextSchemaVersion: 2,
  rounds: 1,
  toolCalls: 0,
  startedAt,
  updatedAt: startedAt,
  ...extra,
});
const template = (id: string): AgentPromptTemplate => ({ id, name: `${id} name`, description: `${id} description`, prompt: "p", enabled: true });

describe("compareIds", () => {
  it("orders by code unit, uppercase before lowercase, not by locale", () => {
    expect(["b", "a", "B", "A", "_x", "10", "9"].sort(compareIds)).toEqual(["10", "9", "A", "B", "_x", "a", "b"]);
  });
});

describe("renderRosterForAgentTool", () => {
  it("is empty with no agents and no templates", () => {
    expect(renderRosterForAgentTool({ roster: [], latestRuns: [], templates: [] })).toBe("");
  });

  it("lists agents by id in byte order with the latest run's status and summary, then templates", () => {
    const text = renderRosterForAgentTool({
      roster: [identity("beta", { lastMode: "worktree" }), identity("Alpha")],
      latestRuns: [run("beta", 1, { summary: "old" }), run("beta", 2, { status: "failed", summary: "Found\nthe bug." }), run("zeta", 3)],
      templates: [template("review")],
    });
    expect(text).toBe(
      [
        "Existing agents (reuse an id to resume it with its context):",
        "- Alpha: ALPHA (Alpha role)",
        "- beta: BETA (beta role, last mode=worktree, last run failed)",
        "  Last summary: Found the bug.",
        "",
        "Templates (set template=<id or name> on a new agent):",
        "- review (review name): review description",
      ].join("\n"),
    );
  });

  it("shows at most 12 agents and 12 templates and cuts summaries at 500 characters", () => {
    const roster = Array.from({ length: 14 }, (_, index) => identity(`a${String(index).padStart(2, "0")}`));
    const templates = Array.from({ length: 13 }, (_, index) => template(`t${index}`));
    const text = renderRosterForAgentTool({ roster, latestRuns: [run("a00", 1, { summary: "s".repeat(600) })], templates });
    expect(text).toContain("- a11:");
    expect(text).not.toContain("- a12:");
    expect(text).toContain("(2 more agents not listed)");
    expect(text).toContain("- t11 ");
    expect(text).not.toContain("- t12 ");
    expect(text).toContain("(1 more templates not listed)");
    expect(text).toContain(`  Last summary: ${"s".repeat(500)}...\n`);
    expect(text).not.toContain("s".repeat(501));
  });

  it("shows templates alone when there are no agents", () => {
    expect(renderRosterForAgentTool({ roster: [], latestRuns: [], templates: [template("t")] })).toBe(
      "Templates (set template=<id or name> on a new agent):\n- t (t name): t description",
    );
  });
});

describe("renderParentRoster", () => {
  it("is empty for an empty roster", () => {
    expect(renderParentRoster({ roster: [], latestRuns: [] })).toEqual({ stable: "", volatile: "" });
  });

  it("splits a stable identity section from a volatile run-status section", () => {
    const roster = [identity("b"), identity("a"), identity("c")];
    const first = renderParentRoster({ roster, latestRuns: [run("a", 1, { summary: "ok" })] });
    const second = renderParentRoster({
      roster,
      latestRuns: [run("a", 1, { summary: "ok" }), run("B", 2, { status: "cancelled", mode: "worktree", error: "Cancelled" })],
    });
    expect(first.stable).toBe(
      [
        "Subagents of this conversation (message them with SendMessage by id; resume them with Agent by id):",
        "- a: A — a role",
        "- b: B — b role",
        "- c: C — c role",
      ].join("\n"),
    );
    expect(second.stable).toBe(first.stable);
    expect(first.volatile).toBe("Subagent run status:\n- a: completed, mode=readonly, run c:agent:1:a:1; summary: ok");
    expect(second.volatile).toBe(
      [
        "Subagent run status:",
        "- a: completed, mode=readonly, run c:agent:1:a:1; summary: ok",
        "- b: cancelled, mode=worktree, run c:agent:1:B:2; error: Cancelled",
      ].join("\n"),
    );
    expect(renderParentRoster({ roster, latestRuns: [] }).volatile).toBe("");
  });

  it("cuts volatile fields at 360 characters and lists at most 12 agents", () => {
    const roster = Array.from({ length: 13 }, (_, index) => identity(`x${String(index).padStart(2, "0")}`));
    const { stable, volatile } = renderParentRoster({ roster, latestRuns: [run("x00", 1, { summary: "z".repeat(400) }), run("x12", 1)] });
    expect(stable).toContain("(1 more agents not listed)");
    expect(stable).not.toContain("- x12:");
    expect(volatile).toContain(`summary: ${"z".repeat(360)}...`);
    expect(volatile).not.toContain("z".repeat(361));
    expect(volatile).not.toContain("x12");
  });
});
