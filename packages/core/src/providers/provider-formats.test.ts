import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import { defineTool } from "../registry/define-tool.js";
import { type ToolRegistry, createToolRegistry } from "../registry/create-tool-registry.js";
import type { ToolBundle, ToolDefinition, ToolSchema } from "../types.js";
import { toAnthropicTools } from "./anthropic-tools.js";
import { toOpenAIResponsesTools } from "./openai-responses-tools.js";
import { fromStrictArguments } from "./openai-strict-schema.js";
import { toOpenAITools } from "./openai-tools.js";

const metadata = { groupId: "system", kind: "custom", isReadOnly: true, displayCategory: "other" } as const;

const Echo = defineTool({
  name: "Echo",
  description: "Returns its text.",
  inputSchema: z.object({ text: z.string().describe("What to return."), times: z.number().int().min(1).max(3).optional() }),
  metadata,
  execute: ({ text, times }) => ({ content: text.repeat(times ?? 1) }),
});

function foreignTool(name: string, jsonSchema: Record<string, unknown>): ToolDefinition {
  return {
    name,
    description: `Foreign ${name}.`,
    jsonSchema: jsonSchema as ToolDefinition["jsonSchema"],
    metadata: { ...metadata, groupId: "mcp", kind: "mcp" },
    scopes: ["chat", "cron"],
    execute: () => ({ content: "ok" }),
  };
}

const mcpBundle = (tools: ToolDefinition[]): ToolBundle => ({ id: "mcp", trusted: false, listTools: () => tools });

