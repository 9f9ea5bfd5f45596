import type { ToolMetadata } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { asksByDefault, defaultDecisionOf } from "./default-decision.js";

const tool = (kind: ToolMetadata["kind"], isReadOnly = false, groupId: ToolMetadata["groupId"] = "custom"): ToolMetadata => ({
  groupId,
  kind,
  isReadOnly,
  displayCategory: "other",
});

describe("the decision when no permission rule matched", () => {
  it("asks for tools that reach outside the conversation, allows read-only and bookkeeping tools", () => {
    for (const kind of ["execute", "process", "write", "edit", "delete", "mcp", "skills", "cron", "manage", "http_get", "custom"] as const) {
      expect([kind, asksByDefault(tool(kind))]).toEqual([kind, true]);
    }
    for (const kind of ["task_create", "task_update", "memory", "ask_user", "exit_plan_mode", "agent", "message", "wait", "stop"] as const) {
      expect([kind, asksByDefault(tool(kind))]).toEqual([kind, false]);
    }
    expect(asksByDefault(tool("custom", true))).toBe(false);
  });

  it("the approval settings win: a rule naming the tool, its group, or an explicit defaultDecision", () => {
    expect(defaultDecisionOf("Bash", tool("execute", false, "shell"), undefined)).toBe("ask");
    expect(defaultDecisionOf("Bash", tool("execute", false, "shell"), { policies: { Bash: "allow" } })).toBe("allow");
    expect(defaultDecisionOf("Bash", tool("execute", false, "shell"), { policies: { "group:shell": "deny" } })).toBe("deny");
    expect(defaultDecisionOf("Bash", tool("execute", false, "shell"), { defaultDecision: "allow" })).toBe("allow");
    expect(defaultDecisionOf("TaskCreate", tool("task_create", false, "tasks"), undefined)).toBe("allow");
    expect(defaultDecisionOf("Read", tool("read", true, "fs"), { defaultDecision: "deny" })).toBe("allow");
  });
});
