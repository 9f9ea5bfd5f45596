import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError, ToolError } from "../errors.js";
import type { ToolBundle, ToolDefinition } from "../types.js";
import { Echo, bundle, readMeta, specOf, writeMeta } from "./__fixtures__/registry-test-tools.js";
import { defineTool } from "./define-tool.js";
import { type ToolRegistry, createToolRegistry } from "./create-tool-registry.js";
import type { ToolEvent } from "./events.js";

const Failing = defineTool({
  name: "Failing",
  description: "Always fails for a path.",
  inputSchema: z.object({ path: z.string(), ok: z.boolean().optional() }),
  metadata: writeMeta,
  execute: ({ path: p, ok }) => {
    if (ok) return { content: "fine" };
    throw new ToolError("not_found", `${p} does not exist.`);
  },
});

const Throwing = defineTool({
  name: "Throwing",
  description: "Throws a plain error.",
  inputSchema: z.object({}),
  metadata: writeMeta,
  execute: () => {
    throw new Error("boom");
  },
});

const Slow = defineTool({
  name: "Slow",
  description: "Waits until aborted or 5 s pass, streaming a tick first.",
  inputSchema: z.object({}),
  metadata: writeMeta,
  execute: async (_input, context) => {
    context.onUpdate({ text: "tick" });
    await new Promise((resolve) => setTimeout(resolve, 5000));
    return { content: "finished" };
  },
});

