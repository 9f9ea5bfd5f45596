import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolError } from "../errors.js";
import { createToolRegistry } from "../registry/create-tool-registry.js";
import { defineTool } from "../registry/define-tool.js";

const meta = { groupId: "test", kind: "read", isReadOnly: true, displayCategory: "file" } as const;

const Echo = defineTool({
  name: "Echo",
  description: "Echoes its text.",
  inputSchema: z.object({ text: z.string() }),
  metadata: meta,
  execute: ({ text }) => ({ content: `echo: ${text}` }),
});

const Fails = defineTool({
  name: "Fails",
  description: "Always fails.",
  inputSchema: z.object({ path: z.string() }),
  metadata: meta,
  execute: ({ path: target }) => {
    throw new ToolError("not_found", `No such file: ${target}`);
  },
});

const Hangs = defineTool({
  name: "Hangs",
  description: "Never finishes.",
  inputSchema: z.object({}),
  metadata: meta,
  execute: () => new Promise<never>(() => {}),
});

const Big = defineTool({
  name: "Big",
  description: "Returns a long text.",
  inputSchema: z.object({}),
  metadata: meta,
  maxOutputChars: 100,
  execute: () => ({ content: "x".repeat(1_000) }),
});

describe("OpenTelemetry spans of tool calls", () => {
  let workdir: string;
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  const registry = () => createToolRegistry({ workdir, bundles: [{ id: "test", trusted: true, listTools: () => [Echo, Fails, Hangs, Big] }] });

  beforeEach(() => {
    workdir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-telemetry-"));
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  });
  afterEach(async () => {
    trace.disable();
    await provider.shutdown();
    rmSync(workdir, { recursive: true, force: true });
  });

  it("records one execute_tool span for a successful call, without arguments by default", async () => {
    const tracer = provider.getTracer("test");
    const result = await registry().executeToolCall({ id: "call_1", name: "Echo", arguments: { text: "secret" } }, { telemetry: { tracer } });
    expect(result.isError).toBe(false);
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.name).toBe("execute_tool Echo");
    expect(span.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "Echo",
      "gen_ai.tool.call.id": "call_1",
      "agent_tools.status": "ok",
      "agent_tools.output.truncated": false,
      "agent_tools.output.length": "echo: secret".length,
    });
    expect(span.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    expect(JSON.stringify(span.attributes)).not.toContain("secret");
    expect(span.status.code).toBe(0);
  });

  it("takes the registry's telemetry option, and a call's own option wins", async () => {
    const registryTracer = provider.getTracer("registry");
    const withTelemetry = createToolRegistry({
      workdir,
      telemetry: { tracer: registryTracer, recordArguments: true },
      bundles: [{ id: "test", trusted: true, listTools: () => [Echo] }],
    });
    await withTelemetry.executeToolCall({ id: "call_r1", name: "Echo", arguments: { text: "from registry" } });
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(exporter.getFinishedSpans()[0]!.attributes["gen_ai.tool.call.arguments"]).toContain("from registry");
    await withTelemetry.executeToolCall({ id: "call_r2", name: "Echo", arguments: { text: "per call" } }, { telemetry: { tracer: registryTracer } });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    expect(spans[1]!.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    await withTelemetry.close();
  });

  it("records the arguments when recordArguments is true", async () => {
    const tracer = provider.getTracer("test");
    await registry().executeToolCall({ id: "call_2", name: "Echo", arguments: '{"text":"hello"}' }, { telemetry: { tracer, recordArguments: true } });
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes["gen_ai.tool.call.arguments"]).toBe('{"text":"hello"}');
  });

  it("records the error code and an ERROR status for a failing call, without the message by default", async () => {
    const tracer = provider.getTracer("test");
    const result = await registry().executeToolCall({ id: "call_3", name: "Fails", arguments: { path: "private.txt" } }, { telemetry: { tracer } });
    expect(result.isError).toBe(true);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes).toMatchObject({ "agent_tools.status": "error", "agent_tools.error.code": "not_found", "error.type": "not_found" });
    expect(span?.status).toEqual({ code: 2, message: "not_found" });
    expect(JSON.stringify(span?.attributes)).not.toContain("private.txt");
  });

  it("ends the span once, as cancelled, when the host aborts the call", async () => {
    const tracer = provider.getTracer("test");
    const controller = new AbortController();
    const pending = registry().executeToolCall({ id: "call_4", name: "Hangs", arguments: {} }, { signal: controller.signal, telemetry: { tracer } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    controller.abort();
    const result = await pending;
    expect(result.details).toMatchObject({ cancelled: true });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]?.attributes).toMatchObject({ "agent_tools.status": "cancelled", "agent_tools.error.code": "cancelled" });
    expect(spans[0]?.status.code).toBe(0);
  });

  it("records the truncated flag and the capped output length", async () => {
    await registry().executeToolCall({ id: "call_5", name: "Big", arguments: {} }, { telemetry: { tracer: provider.getTracer("test") } });
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes["agent_tools.output.truncated"]).toBe(true);
    expect(span?.attributes["agent_tools.output.length"]).toBeGreaterThan(100);
    expect(span?.attributes["agent_tools.output.length"]).toBeLessThan(1_000);
  });

  it("uses the global tracer of @opentelemetry/api when no tracer is given", async () => {
    trace.setGlobalTracerProvider(provider);
    await registry().executeToolCall({ id: "call_6", name: "Echo", arguments: { text: "a" } });
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("execute_tool Echo");
    expect(span?.instrumentationScope.name).toBe("@agent-tools/core");
  });

  it("records nothing and still answers when no global provider is registered", async () => {
    const result = await registry().executeToolCall({ id: "call_7", name: "Echo", arguments: { text: "a" } });
    expect(result.isError).toBe(false);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("ignores a tracer that throws", async () => {
    const tracer = {
      startSpan(): never {
        throw new Error("broken tracer");
      },
    };
    const result = await registry().executeToolCall({ id: "call_8", name: "Echo", arguments: { text: "a" } }, { telemetry: { tracer } });
    expect(result.isError).toBe(false);
  });
});
