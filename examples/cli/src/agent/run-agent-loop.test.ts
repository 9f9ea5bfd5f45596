import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import type { ToolDefinition, ToolRegistry } from "@agent-tools/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "./agent-events.js";
import { planBatches, runAgentLoop } from "./run-agent-loop.js";

// Tools of a test bundle: real definitions, validated by the registry's
// executor from their JSON Schema (no zod needed here).
function probeTools(log: string[]): ToolDefinition[] {
  let running = 0;
  const slowRead: ToolDefinition = {
    name: "SlowRead",
    description: "Reads slowly (test tool).",
    jsonSchema: { type: "object", properties: { key: { type: "string" } }, additionalProperties: false },
    metadata: { groupId: "test", kind: "read", isReadOnly: true, displayCategory: "other" },
    scopes: ["chat", "cron"],
    async execute(input: { key?: string }) {
      running += 1;
      log.push(`start ${input.key} concurrent=${running}`);
      await new Promise((resolve) => setTimeout(resolve, 40));
      running -= 1;
      log.push(`end ${input.key}`);
      return { content: `value of ${input.key}`, details: { key: input.key } };
    },
  };
  const mutate: ToolDefinition = {
    name: "Mutate",
    description: "Changes state (test tool).",
    jsonSchema: { type: "object", properties: { value: { type: "string" } }, additionalProperties: false },
    metadata: { groupId: "test", kind: "write", isReadOnly: false, displayCategory: "other" },
    scopes: ["chat", "cron"],
    execute(input: { value?: string }, context) {
      log.push(`mutate ${input.value} concurrent=${running}`);
      context.onUpdate({ text: `writing ${input.value}\n`, stream: "stdout" });
      return { content: `set ${input.value}` };
    },
  };
  return [slowRead, mutate];
}

