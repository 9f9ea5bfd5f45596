import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError, ToolError } from "../errors.js";
import type { ToolBundle } from "../types.js";
import { createToolRegistry } from "./create-tool-registry.js";
import { Echo, bundle, readMeta, specOf } from "./__fixtures__/registry-test-tools.js";
import { defineTool } from "./define-tool.js";

// The registry's tool JSON Schemas, its ports and its cleanups (split from create-tool-registry.test.ts).

describe("tool JSON Schemas", () => {
  it("leave out what some providers reject", () => {
    const tool = defineTool({
      name: "Shapes",
      description: "Schema shapes.",
      inputSchema: z.object({
        count: z.number().int().min(1).optional(),
        sort_by: z.literal("path").optional(),
        env: z.record(z.string(), z.string()).optional(),
      }),
      metadata: readMeta,
      execute: () => ({ content: "" }),
    });
    expect(tool.jsonSchema).toEqual({
      type: "object",
      properties: {
        count: { type: "integer", minimum: 1 },
        sort_by: { type: "string", enum: ["path"] },
        env: { type: "object", additionalProperties: { type: "string" } },
      },
      additionalProperties: false,
    });
  });

  it("refuses invalid tool definitions", () => {
    expect(() => defineTool({ ...specOf(Echo), name: "bad name!" })).toThrow(SdkError);
    expect(() => defineTool({ ...specOf(Echo), description: " " })).toThrow(/description/);
  });
});

describe("tool JSON Schemas with keyword-like property names", () => {
  it("keeps properties named like schema keywords", () => {
    const tool = defineTool({
      name: "Keywords",
      description: "Keyword names.",
      inputSchema: z.object({ const: z.string(), propertyNames: z.string().optional() }),
      metadata: readMeta,
      execute: () => ({ content: "" }),
    });
    expect(Object.keys(tool.jsonSchema.properties!)).toEqual(["const", "propertyNames"]);
  });
});

describe("ports and cleanups", () => {
  const UsesRunner = defineTool({
    name: "UsesRunner",
    description: "Touches the process runner.",
    inputSchema: z.object({}),
    metadata: readMeta,
    execute: (_input, context) => ({ content: [{ type: "text", text: typeof context.ports.processRunner.spawn }] }),
  });

  it("has no default adapter: a tool that needs a missing port fails naming it", async () => {
    const registry = createToolRegistry({ workdir: os.tmpdir(), bundles: [bundle("b", [UsesRunner])] });
    const result = await registry.executeToolCall({ id: "1", name: "UsesRunner", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("No ProcessRunner was given to this registry; pass ports.processRunner") });
    expect(() => registry.ports.gitClient).toThrow(ToolError);
    expect(() => registry.ports.gitClient).toThrow(/pass ports.gitClient .* @agent-tools\/sdk/);
    expect(registry.ports.modelClient).toBeUndefined();
    await registry.close();
  });

  it("hands the host's ports to tools, read when used", async () => {
    let reads = 0;
    const runner = {
      spawn: () => {
        throw new Error("not used");
      },
    } as never;
    const ports = {
      get processRunner() {
        reads += 1;
        return runner;
      },
    };
    const registry = createToolRegistry({ workdir: os.tmpdir(), bundles: [bundle("b", [UsesRunner])], ports });
    expect(reads).toBe(0);
    const result = await registry.executeToolCall({ id: "1", name: "UsesRunner", arguments: {} });
    expect(result).toMatchObject({ isError: false, content: [{ text: "function" }] });
    expect(reads).toBe(1);
    await registry.close();
  });

  it("runs cleanups once, after the bundles closed, and logs a failing one", async () => {
    const order: string[] = [];
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
    const closing: ToolBundle = { id: "b", trusted: true, listTools: () => [], close: async () => void order.push("bundle") };
    const registry = createToolRegistry({
      workdir: os.tmpdir(),
      bundles: [closing],
      logger,
      cleanups: [
        () => void order.push("first"),
        async () => {
          order.push("second");
          throw new Error("boom");
        },
      ],
    });
    await registry.close();
    await registry.close();
    expect(order).toEqual(["bundle", "first", "second"]);
    expect(warnings).toEqual(["a cleanup failed"]);
  });

  it("refuses cleanups that are not an array", () => {
    expect(() => createToolRegistry({ workdir: os.tmpdir(), bundles: [], cleanups: (() => undefined) as never })).toThrow(SdkError);
  });

  it("expands ~ in dataDir like resolveDataDir", async () => {
    const registry = createToolRegistry({ workdir: os.tmpdir(), bundles: [], dataDir: "~/agent-tools-x" });
    expect(registry.dataDir).toBe(path.join(os.homedir(), "agent-tools-x"));
    await registry.close();
  });
});
