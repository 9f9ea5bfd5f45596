import { describe, expect, it } from "vitest";
import { validateAgentBatch } from "./agent-batch-validation.js";
import { renderAgentRejection } from "./agent-rejection.js";
import type { AgentPromptTemplate, SubagentIdentity } from "./subagent-types.js";

const roster: SubagentIdentity[] = [
  { id: "scout", name: "Scout", role: "Explores", identityPrompt: "", lastMode: "readonly", createdAt: 1, updatedAt: 1 },
  { id: "Builder", name: "Builder", role: "Builds things", identityPrompt: "", createdAt: 1, updatedAt: 1 },
];
const templates: AgentPromptTemplate[] = [
  { id: "tpl-review", name: "Reviewer", description: "Reviews diffs", prompt: "p", enabled: true },
  { id: "tpl-off", name: "Off", description: "", prompt: "p", enabled: false },
];

describe("renderAgentRejection", () => {
  it("numbers every issue and lists the roster and the enabled templates", () => {
    const { text, details } = renderAgentRejection({
      issues: [
        { code: "invalid_arguments", message: 'Unknown Agent parameter "x".' },
        { code: "duplicate_agent_id", agentId: "scout", message: "dup" },
      ],
      roster,
      templates,
      concurrency: 2,
    });
    expect(text).toBe(
      [
        "Agent rejected this call. No subagents were started. Fix every issue and retry with one corrected call.",
        "",
        "Issues:",
        '1. [invalid_arguments] Unknown Agent parameter "x".',
        "2. [duplicate_agent_id] agent=scout dup",
        "",
        "Existing agents (reuse these ids to resume):",
        "- scout: Scout (Explores, last mode=readonly)",
        "- Builder: Builder (Builds things)",
        "",
        "Templates (template=<id or name>):",
        "- tpl-review (Reviewer): Reviews diffs",
      ].join("\n"),
    );
    expect(details).toEqual({
      kind: "subagent_batch",
      status: "rejected",
      agentCount: 0,
      concurrency: 2,
      totalDurationMs: 0,
      mode: "readonly",
      agents: [],
      issues: [
        { code: "invalid_arguments", message: 'Unknown Agent parameter "x".' },
        { code: "duplicate_agent_id", agentId: "scout", message: "dup" },
      ],
      roster,
      templates: [templates[0]],
    });
  });

  it("says (none) for an empty roster and no templates", () => {
    const { text } = renderAgentRejection({ issues: [{ code: "invalid_arguments", message: "m" }], roster: [], templates: [], concurrency: 1 });
    expect(text).toContain("Existing agents (reuse these ids to resume):\n(none)\n\nTemplates (template=<id or name>):\n(none)");
  });

  it("renders a validation result end to end", () => {
    const validation = validateAgentBatch(
      {
        agents: [
          { id: "a", prompt: "" },
          { id: "A", prompt: "p" },
        ],
      },
      { roster, templates, now: 0 },
    );
    expect(validation.ok).toBe(false);
    if (validation.ok) return;
    const { text } = renderAgentRejection({ issues: validation.issues, roster, templates, concurrency: validation.concurrency });
    expect(text).toContain("1. [invalid_arguments] agent=a agents[0].prompt must be a non-empty string");
    expect(text).toContain("2. [duplicate_agent_id] agent=A Agent id");
  });
});
