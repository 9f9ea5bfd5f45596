import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError, type ToolBundle, defineTool } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const work = mkdtempSync(path.join(os.tmpdir(), "sdk-custom-tools-"));
const dataDir = path.join(work, ".data");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? "").join("");
}

// The minimal custom tool: name, description, schema, execute.
const Greet = defineTool({
  name: "Greet",
  description: "Greets someone by name.",
  inputSchema: z.object({ who: z.string() }),
  execute: ({ who }, context) => ({ content: `Hello, ${who}! (${context.runtimeScope})` }),
});

const ChatOnly = defineTool({
  name: "ChatOnly",
  description: "Only offered in chat.",
  inputSchema: z.object({}),
  scopes: ["chat"],
  execute: () => ({ content: "chat only" }),
});

describe("buildBuiltinToolRegistry with host tools", () => {
  it("adds a custom tool after the built-ins and runs it in chat, keeping the SQLite task store", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, runtimeScope: "chat", conversationId: "chat-greet", tools: [Greet, ChatOnly] });
    const names = registry.tools.map((tool) => tool.name);
    expect(names.slice(-6)).toEqual(["TaskCreate", "TaskUpdate", "TaskList", "MemoryManager", "Greet", "ChatOnly"]);
    expect(names).toContain("Read");
    const greeted = await registry.executeToolCall({ id: "1", name: "greet", arguments: '{"who":"Ada"}' });
    expect(greeted.isError).toBe(false);
    expect(text(greeted)).toBe("Hello, Ada! (chat)");
    const created = await registry.executeToolCall({
      id: "2",
      name: "TaskCreate",
      arguments: { subject: "persisted", description: "d", activeForm: "Persisting" },
    });
    expect(created.isError).toBe(false);
    await registry.close();
    // The default store is the SQLite file under dataDir: a new registry of the same conversation sees the list.
    const again = await buildBuiltinToolRegistry({ workdir: work, dataDir, conversationId: "chat-greet", tools: [Greet] });
    expect(text(await again.executeToolCall({ id: "3", name: "TaskList", arguments: {} }))).toContain("persisted");
    await again.close();
  });

  it("runs the custom tool in cron and leaves out a chat-only one", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, runtimeScope: "cron", tools: [Greet, ChatOnly] });
    expect(registry.tools.map((tool) => tool.name)).toContain("Greet");
    expect(registry.hasTool("ChatOnly")).toBe(false);
    const greeted = await registry.executeToolCall({ id: "1", name: "Greet", arguments: { who: "cron" } });
    expect(text(greeted)).toBe("Hello, cron! (cron)");
    const refused = await registry.executeToolCall({ id: "2", name: "ChatOnly", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Unknown tool: ChatOnly/);
    await registry.close();
  });

  it("applies the default metadata, so group:custom approval rules reach custom tools", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [Greet], approval: { policies: { "group:custom": "deny" } } });
    expect(registry.metadataByName.Greet).toEqual({ groupId: "custom", kind: "custom", isReadOnly: false, displayCategory: "other" });
    expect(registry.hasTool("Greet")).toBe(false);
    expect(registry.tools.map((tool) => tool.name)).not.toContain("Greet");
    await registry.close();
  });

  it("throws SdkError when a host tool collides with a built-in, exactly, in case only, or in the other scope", async () => {
    const named = (name: string) => defineTool({ name, description: "Collides.", inputSchema: z.object({}), execute: () => ({ content: "" }) });
    const exact = buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [named("Read")] });
    await expect(exact).rejects.toBeInstanceOf(SdkError);
    await expect(exact).rejects.toThrow(/Host tool Read collides with the built-in tool Read \(bundle fs\)/);
    await expect(buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [named("bash")] })).rejects.toMatchObject({ code: "duplicate_tool" });
    // TaskList is chat-only; the tool list must be refused in cron too.
    await expect(buildBuiltinToolRegistry({ workdir: work, dataDir, runtimeScope: "cron", tools: [named("TaskList")] })).rejects.toThrow(/TaskList/);
    await expect(buildBuiltinToolRegistry({ workdir: work, dataDir, systemTools: ["HttpGetTest"], tools: [named("httpgettest")] })).rejects.toThrow(
      /bundle system/,
    );
    await expect(buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [Greet, named("GREET")] })).rejects.toThrow(/same name/);
    await expect(buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [{ name: "x" } as never] })).rejects.toThrow(/defineTool/);
  });

  it("adds host bundles with the registry's duplicate rules", async () => {
    const bundle = (id: string, trusted: boolean, tools = [Greet]): ToolBundle => ({ id, trusted, listTools: () => tools });
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, bundles: [bundle("mine", true)] });
    expect(text(await registry.executeToolCall({ id: "1", name: "Greet", arguments: { who: "bundle" } }))).toContain("Hello, bundle!");
    await registry.close();
    await expect(buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [Greet], bundles: [bundle("mine", true)] })).rejects.toMatchObject({
      code: "duplicate_tool",
    });
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const lenient = await buildBuiltinToolRegistry({ workdir: work, dataDir, tools: [Greet], bundles: [bundle("theirs", false)], logger });
    expect(lenient.tools.filter((tool) => tool.name === "Greet")).toHaveLength(1);
    expect(warnings.join("\n")).toMatch(/Greet from bundle theirs collides with host/);
    await lenient.close();
  });

  it("selects system tools by id and refuses an unknown id, listing the known ones", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, runtimeScope: "cron", systemTools: ["HttpGetTest"] });
    expect(registry.tools.map((tool) => tool.name)).toContain("HttpGetTest");
    expect(registry.metadataByName.HttpGetTest).toMatchObject({ groupId: "system", isReadOnly: true });
    await registry.close();
    const without = await buildBuiltinToolRegistry({ workdir: work, dataDir });
    expect(without.hasTool("HttpGetTest")).toBe(false);
    await without.close();
    const unknown = buildBuiltinToolRegistry({ workdir: work, dataDir, systemTools: ["WebSearch" as never] });
    await expect(unknown).rejects.toBeInstanceOf(SdkError);
    await expect(unknown).rejects.toThrow(/Unknown system tool "WebSearch"; known: HttpGetTest/);
  });
});
