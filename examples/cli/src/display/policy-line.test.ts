import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AgentEvent, PolicyEvent } from "../agent/agent-events.js";
import { formatPolicyLine } from "./policy-line.js";
import { TerminalDisplay } from "./terminal-display.js";

function render(events: AgentEvent[], options: { colors?: boolean; columns?: number } = {}): string {
  const stream = Object.assign(new PassThrough(), { columns: options.columns ?? 200 });
  let output = "";
  stream.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const display = new TerminalDisplay({ stream, colors: options.colors ?? false, spinner: false });
  for (const event of events) display.handle(event);
  return output;
}

const denied: PolicyEvent = {
  type: "policy",
  callId: "c1",
  toolName: "Bash",
  decision: "deny",
  rule: "Bash(rm -rf *)",
  layer: "project",
  reason: 'Bash is denied by the rule "Bash(rm -rf *)" (project settings)\nfor the command "rm -rf build".',
  hooks: [],
};

describe("formatPolicyLine", () => {
  it("names the decision, the rule and its layer, the reason on one line, and each hook's answer", () => {
    expect(formatPolicyLine(denied)).toBe(
      'policy: deny · rule "Bash(rm -rf *)" (project) · Bash is denied by the rule "Bash(rm -rf *)" (project settings) for the command "rm -rf build".',
    );
    expect(formatPolicyLine({ type: "policy", callId: "c2", toolName: "Edit", decision: "ask", layer: "approval", hooks: [] })).toBe(
      "policy: ask · by approval",
    );
    expect(
      formatPolicyLine({
        type: "policy",
        callId: "c3",
        toolName: "Bash",
        decision: "deny",
        layer: "hook",
        hooks: [
          { event: "PreToolUse", hook: "audit", kind: "command", decision: "allow", durationMs: 3 },
          { event: "PreToolUse", hook: "http#1", kind: "http", error: "HTTP 500", durationMs: 4 },
          { event: "PreToolUse", hook: "quiet", kind: "function", durationMs: 1 },
        ],
      }),
    ).toBe("policy: deny · by hook · hooks: audit allow, http#1 failed (HTTP 500), quiet no decision");
  });
});

describe("TerminalDisplay with --explain", () => {
  it("shows the explanation as one dim line under its call, truncated to the width", () => {
    const start: AgentEvent = { type: "tool-start", turn: 1, callId: "c1", toolName: "Bash", arguments: { command: "rm -rf build" }, parallel: false };
    const lines = render([start, denied], { columns: 60 }).split("\n");
    expect(lines[0]).toMatch(/^▸ Bash \$ rm -rf build/);
    expect(lines[1]).toBe('  policy: deny · rule "Bash(rm -rf *)" (project) · Bash is …');
    expect(lines[1]!.length).toBe(60);
    expect(render([start, denied], { colors: true }).split("\n")[1]).toMatch(/^ {2}\x1b\[2mpolicy: deny/);
  });

  it("keeps a run of task calls together with their explanations, the checklist after the run", () => {
    const task = (callId: string, type: "tool-start" | "policy"): AgentEvent =>
      type === "policy"
        ? { type, callId, toolName: "TaskCreate", decision: "allow", layer: "approval", hooks: [] }
        : { type, turn: 1, callId, toolName: "TaskCreate", arguments: { subject: callId }, parallel: false };
    const end = (callId: string, subjects: string[]): AgentEvent => ({
      type: "tool-end",
      turn: 1,
      callId,
      toolName: "TaskCreate",
      arguments: {},
      isError: false,
      text: "ok",
      details: { tasks: subjects.map((subject, index) => ({ id: String(index + 1), subject, status: "pending" })) },
      durationMs: 1,
    });
    const output = render([
      task("a", "tool-start"),
      task("a", "policy"),
      end("a", ["a"]),
      task("b", "tool-start"),
      task("b", "policy"),
      end("b", ["a", "b"]),
      { type: "model-start", turn: 2 },
    ]);
    expect(output.match(/policy: allow · by approval/g)).toHaveLength(2);
    // One checklist, after the last call of the run.
    expect(output.match(/\[ \] a/g)).toHaveLength(1);
    expect(output.trimEnd().split("\n").slice(-2)).toEqual(["    [ ] a", "    [ ] b"]);
  });
});
