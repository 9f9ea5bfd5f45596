import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../agent/agent-events.js";
import { summarizeArguments } from "./argument-summary.js";
import { TerminalDisplay, formatDuration } from "./terminal-display.js";

function render(events: AgentEvent[]): string {
  const stream = new PassThrough();
  let output = "";
  stream.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const display = new TerminalDisplay({ stream, colors: false, spinner: false });
  for (const event of events) display.handle(event);
  return output;
}

describe("TerminalDisplay", () => {
  it("shows tool lines, streamed shell output, an Edit diff, tasks and the summary", () => {
    const output = render([
      { type: "session-start", model: "demo:scripted", workdir: "/tmp/w", runtimeScope: "chat", tools: ["Read", "Edit"], prompt: "fix it" },
      { type: "model-start", turn: 1 },
      { type: "model-text-delta", turn: 1, text: "Let me " },
      { type: "model-text-delta", turn: 1, text: "look." },
      { type: "model-end", turn: 1, text: "Let me look.", toolCalls: [{ id: "1", name: "Edit", arguments: "{}" }], finishReason: "tool-calls", durationMs: 5 },
      {
        type: "tool-start",
        turn: 1,
        callId: "1",
        toolName: "Edit",
        arguments: { path: "src/a.js", old_string: "a\nreturn x - p;\n", new_string: "a\nreturn x * p;\n" },
        parallel: false,
      },
      {
        type: "tool-end",
        turn: 1,
        callId: "1",
        toolName: "Edit",
        arguments: { path: "src/a.js", old_string: "a\nreturn x - p;\n", new_string: "a\nreturn x * p;\n" },
        isError: false,
        text: "Edit: src/a.js",
        details: { replacements: 1, matchStrategy: "line-endings" },
        durationMs: 12,
      },
      { type: "tool-start", turn: 1, callId: "2", toolName: "Bash", arguments: { command: "npm test" }, parallel: false },
      { type: "tool-output", callId: "2", toolName: "Bash", update: { text: "✔ first te", stream: "stdout" } },
      { type: "tool-output", callId: "2", toolName: "Bash", update: { text: "st\n✔ second test\npartial", stream: "stdout" } },
      {
        type: "tool-end",
        turn: 1,
        callId: "2",
        toolName: "Bash",
        arguments: { command: "npm test" },
        isError: false,
        text: "# Shell Session",
        details: { status: "completed", exit_code: 0, duration_ms: 1900, output: [{ stream: "stdout", text: "ignored, already streamed" }] },
        durationMs: 1900,
      },
      { type: "tool-start", turn: 1, callId: "3", toolName: "TaskUpdate", arguments: { taskId: "1", status: "completed" }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "3",
        toolName: "TaskUpdate",
        arguments: { taskId: "1", status: "completed" },
        isError: false,
        text: "Updated",
        details: {
          taskId: "1",
          tasks: [
            { id: "1", subject: "Find it", status: "completed" },
            { id: "2", subject: "Fix it", status: "in_progress", activeForm: "Fixing it" },
            { id: "3", subject: "Test it", status: "pending" },
          ],
        },
        durationMs: 1,
      },
      { type: "tool-start", turn: 1, callId: "4", toolName: "Read", arguments: { path: "nope.js" }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "4",
        toolName: "Read",
        arguments: { path: "nope.js" },
        isError: true,
        text: "Read failed: nope.js does not exist.\nDid you mean: note.js?",
        details: {},
        durationMs: 1,
      },
      { type: "session-end", status: "answered", turns: 2, toolCalls: 4, failedToolCalls: 1, durationMs: 2500, finalText: "done" },
    ]);
    const lines = output.split("\n");
    expect(lines[0]).toBe("agent-tools · demo:scripted · /tmp/w · scope chat · 2 tools");
    expect(lines).toContain("› fix it");
    expect(lines).toContain("Let me look.");
    expect(lines).toContain("▸ Edit src/a.js");
    expect(lines).toContain("  ✓ 1 replacement · matchStrategy: line-endings 12ms");
    expect(lines).toContain("      a");
    expect(lines).toContain("    - return x - p;");
    expect(lines).toContain("    + return x * p;");
    expect(lines).toContain("▸ Bash $ npm test");
    expect(lines).toContain("    │ ✔ first test");
    expect(lines).toContain("    │ ✔ second test");
    expect(lines).toContain("    │ partial");
    expect(output).not.toContain("ignored, already streamed");
    expect(lines).toContain("  ✓ completed · exit 0 1.9s");
    expect(lines).toContain("  ✓ task #1 is completed 1ms");
    expect(lines).toContain("    [x] Find it");
    expect(lines).toContain("    [~] Fixing it");
    expect(lines).toContain("    [ ] Test it");
    expect(lines).toContain("  ✗ Read failed: nope.js does not exist.");
    expect(lines).toContain("    Did you mean: note.js?");
    expect(lines).toContain("✔ Done · 2 turns · 4 tool calls (1 failed) · 2.5s");
  });

  it("shows shell output from the details when nothing was streamed", () => {
    const output = render([
      { type: "tool-start", turn: 1, callId: "w", toolName: "ProcessWait", arguments: { session_id: "bash-1", cursor: 10 }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "w",
        toolName: "ProcessWait",
        arguments: { session_id: "bash-1" },
        isError: false,
        text: "",
        details: { status: "running", session_id: "bash-1", output: [{ stream: "stdout", text: "line one\nline two\n" }] },
        durationMs: 500,
      },
      { type: "session-end", status: "max-turns", turns: 20, toolCalls: 1, failedToolCalls: 0, durationMs: 61_000, finalText: "" },
    ]);
    expect(output).toContain("▸ ProcessWait session bash-1 from byte 10");
    expect(output).toContain("  ✓ running · session bash-1");
    expect(output).toContain("    │ line one\n    │ line two\n");
    expect(output).toContain("■ Stopped at the turn limit · 20 turns · 1 tool call (0 failed) · 1m 01s");
  });

  it("shows the first lines of a file that Write created", () => {
    const content = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n");
    const output = render([
      { type: "tool-start", turn: 1, callId: "w", toolName: "Write", arguments: { path: "new.txt", content }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "w",
        toolName: "Write",
        arguments: { path: "new.txt", content },
        isError: false,
        text: "File created",
        details: { existedBefore: false, totalLines: 10 },
        durationMs: 3,
      },
    ]);
    expect(output).toContain("▸ Write new.txt (10 lines)\n  ✓ created · 10 lines 3ms\n    + line 1\n");
    expect(output).toContain("    + line 8\n    … 2 more lines\n");
    expect(output).not.toContain("line 9");
  });

  it("shows a long search's progress in the spinner line", () => {
    const stream = new PassThrough();
    let output = "";
    stream.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const display = new TerminalDisplay({ stream, colors: false, spinner: true });
    display.handle({ type: "tool-start", callId: "c1", toolName: "Grep", arguments: { pattern: "x" }, parallel: false });
    const message = "Grep: searching, 12 matching lines in 3 files so far (1.0 s)";
    display.handle({
      type: "tool-output",
      callId: "c1",
      toolName: "Grep",
      update: { data: { kind: "grep_progress", matchCount: 12, fileCount: 3, elapsedMs: 1000, message } },
    });
    display.handle({ type: "tool-output", callId: "c1", toolName: "Grep", update: { data: { kind: "other", message: "NOT PROGRESS" } } });
    expect(output).toContain("running Grep: searching, 12 matching lines in 3 files so far");
    expect(output).not.toContain("NOT PROGRESS");
  });

  it("shows a model error clearly", () => {
    const output = render([
      { type: "session-end", status: "model-error", turns: 1, toolCalls: 0, failedToolCalls: 0, durationMs: 30, finalText: "", error: "HTTP 401: bad key" },
    ]);
    expect(output).toContain("✖ Model error: HTTP 401: bad key · 1 turn · 0 tool calls (0 failed) · 30ms");
  });

  it("adds token counts to the summary when the model reported them", () => {
    const output = render([
      {
        type: "session-end",
        status: "answered",
        turns: 3,
        toolCalls: 2,
        failedToolCalls: 0,
        durationMs: 4200,
        finalText: "ok",
        usage: { inputTokens: 12_345, outputTokens: 678 },
      },
    ]);
    expect(output).toContain("✔ Done · 3 turns · 2 tool calls (0 failed) · 4.2s · 12.3k tokens in, 678 out");
  });
});

