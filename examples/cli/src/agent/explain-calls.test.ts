import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import type { ToolDefinition, ToolRegistry } from "@agent-tools/core";
import type { PolicyCall, PolicyVerdict, ToolCallPolicy } from "@agent-tools/core/policy";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "./agent-events.js";
import { runAgentLoop } from "./run-agent-loop.js";

function tool(name: string, isReadOnly: boolean, log: string[]): ToolDefinition {
  return {
    name,
    description: `${name} (test tool).`,
    jsonSchema: { type: "object", properties: { key: { type: "string" } }, additionalProperties: false },
    metadata: { groupId: "test", kind: isReadOnly ? "read" : "write", isReadOnly, displayCategory: "other" },
    scopes: ["chat", "cron"],
    async execute(input: { key?: string }) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      log.push(`run ${name} ${input.key}`);
      return { content: `${name} ${input.key}` };
    },
  };
}

/** A policy that denies Mutate by a rule and records who asked it what (the hook runs only in beforeCall). */
function recordingPolicy(log: string[]): ToolCallPolicy {
  const verdict = (call: PolicyCall): PolicyVerdict =>
    call.toolName === "Mutate"
      ? { decision: "deny", rule: "Mutate", layer: "project", reason: 'Mutate is denied by the rule "Mutate" (project settings).', hooks: [] }
      : { decision: "allow", rule: "Peek", layer: "user", hooks: [] };
  return {
    async beforeCall(call) {
      log.push(`hook ${call.toolName}`);
      return { ...verdict(call), hooks: [{ event: "PreToolUse", hook: "audit", kind: "command", decision: "allow", durationMs: 1 }] };
    },
    async explain(call, options) {
      log.push(`explain ${call.toolName} ${call.callId} runHooks=${options?.runHooks}`);
      return verdict(call);
    },
  };
}

describe("runAgentLoop with explainCalls", () => {
  let workdir: string;
  let registry: ToolRegistry;
  let log: string[];

  beforeEach(() => {
    workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cli-explain-")));
    log = [];
    const tools = [tool("Peek", true, log), tool("Mutate", false, log)];
    registry = createToolRegistry({
      workdir,
      dataDir: path.join(workdir, ".data"),
      bundles: [{ id: "test", trusted: true, listTools: () => tools }],
      policy: () => recordingPolicy(log),
    });
  });
  afterEach(async () => {
    await registry.close();
    rmSync(workdir, { recursive: true, force: true });
  });

  it("emits each call's policy decision right after its tool-start, without running hooks for it", async () => {
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: "a", name: "Peek", arguments: { key: "x" } },
          { id: "b", name: "peek", arguments: { key: "y" } },
          { id: "c", name: "Mutate", arguments: { key: "z" } },
        ],
      },
      "done",
    ]);
    const events: AgentEvent[] = [];
    await runAgentLoop({ model, registry, prompt: "go", maxTurns: 3, onEvent: (event) => events.push(event), explainCalls: true });

    const callEvents = events
      .filter((event) => event.type === "tool-start" || event.type === "policy")
      .map((event) => `${event.type} ${(event as { callId: string }).callId}`);
    expect(callEvents).toEqual(["tool-start a", "policy a", "tool-start b", "policy b", "tool-start c", "policy c"]);
    expect(events.find((event) => event.type === "policy" && event.callId === "b")).toEqual({
      type: "policy",
      callId: "b",
      toolName: "Peek",
      decision: "allow",
      rule: "Peek",
      layer: "user",
      hooks: [],
    });
    expect(events.find((event) => event.type === "policy" && event.callId === "c")).toMatchObject({ decision: "deny", rule: "Mutate", layer: "project" });
    // Explained without hooks, then decided for real once (the hook ran once per call); the denied call never ran.
    // The executor also asks the rules (without hooks) once more right before an admitted call runs: Peek a and b.
    expect(log.filter((line) => line.startsWith("explain")).sort()).toEqual([
      "explain Mutate c runHooks=false",
      "explain Peek a runHooks=false",
      "explain Peek a runHooks=false",
      "explain Peek b runHooks=false",
      "explain Peek b runHooks=false",
    ]);
    expect(log.filter((line) => line.startsWith("hook"))).toEqual(["hook Peek", "hook Peek", "hook Mutate"]);
    expect(log).not.toContain("run Mutate z");
    expect(events.find((event) => event.type === "tool-end" && event.callId === "c")).toMatchObject({ isError: true });
  });

  it("asks nothing of the policy when explanations are off", async () => {
    const model = new ScriptedModelClient([{ toolCalls: [{ id: "a", name: "Peek", arguments: { key: "x" } }] }, "done"]);
    const events: AgentEvent[] = [];
    await runAgentLoop({ model, registry, prompt: "go", maxTurns: 3, onEvent: (event) => events.push(event) });
    expect(events.some((event) => event.type === "policy")).toBe(false);
    // Only the executor's own check right before the call runs (after the hook), none from the loop.
    expect(log.filter((line) => line.startsWith("explain") || line.startsWith("hook"))).toEqual(["hook Peek", "explain Peek a runHooks=false"]);
  });
});