describe("provider formats", () => {
  let workdir: string;
  let registry: ToolRegistry;
  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "agent-tools-providers-"));
    registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), bundles: [{ id: "echo", trusted: true, listTools: () => [Echo] }] });
  });
  afterAll(async () => {
    await registry.close();
    await rm(workdir, { recursive: true, force: true });
  });

  it("renders OpenAI function tools", () => {
    const tools = toOpenAITools(registry);
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchInlineSnapshot(`
      {
        "function": {
          "description": "Returns its text.",
          "name": "Echo",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "text": {
                "description": "What to return.",
                "type": "string",
              },
              "times": {
                "maximum": 3,
                "minimum": 1,
                "type": "integer",
              },
            },
            "required": [
              "text",
            ],
            "type": "object",
          },
        },
        "type": "function",
      }
    `);
  });

  it("accepts the registry or its tools array alike", () => {
    expect(toOpenAITools(registry.tools)).toEqual(toOpenAITools(registry));
    expect(toAnthropicTools(registry.tools)).toEqual(toAnthropicTools(registry));
  });

  it("renders Anthropic tools, with cache control on the last one when asked", () => {
    const source = { tools: [...registry.tools, { name: "Second", description: "Two.", inputSchema: { type: "object" as const } }] };
    const tools = toAnthropicTools(source, { cacheControl: true });
    expect(tools.map((tool) => tool.name)).toEqual(["Echo", "Second"]);
    expect(tools[0]).toEqual({ name: "Echo", description: "Returns its text.", input_schema: registry.tools[0]!.inputSchema });
    expect(tools[1]).toEqual({ name: "Second", description: "Two.", input_schema: { type: "object", properties: {} }, cache_control: { type: "ephemeral" } });
    expect(toAnthropicTools(source)[1]!.cache_control).toBeUndefined();
  });

  const invalid: [string, ToolSchema, RegExp][] = [
    ["a dotted name", { name: "server.tool", description: "d", inputSchema: { type: "object" } }, /name must match/],
    ["a name with spaces", { name: "my tool", description: "d", inputSchema: { type: "object" } }, /name must match/],
    ["a 65-character name", { name: "x".repeat(65), description: "d", inputSchema: { type: "object" } }, /name must match/],
    ["an empty name", { name: "", description: "d", inputSchema: { type: "object" } }, /name must match/],
    [
      "a top-level anyOf",
      { name: "Union", description: "d", inputSchema: { type: "object", anyOf: [{ required: ["a"] }, { required: ["b"] }] } },
      /"anyOf" at the top level/,
    ],
    ["a non-object type", { name: "Arr", description: "d", inputSchema: { type: "array" } as never }, /must be "object"/],
    ["non-object properties", { name: "Props", description: "d", inputSchema: { type: "object", properties: [] as never } }, /properties is not an object/],
  ];

  for (const [label, tool, message] of invalid) {
    it(`refuses ${label} for OpenAI and Anthropic`, () => {
      for (const render of [toOpenAITools, toAnthropicTools]) {
        const error = (() => {
          try {
            render({ tools: [tool] });
            return undefined;
          } catch (reason) {
            return reason;
          }
        })();
        expect(error).toBeInstanceOf(SdkError);
        expect((error as SdkError).code).toBe("invalid_tool_definition");
        expect((error as Error).message).toMatch(message);
      }
    });
  }

  it("refuses duplicate names and more than 128 OpenAI tools", () => {
    const tool = { name: "Same", description: "d", inputSchema: { type: "object" as const } };
    expect(() => toOpenAITools({ tools: [tool, tool] })).toThrow(/same name/);
    const many = Array.from({ length: 129 }, (_, index) => ({ ...tool, name: `T${index}` }));
    expect(() => toOpenAITools({ tools: many })).toThrow(/at most 128 tools/);
    expect(() => toOpenAIResponsesTools({ tools: many })).toThrow(/at most 128 tools/);
    expect(toAnthropicTools({ tools: many })).toHaveLength(129);
  });

  it("with invalidTools skip, keeps the first 128 OpenAI tools and reports the rest as skipped", () => {
    const many = Array.from({ length: 130 }, (_, index) => ({ name: `T${index}`, description: "d", inputSchema: { type: "object" as const } }));
    for (const render of [toOpenAITools, toOpenAIResponsesTools]) {
      const skipped: string[] = [];
      const tools = render(
        { tools: [{ name: "bad.name", description: "d", inputSchema: { type: "object" } }, ...many] },
        {
          invalidTools: "skip",
          onSkip: (name) => skipped.push(name),
        },
      );
      expect(tools).toHaveLength(128);
      expect(skipped).toEqual(["bad.name", "T128", "T129"]);
    }
    const reasons: string[] = [];
    toOpenAITools({ tools: many }, { invalidTools: "skip", onSkip: (_name, reason) => reasons.push(reason) });
    expect(reasons[0]).toBe('OpenAI accepts at most 128 tools in one request; the registry offers 130. Tool "T128" is past the limit.');
    const error = (() => {
      try {
        toOpenAITools({ tools: many }, { invalidTools: "throw" });
      } catch (reason) {
        return reason as SdkError;
      }
    })();
    expect(error?.code).toBe("invalid_options");
  });

  it("renders OpenAI Responses function tools, flat and with strict false by default", () => {
    const tools = toOpenAIResponsesTools(registry);
    expect(tools).toEqual([{ type: "function", name: "Echo", description: "Returns its text.", parameters: registry.tools[0]!.inputSchema, strict: false }]);
    expect(toOpenAIResponsesTools(registry.tools)).toEqual(tools);
  });

  it("renders strict OpenAI tools in both formats: all required, optional ones nullable", () => {
    const [responses] = toOpenAIResponsesTools(registry, { strict: true });
    const [chat] = toOpenAITools(registry, { strict: true });
    expect(responses!.strict).toBe(true);
    expect(chat!.function.strict).toBe(true);
    expect(chat!.function.parameters).toEqual(responses!.parameters);
    expect(responses!.parameters).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "text": {
            "description": "What to return.",
            "type": "string",
          },
          "times": {
            "maximum": 3,
            "minimum": 1,
            "type": [
              "integer",
              "null",
            ],
          },
        },
        "required": [
          "text",
          "times",
        ],
        "type": "object",
      }
    `);
    // Not strict: no `strict` key in chat completions, as before.
    expect(toOpenAITools(registry)[0]!.function).not.toHaveProperty("strict");
  });

  it("accepts what a strict model sends once fromStrictArguments maps its nulls back", async () => {
    const schema = registry.tools[0]!.inputSchema;
    const sent = { text: "ab", times: null };
    const failing = await registry.executeToolCall({ id: "1", name: "Echo", arguments: sent });
    expect(failing.isError).toBe(true);
    const result = await registry.executeToolCall({ id: "2", name: "Echo", arguments: fromStrictArguments(schema, JSON.stringify(sent)) });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: "text", text: "ab" }]);
  });

  it("rejects, or skips, a tool whose schema has no strict form only when strict is asked for", () => {
    const loose = { name: "Loose", description: "d", inputSchema: { type: "object" as const, properties: { options: { type: "object" } } } };
    expect(toOpenAITools({ tools: [loose] })).toHaveLength(1);
    expect(() => toOpenAIResponsesTools({ tools: [loose] }, { strict: true })).toThrow(
      /OpenAI would reject tool "Loose": its schema has no strict form: input.options is a free-form object/,
    );
    const skipped: string[] = [];
    expect(toOpenAITools({ tools: [loose] }, { strict: true, invalidTools: "skip", onSkip: (name) => skipped.push(name) })).toEqual([]);
    expect(skipped).toEqual(["Loose"]);
  });

  it("skips rejected MCP tools and reports them when asked", async () => {
    const mixed = createToolRegistry({
      workdir,
      dataDir: path.join(workdir, ".data"),
      bundles: [
        { id: "echo", trusted: true, listTools: () => [Echo] },
        mcpBundle([foreignTool("files.read", { type: "object" }), foreignTool("files_list", { type: "object", properties: {} })]),
      ],
    });
    try {
      const skipped: string[] = [];
      const tools = toOpenAITools(mixed, { invalidTools: "skip", onSkip: (name, reason) => skipped.push(`${name}: ${reason}`) });
      expect(tools.map((tool) => tool.function.name)).toEqual(["Echo", "files_list"]);
      expect(skipped).toEqual(['files.read: OpenAI would reject tool "files.read": its name must match /^[a-zA-Z0-9_-]{1,64}$/.']);
      expect(() => toAnthropicTools(mixed)).toThrow(/Anthropic would reject tool "files.read"/);
    } finally {
      await mixed.close();
    }
  });

  it("does not share schema objects with the registry", () => {
    const tools = toOpenAITools(registry);
    tools[0]!.function.parameters.properties!.injected = { type: "string" };
    expect(registry.tools[0]!.inputSchema.properties).not.toHaveProperty("injected");
  });
});