describe("summarizeArguments", () => {
  it("summarises the common tools in one line", () => {
    expect(summarizeArguments("Read", { path: "a.ts", start_line: 10, limit: 31 })).toBe("a.ts:10-40");
    expect(summarizeArguments("Grep", { pattern: "foo", path: "src", file_pattern: "*.ts" })).toBe("/foo/ in src (*.ts)");
    expect(summarizeArguments("Bash", { command: "npm test\n  --silent" })).toBe("$ npm test --silent");
    expect(summarizeArguments("Write", { path: "b.md", content: "x\ny\n" })).toBe("b.md (3 lines)");
    expect(summarizeArguments("TaskUpdate", { taskId: "2", status: "completed" })).toBe("#2 → completed");
    expect(summarizeArguments("Custom", { a: 1, b: "two" })).toBe('a=1 b="two"');
    expect(summarizeArguments("Read", '{"path":', 40)).toBe('(malformed arguments) {"path":');
    expect(summarizeArguments("Bash", { command: "x".repeat(200) }, 20)).toHaveLength(20);
  });

  it("formats durations", () => {
    expect([formatDuration(850), formatDuration(1949), formatDuration(125_000)]).toEqual(["850ms", "1.9s", "2m 05s"]);
  });
});

describe("TerminalDisplay diffs of the other edit forms", () => {
  const end = (toolName: string, args: Record<string, unknown>, details: Record<string, unknown>): AgentEvent => ({
    type: "tool-end",
    turn: 1,
    callId: "9",
    toolName,
    arguments: args,
    isError: false,
    text: `${toolName}: done`,
    details,
    durationMs: 3,
  });

  it("shows every pair of a multi-edit Edit", () => {
    const output = render([
      end(
        "Edit",
        {
          path: "a.ts",
          edits: [
            { old_string: "const a = 1;", new_string: "const a = 2;" },
            { old_string: "let b;", new_string: "let b = 0;" },
          ],
        },
        { replacements: 2 },
      ),
    ]);
    expect(output).toContain("- const a = 1;");
    expect(output).toContain("+ const a = 2;");
    expect(output).toContain("- let b;");
    expect(output).toContain("+ let b = 0;");
  });

  it("shows an ApplyPatch call's unified diff from its details", () => {
    const diff = "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@\n keep\n-old line\n+new line\n";
    const output = render([end("ApplyPatch", { patch: "*** Begin Patch\n..." }, { kind: "apply_patch", files: [], diff })]);
    expect(output).toContain("+++ b/src/x.ts");
    expect(output).toContain("- old line");
    expect(output).toContain("+ new line");
    expect(output).toContain("  keep");
  });
});
