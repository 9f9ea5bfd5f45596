import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type McpTestSetup, edgeStdio, setupMcp } from "./__fixtures__/test-servers.js";

describe("OpenTelemetry: MCP calls as child spans", () => {
  let setup: McpTestSetup;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("mcp-test");

  beforeAll(async () => {
    setup = await setupMcp([edgeStdio("edge")]);
  });
  afterAll(async () => {
    await setup?.close();
    trace.disable();
    await provider.shutdown();
  });
  beforeEach(() => exporter.reset());

  it("records a tools/call client span under the execute_tool span of the call", async () => {
    const result = await setup.registry.executeToolCall({ id: "call_mcp_1", name: "mcp_edge_echo", arguments: { text: "hi" } }, { telemetry: { tracer } });
    expect(result.isError).toBe(false);
    const spans = exporter.getFinishedSpans();
    const parent = spans.find((span) => span.name === "execute_tool mcp_edge_echo");
    const child = spans.find((span) => span.name === "tools/call echo");
    expect(parent).toBeDefined();
    expect(child).toBeDefined();
    expect(child!.parentSpanContext?.spanId).toBe(parent!.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
    expect(child!.kind).toBe(2);
    expect(child!.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "agent_tools.mcp.server_id": "edge",
      "network.transport": "pipe",
    });
    expect(child!.status.code).toBe(0);
    expect(JSON.stringify(child!.attributes)).not.toContain("hi");
  });

  it("marks the child span as an error when the server answers isError", async () => {
    const result = await setup.registry.executeToolCall({ id: "call_mcp_2", name: "mcp_edge_fail", arguments: {} }, { telemetry: { tracer } });
    expect(result.isError).toBe(true);
    const child = exporter.getFinishedSpans().find((span) => span.name === "tools/call fail");
    expect(child?.status.code).toBe(2);
    expect(child?.attributes["error.type"]).toBe("tool_error");
  });

  it("records no span when the call is not traced and the global provider is unset", async () => {
    const result = await setup.registry.executeToolCall({ id: "call_mcp_3", name: "mcp_edge_echo", arguments: { text: "x" } });
    expect(result.isError).toBe(false);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});
