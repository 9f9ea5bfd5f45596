/**
 * The tools the conformance suite's server scenarios call by name
 * (`test_simple_text`, `test_tool_with_progress`, ...), written as ordinary
 * agent-tools tools. They are served ONLY by the test's fixture process
 * (./server-fixture-main.ts, the agent-tools-mcp command with these as extra
 * tools); the shipped command has none of them. Each does what the suite's
 * scenario description asks of a server, through the registry's own
 * channels: content blocks, `onUpdate` (sent as progress and log
 * notifications), a thrown `ToolError`.
 *
 * Left out, because an agent-tools tool cannot express them (see
 * SCENARIOS in ./server-scenarios.ts): `test_audio_content`,
 * `test_embedded_resource`, `test_multiple_content_types` (a result holds
 * text and image blocks only), `test_sampling`, `test_elicitation*` (a tool
 * cannot send requests to the client), `test_reconnection` (a tool cannot
 * close its own SSE stream).
 */
import { type ToolDefinition, ToolError, defineTool } from "@agent-tools/core";
import { z } from "zod";

/** A 1x1 red PNG. */
const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const readOnly = { isReadOnly: true } as const;

/** Waits `ms`, or rejects when the call is aborted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const simpleText = defineTool({
  name: "test_simple_text",
  description: "Conformance fixture: answers a fixed text.",
  inputSchema: z.object({}),
  metadata: readOnly,
  execute: () => ({ content: "This is a simple text response for testing." }),
});

const imageContent = defineTool({
  name: "test_image_content",
  description: "Conformance fixture: answers a 1x1 red PNG.",
  inputSchema: z.object({}),
  metadata: readOnly,
  execute: () => ({ content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }] }),
});

const withLogging = defineTool({
  name: "test_tool_with_logging",
  description: "Conformance fixture: streams three updates 50 ms apart (sent as log messages to a client that set a log level).",
  inputSchema: z.object({}),
  metadata: readOnly,
  execute: async (_input, context) => {
    context.onUpdate({ text: "Tool execution started" });
    await pause(50, context.signal);
    context.onUpdate({ text: "Tool processing data" });
    await pause(50, context.signal);
    context.onUpdate({ text: "Tool execution completed" });
    return { content: "Tool with logging executed successfully" };
  },
});

const withProgress = defineTool({
  name: "test_tool_with_progress",
  description: "Conformance fixture: streams three progress updates (0, 50, 100 of 100) 50 ms apart.",
  inputSchema: z.object({}),
  metadata: readOnly,
  execute: async (_input, context) => {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await pause(50, context.signal);
      context.onUpdate({ data: { message: `${progress}/100`, progress, total: 100 } });
    }
    return { content: "Tool with progress executed successfully" };
  },
});

const errorHandling = defineTool({
  name: "test_error_handling",
  description: "Conformance fixture: always fails.",
  inputSchema: z.object({}),
  metadata: readOnly,
  execute: () => {
    throw new ToolError("other", "This tool intentionally returns an error for testing", { recoverable: false });
  },
});

/**
 * SEP-1613: the input schema keeps `$schema`, `$defs` and
 * `additionalProperties` in `tools/list`. `defineTool` drops `$schema` (some
 * model providers reject it), so this tool is written out with its JSON
 * Schema as a host (or a proxied MCP server) could hand it over; the zod
 * schema validates the same input.
 */
const jsonSchema202012: ToolDefinition = {
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features",
  inputSchema: z.strictObject({ name: z.string().optional(), address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional() }),
  jsonSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
    additionalProperties: false,
  },
  metadata: { groupId: "custom", kind: "custom", isReadOnly: true, displayCategory: "other" },
  scopes: ["chat", "cron"],
  execute: (input: { name?: string }) => ({ content: `Hello, ${input.name ?? "nobody"}` }),
};

/** Every fixture tool, in the order the suite lists its scenarios. */
export const CONFORMANCE_FIXTURE_TOOLS: readonly ToolDefinition[] = [simpleText, imageContent, withLogging, errorHandling, withProgress, jsonSchema202012];