describe("createToolRegistry / executeToolCall", () => {
  let workdir: string;
  let registry: ToolRegistry;
  beforeEach(() => {
    workdir = mkdtempSync(path.join(os.tmpdir(), "registry-"));
    registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), bundles: [bundle("a", [Echo, Failing, Throwing, Slow])] });
  });
  afterEach(async () => {
    await registry.close();
    rmSync(workdir, { recursive: true, force: true });
  });

  it("lists tools with object JSON Schemas and no $schema", () => {
    expect(registry.tools.map((t) => t.name)).toEqual(["Echo", "Failing", "Throwing", "Slow"]);
    const echo = registry.tools[0]!;
    expect(echo.inputSchema).toMatchObject({ type: "object", additionalProperties: false, required: ["text"] });
    expect(JSON.stringify(echo.inputSchema)).not.toContain("$schema");
    expect(registry.metadataByName.Echo).toEqual(readMeta);
  });

  it("accepts arguments as an object and as a JSON string", async () => {
    const a = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "hi" } });
    const b = await registry.executeToolCall({ id: "2", name: "Echo", arguments: '{"text":"hi","times":2}' });
    expect(a).toEqual({ content: [{ type: "text", text: "hi" }], details: { length: 2 }, isError: false });
    expect(b.content).toEqual([{ type: "text", text: "hihi" }]);
  });

  it("reports malformed JSON clearly", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: '{"text": "hi"' });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect((result.content[0] as { text: string }).text).toMatch(/Echo received malformed JSON arguments/);
  });

  it("rejects arguments that are not an object", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: "[1,2]" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/must be a JSON object, not an array/);
  });

  it("rejects unknown keys by name", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x", colour: "red", size: 2 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Echo received unsupported argument(s): colour, size");
    expect(text(result)).toContain("Allowed arguments: text, times");
  });

  it("phrases schema errors for the model", async () => {
    const missing = await registry.executeToolCall({ id: "1", name: "Echo", arguments: {} });
    expect(text(missing)).toContain("`text` is required");
    const wrongType = await registry.executeToolCall({ id: "2", name: "Echo", arguments: { text: 5 } });
    expect(text(wrongType)).toContain("`text` must be a string (got number)");
    const tooBig = await registry.executeToolCall({ id: "3", name: "Echo", arguments: { text: "a", times: 9 } });
    expect(text(tooBig)).toContain("`times` must be <= 3 (got 9)");
  });

  it("resolves case drift and refuses ambiguous names", async () => {
    const drift = await registry.executeToolCall({ id: "1", name: "  echo ", arguments: { text: "ok" } });
    expect(drift.isError).toBe(false);
    expect(registry.resolveToolName("ECHO")).toBe("Echo");
    const lower = defineTool({ ...specOf(Echo), name: "echo" });
    const ambiguous = createToolRegistry({ workdir, bundles: [bundle("a", [Echo, lower])] });
    expect(ambiguous.resolveToolName("Echo")).toBe("Echo");
    expect(ambiguous.resolveToolName("echo")).toBe("echo");
    expect(ambiguous.resolveToolName("ECHO")).toBeUndefined();
    const result = await ambiguous.executeToolCall({ id: "1", name: "ECHO", arguments: { text: "x" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Unknown tool: ECHO");
  });

  it("answers an unknown tool with an error result and empty details", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Nope", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.details).toEqual({});
    expect(text(result)).toContain("Unknown tool: Nope");
  });

  it("returns a cancelled result when aborted before the call", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x" } }, { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
    expect(text(result)).toMatch(/^Cancelled/);
  });

  it("returns a cancelled result promptly when aborted during the call", async () => {
    const controller = new AbortController();
    const updates: string[] = [];
    const pending = registry.executeToolCall(
      { id: "1", name: "Slow", arguments: {} },
      { signal: controller.signal, onUpdate: (e) => updates.push(e.update.text ?? "") },
    );
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
    expect(updates).toEqual(["tick"]);
  });

  it("turns a throwing tool into an error result", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Throwing", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Throwing failed unexpectedly: boom");
  });

  it("counts identical failures with different call ids and resets on success", async () => {
    const call = (id: string, args: Record<string, unknown> = { path: "a.txt" }) => registry.executeToolCall({ id, name: "Failing", arguments: args });
    expect(text(await call("1"))).toBe("a.txt does not exist.");
    expect(text(await call("2"))).toContain("This exact call has now failed 2 times in a row.");
    expect(text(await call("2"))).toContain("failed 2 times"); // same id again does not count
    expect(text(await call("3"))).toContain("failed 3 times");
    expect(text(await call("4", { path: "b.txt" }))).toBe("b.txt does not exist.");
    await call("5", { path: "a.txt", ok: true });
    expect(text(await call("6"))).toBe("a.txt does not exist.");
  });

  it("emits start, delta and end events with a duration", async () => {
    const events: ToolEvent[] = [];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await registry.executeToolCall({ id: "c1", name: "Slow", arguments: {} }, { onEvent: (e) => events.push(e), signal: controller.signal });
    expect(events.map((e) => e.type)).toEqual(["tool-call-start", "tool-output-delta", "tool-call-end"]);
    const end = events[2] as Extract<ToolEvent, { type: "tool-call-end" }>;
    expect(end.callId).toBe("c1");
    expect(end.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("caps output centrally with a paging hint", async () => {
    const big = createToolRegistry({ workdir, bundles: [bundle("a", [Echo])], maxOutputChars: 10 });
    const result = await big.executeToolCall({ id: "1", name: "Echo", arguments: { text: "abcdefghijklmnop" } });
    expect(text(result).startsWith("abcdefghij\n[Output truncated: showing the first 10 of 16 characters.")).toBe(true);
    expect(result.details).toMatchObject({ outputTruncated: { shownChars: 10, totalChars: 16 } });
  });

  it("throws SdkError for host misuse and after close", async () => {
    await expect(registry.executeToolCall(null as never)).rejects.toBeInstanceOf(SdkError);
    await registry.close();
    await expect(registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x" } })).rejects.toMatchObject({ code: "closed" });
  });
});

describe("bundles, scopes and duplicates", () => {
  const workdir = os.tmpdir();

  it("throws on a duplicate between trusted bundles", () => {
    expect(() => createToolRegistry({ workdir, bundles: [bundle("a", [Echo]), bundle("b", [Echo])] })).toThrow(/Duplicate builtin tool name detected: Echo/);
  });

  it("skips an untrusted newcomer with a warning", () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (m: string) => warnings.push(m) };
    const registry = createToolRegistry({ workdir, logger, bundles: [bundle("a", [Echo]), bundle("mcp", [Echo, Failing], false)] });
    expect(registry.tools.map((t) => t.name)).toEqual(["Echo", "Failing"]);
    expect(warnings.join("\n")).toContain("collides");
  });

  it("filters tools by runtime scope", () => {
    const chatOnly = defineTool({ ...specOf(Failing), name: "ChatOnly", scopes: ["chat"] });
    const cron = createToolRegistry({ workdir, runtimeScope: "cron", bundles: [bundle("a", [Echo, chatOnly])] });
    expect(cron.tools.map((t) => t.name)).toEqual(["Echo"]);
    expect(cron.hasTool("ChatOnly")).toBe(false);
    const chat = createToolRegistry({ workdir, runtimeScope: "chat", bundles: [bundle("a", [Echo, chatOnly])] });
    expect(chat.hasTool("chatonly")).toBe(true);
  });

  it("keeps hidden tools callable", async () => {
    const hidden: ToolBundle = { id: "lazy", trusted: false, listTools: () => [Echo], isExposed: () => false };
    const registry = createToolRegistry({ workdir, bundles: [hidden] });
    expect(registry.tools).toEqual([]);
    expect((await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x" } })).isError).toBe(false);
  });

  it("tells onToolsChanged listeners when a bundle's tools change, until unsubscribed or closed", async () => {
    let tools: ToolDefinition[] = [Echo];
    const listeners = new Set<() => void>();
    const changing: ToolBundle = {
      id: "changing",
      trusted: false,
      listTools: () => tools,
      onToolsChanged(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
    const registry = createToolRegistry({ workdir, bundles: [bundle("static", [Failing]), changing], logger });
    const seen: string[][] = [];
    const stop = registry.onToolsChanged(() => seen.push(registry.tools.map((tool) => tool.name)));
    registry.onToolsChanged(() => {
      throw new Error("listener bug");
    });
    tools = [Echo, Slow];
    for (const listener of listeners) listener();
    expect(seen).toEqual([["Failing", "Echo", "Slow"]]);
    expect(warnings).toEqual(["an onToolsChanged listener threw"]);
    stop();
    expect(listeners.size).toBe(1);
    for (const listener of listeners) listener();
    expect(seen).toHaveLength(1);
    await registry.close();
    expect(listeners.size).toBe(0);
    expect(() => registry.onToolsChanged("nope" as never)).toThrow(SdkError);
  });

  it("refuses an invalid runtime scope or workdir", () => {
    expect(() => createToolRegistry({ workdir, runtimeScope: "cron_auto_prompt" as never, bundles: [] })).toThrow(SdkError);
    expect(() => createToolRegistry({ workdir: "", bundles: [] })).toThrow(/workdir is required/);
    expect(() => createToolRegistry({ workdir: "/definitely/not/here", bundles: [] })).toThrow(/does not exist/);
  });
});

describe("approval policy", () => {
  const workdir = os.tmpdir();
  const tools = [Echo, Failing];

  it("allows read-only tools by default and applies name > server > group > default", async () => {
    const registry = createToolRegistry({
      workdir,
      bundles: [bundle("a", tools)],
      approval: { policies: { "group:fs": "deny", Echo: "allow" } },
    });
    expect(registry.tools.map((t) => t.name)).toEqual(["Echo"]);
    expect(registry.hasTool("Failing")).toBe(false);
    const denied = await registry.executeToolCall({ id: "1", name: "Failing", arguments: { path: "x", ok: true } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("denied by the host's approval policy");
  });

  it("asks the host and runs or refuses accordingly", async () => {
    const asked: string[] = [];
    let answer: boolean | "deny" = true;
    const registry = createToolRegistry({
      workdir,
      bundles: [bundle("a", tools)],
      approval: {
        defaultDecision: "ask",
        onAsk: (request) => {
          asked.push(request.toolName);
          return answer;
        },
      },
    });
    expect((await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x" } })).isError).toBe(false);
    expect(asked).toEqual([]); // read-only: allowed without asking
    expect((await registry.executeToolCall({ id: "2", name: "Failing", arguments: { path: "x", ok: true } })).isError).toBe(false);
    answer = "deny";
    const refused = await registry.executeToolCall({ id: "3", name: "Failing", arguments: { path: "x", ok: true } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("declined");
    expect(asked).toEqual(["Failing", "Failing"]);
  });

  it("fails closed when asking is required but the host cannot ask", async () => {
    const registry = createToolRegistry({ workdir, bundles: [bundle("a", tools)], approval: { policies: { Failing: "ask" } } });
    const result = await registry.executeToolCall({ id: "1", name: "Failing", arguments: { path: "x", ok: true } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("cannot ask");
  });

  it("matches server:<id> rules for MCP-like tools", async () => {
    const mcpTool: ToolDefinition = {
      ...Echo,
      name: "mcp_srv_echo",
      metadata: { groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId: "srv" },
    };
    const registry = createToolRegistry({
      workdir,
      bundles: [bundle("mcp", [mcpTool], false)],
      approval: { policies: { "server:srv": "deny", "group:mcp": "allow" } },
    });
    expect(registry.tools).toEqual([]);
  });
});

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? "").join("");
}
