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
import { traceChildSpan } from "./tool-call-span.js";

const Fetches = defineTool({
  name: "Fetches",
  description: "Does two sub-steps, each traced; the second fails when asked.",
  inputSchema: z.object({ fail: z.boolean() }),
  execute: async ({ fail }, context) => {
    const first = await traceChildSpan(context.telemetry, "step one", { attributes: { "step.index": 1 } }, async () => "one");
    await traceChildSpan(context.telemetry, "step two", { kind: 2 }, async () => {
      if (fail) throw new ToolError("unavailable", "the backend at /secret/path is down");
    });
    return { content: `${first} two`, details: { traced: context.telemetry?.enabled ?? false } };
  },
});

describe("child spans of a tool call (context.telemetry)", () => {
  let workdir: string;
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  const registry = (telemetry?: { recordArguments?: boolean }) =>
    createToolRegistry({
      workdir,
      bundles: [{ id: "t", trusted: true, listTools: () => [Fetches] }],
      telemetry: telemetry ? { tracer: provider.getTracer("child-test"), ...telemetry } : undefined,
    });

  beforeEach(() => {
    workdir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-child-spans-"));
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  });
  afterEach(async () => {
    trace.disable();
    await provider.shutdown();
    rmSync(workdir, { recursive: true, force: true });
  });

  it("parents the spans a tool starts under its execute_tool span, in one trace", async () => {
    const result = await registry({}).executeToolCall({ id: "c1", name: "Fetches", arguments: { fail: false } });
    expect(result).toMatchObject({ isError: false, details: { traced: true } });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(["execute_tool Fetches", "step one", "step two"]);
    const parent = spans.find((span) => span.name === "execute_tool Fetches")!;
    for (const name of ["step one", "step two"]) {
      const child = spans.find((span) => span.name === name)!;
      expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    }
    expect(spans.find((span) => span.name === "step one")!.attributes["step.index"]).toBe(1);
    expect(spans.find((span) => span.name === "step two")!.kind).toBe(2);
  });

  it("marks a failing child span with the error's code, and its message only with recordArguments", async () => {
    const quiet = await registry({}).executeToolCall({ id: "c2", name: "Fetches", arguments: { fail: true } });
    expect(quiet.isError).toBe(true);
    const child = exporter.getFinishedSpans().find((span) => span.name === "step two")!;
    expect(child.status).toEqual({ code: 2, message: "unavailable" });
    expect(child.attributes["error.type"]).toBe("unavailable");
    exporter.reset();
    await registry({ recordArguments: true }).executeToolCall({ id: "c3", name: "Fetches", arguments: { fail: true } });
    const loud = exporter.getFinishedSpans().find((span) => span.name === "step two")!;
    expect(loud.status.message).toContain("/secret/path");
  });

  it("gives the tool a disabled telemetry when the call is not traced", async () => {
    const result = await registry().executeToolCall({ id: "c4", name: "Fetches", arguments: { fail: false } });
    expect(result).toMatchObject({ isError: false, details: { traced: false } });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});
