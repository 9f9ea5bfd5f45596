import { describe, expect, it } from "vitest";
import { applyPolicySentence, BUS_REFRESH_HEADER, buildContinuationMessage, buildSubagentSystemPrompt, buildTaskMessage } from "./subagent-prompts.js";
import type { SubagentIdentity } from "./subagent-types.js";

const identity: SubagentIdentity = {
  id: "scout",
  name: "Scout",
  role: "Explores the code",
  identityPrompt: "Answer in bullet points.",
  createdAt: 0,
  updatedAt: 0,
};
const worktree = { path: "/work/.agent-tools-subagents/repo/s-1", workdir: "/work/.agent-tools-subagents/repo/s-1/pkg", branch: "agent-tools/subagent/s-1" };

describe("buildSubagentSystemPrompt", () => {
  it("states identity, readonly rules and the messaging rules", () => {
    const prompt = buildSubagentSystemPrompt({ identity, mode: "readonly", applyPolicy: "none", allowedOutputPaths: [], parentWorkdir: "/repo" });
    expect(prompt).toContain("You are Scout (agent id: scout), a subagent");
    expect(prompt).toContain("Role: Explores the code");
    expect(prompt).toContain("Instructions:\nAnswer in bullet points.");
    expect(prompt).toContain("Mode: readonly.");
    expect(prompt).toContain("parent's workspace at /repo, read-only");
    expect(prompt).toContain("You cannot start other agents.");
    expect(prompt).toContain("only through SendMessage");
    expect(prompt).not.toContain("Apply policy");
    expect(prompt).not.toContain("worktree at");
  });

  it("states the worktree paths, branch and the apply-policy sentence in worktree mode", () => {
    const prompt = buildSubagentSystemPrompt({
      identity: { ...identity, identityPrompt: "" },
      mode: "worktree",
      applyPolicy: "explicit",
      allowedOutputPaths: ["docs/**", "README.md"],
      parentWorkdir: "/repo/pkg",
      worktree,
    });
    expect(prompt).toContain("Mode: worktree.");
    expect(prompt).toContain(`own git worktree at ${worktree.path} (branch ${worktree.branch}); your working directory is ${worktree.workdir}.`);
    expect(prompt).toContain("Do not change the parent's workspace at /repo/pkg.");
    expect(prompt).toContain("matches one of: docs/**, README.md.");
    expect(prompt).not.toContain("Instructions:");
  });

  it("puts the template prompt before the identity prompt", () => {
    const prompt = buildSubagentSystemPrompt({
      identity,
      mode: "readonly",
      applyPolicy: "none",
      allowedOutputPaths: [],
      parentWorkdir: "/repo",
      template: { id: "t", name: "T", description: "", prompt: "Check every claim.", enabled: true },
    });
    expect(prompt).toContain("Instructions:\nCheck every claim.\n\nAnswer in bullet points.");
  });

  it("has one sentence per apply policy", () => {
    expect(applyPolicySentence("none", [])).toContain("not applied to the parent's workspace");
    expect(applyPolicySentence("auto", [])).toContain("all your changes are applied");
    expect(applyPolicySentence("explicit", ["a", "b/*"])).toContain("matches one of: a, b/*.");
  });
});

describe("task and continuation messages", () => {
  it("wraps the task", () => {
    expect(buildTaskMessage("Find the bug.")).toBe("Your task:\n\nFind the bug.");
  });

  it("names the agent, the previous run, the mode change, the new task and the bus", () => {
    const text = buildContinuationMessage({
      identity,
      previousRunId: "c1:agent:1:scout:u",
      previousMode: "readonly",
      mode: "worktree",
      prompt: "Now fix it.",
      busSnapshot: "Agent Message Bus (1 of 1)",
    });
    expect(text).toBe(
      [
        "You are resuming as Scout (agent id: scout, role: Explores the code).",
        "Previous run: c1:agent:1:scout:u. The conversation above is that run's context.",
        "Mode: readonly -> worktree. Follow the rules of mode=worktree from now on.",
        "",
        "New task:",
        "",
        "Now fix it.",
        "",
        "Agent Message Bus (1 of 1)",
      ].join("\n"),
    );
  });

  it("says an unchanged mode and leaves out an empty snapshot", () => {
    const text = buildContinuationMessage({ identity, previousRunId: "r", previousMode: "readonly", mode: "readonly", prompt: "Again.", busSnapshot: " " });
    expect(text).toContain("Mode: readonly (unchanged).");
    expect(text.endsWith("New task:\n\nAgain.")).toBe(true);
  });

  it("has the refresh header", () => {
    expect(BUS_REFRESH_HEADER).toBe("Agent Message Bus snapshot refreshed for this turn.");
  });
});