describe("runAgentLoop", () => {
  let workdir: string;
  let registry: ToolRegistry;
  let log: string[];

  beforeEach(() => {
    workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cli-loop-")));
    log = [];
    const tools = probeTools(log);
    registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), bundles: [{ id: "test", trusted: true, listTools: () => tools }] });
  });
  afterEach(async () => {
    await registry.close();
    rmSync(workdir, { recursive: true, force: true });
  });

  it("runs tool calls, feeds results back and stops when the model answers", async () => {
    const model = new ScriptedModelClient([
      {
        text: "Looking.",
        toolCalls: [
          { id: "a", name: "SlowRead", arguments: { key: "x" } },
          { id: "b", name: "SlowRead", arguments: { key: "y" } },
          { id: "c", name: "Mutate", arguments: { value: "z" } },
        ],
      },
      "All done.",
    ]);
    const events: AgentEvent[] = [];
    const { summary, messages } = await runAgentLoop({ model, registry, prompt: "do it", maxTurns: 5, onEvent: (event) => events.push(event) });

    expect(summary).toMatchObject({ status: "answered", turns: 2, toolCalls: 3, failedToolCalls: 0, finalText: "All done." });
    // The two read-only calls overlapped; the mutating call ran after both ended.
    expect(log.filter((line) => line.startsWith("start"))).toContain("start y concurrent=2");
    expect(log.at(-1)).toBe("mutate z concurrent=0");
    // The model's second request carried the three results in call order.
    const second = model.requests[1]!.messages;
    expect(second.filter((message) => message.role === "tool").map((message) => (message as { content: string }).content)).toEqual([
      "value of x",
      "value of y",
      "set z",
    ]);
    expect(messages.at(-1)).toEqual({ role: "assistant", content: "All done.", toolCalls: undefined });
    expect(model.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["SlowRead", "Mutate"]);
    // Events: starts flagged parallel for the read-only pair, streamed output of Mutate, text deltas.
    const starts = events.filter((event) => event.type === "tool-start");
    expect(starts.map((event) => (event as { parallel: boolean }).parallel)).toEqual([true, true, false]);
    expect(events).toContainEqual({ type: "tool-output", callId: "c", toolName: "Mutate", update: { text: "writing z\n", stream: "stdout" } });
    expect(
      events
        .filter((event) => event.type === "model-text-delta")
        .map((event) => (event as { text: string }).text)
        .join(""),
    ).toBe("Looking.All done.");
    expect(events.at(-1)?.type).toBe("session-end");
  });

  it("appends what afterToolResults gives (e.g. the subagents' bus delta) after a turn's tool results, and nothing when it gives nothing", async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: "a", name: "SlowRead", arguments: { key: "x" } }] },
      { toolCalls: [{ id: "b", name: "SlowRead", arguments: { key: "y" } }] },
      "done",
    ]);
    const tails = ["Agent Message Bus (new messages)\n- scout: found it", ""];
    const { messages } = await runAgentLoop({
      model,
      registry,
      prompt: "go",
      maxTurns: 5,
      onEvent: () => undefined,
      afterToolResults: async () => tails.shift() ?? "",
    });
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "Agent Message Bus (new messages)\n- scout: found it" });
    expect(model.requests[2]!.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "b" });
    expect(messages.filter((message) => message.role === "user")).toHaveLength(2);
  });

  it("sends a malformed tool call back to the model as an error result", async () => {
    const model = new ScriptedModelClient([{ toolCalls: [{ id: "bad", name: "SlowRead", arguments: '{"key": "x"' }] }, "Sorry, retrying is not needed."]);
    const events: AgentEvent[] = [];
    const { summary } = await runAgentLoop({ model, registry, prompt: "go", maxTurns: 5, onEvent: (event) => events.push(event) });
    expect(summary).toMatchObject({ status: "answered", toolCalls: 1, failedToolCalls: 1 });
    const toolMessage = model.requests[1]!.messages.find((message) => message.role === "tool") as { content: string; isError?: boolean };
    expect(toolMessage.isError).toBe(true);
    expect(toolMessage.content).toMatch(/malformed JSON/);
    const start = events.find((event) => event.type === "tool-start") as { arguments: unknown };
    expect(start.arguments).toBe('{"key": "x"');
  });

  it("reports an unknown tool to the model and keeps going", async () => {
    const model = new ScriptedModelClient([{ toolCalls: [{ name: "Nope", arguments: {} }] }, "ok"]);
    const { summary } = await runAgentLoop({ model, registry, prompt: "go", maxTurns: 5, onEvent: () => undefined });
    expect(summary.status).toBe("answered");
    const toolMessage = model.requests[1]!.messages.find((message) => message.role === "tool") as { content: string };
    expect(toolMessage.content).toMatch(/Unknown tool: Nope/);
  });

  it("stops at the turn limit", async () => {
    const model = new ScriptedModelClient({ respond: () => ({ toolCalls: [{ name: "SlowRead", arguments: { key: "again" } }] }) });
    const { summary } = await runAgentLoop({ model, registry, prompt: "loop", maxTurns: 3, onEvent: () => undefined });
    expect(summary).toMatchObject({ status: "max-turns", turns: 3, toolCalls: 3 });
  });

  it("ends with model-error when the model fails, without throwing", async () => {
    const model = new ScriptedModelClient([{ error: new Error("HTTP 500 from provider") }]);
    const { summary } = await runAgentLoop({ model, registry, prompt: "x", maxTurns: 3, onEvent: () => undefined });
    expect(summary).toMatchObject({ status: "model-error", error: "HTTP 500 from provider", turns: 1 });
  });

  it("ends as aborted when the signal fires during a model turn", async () => {
    const controller = new AbortController();
    const model = new ScriptedModelClient([
      () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    ]);
    const { summary } = await runAgentLoop({ model, registry, prompt: "x", maxTurns: 3, signal: controller.signal, onEvent: () => undefined });
    expect(summary.status).toBe("aborted");
  });

  it("plans batches that keep the model's order", () => {
    const call = (id: string, name: string) => ({ id, name, arguments: "{}" });
    const batches = planBatches(registry, [call("1", "SlowRead"), call("2", "slowread"), call("3", "Mutate"), call("4", "SlowRead"), call("5", "Missing")]);
    expect(batches.map((batch) => batch.map((item) => item.id))).toEqual([["1", "2"], ["3"], ["4"], ["5"]]);
  });
});
