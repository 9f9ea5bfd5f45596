import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolError } from "../errors.js";
import type { ToolDefinition, ToolResult } from "../types.js";
import type { ApprovalOptions } from "./approval-policy.js";
import { type ToolRegistry, createToolRegistry } from "./create-tool-registry.js";
import { defineTool } from "./define-tool.js";
import { errorResult } from "./execute-tool-call.js";

const readMeta = { groupId: "test", kind: "read", isReadOnly: true, displayCategory: "file" } as const;
const writeMeta = { groupId: "test", kind: "edit", isReadOnly: false, displayCategory: "file" } as const;

const Thrower = defineTool({
  name: "Thrower",
  description: "Throws what it is told to.",
  inputSchema: z.object({ how: z.enum(["fatal", "plain", "unexpected", "abort", "returned", "returned-coded", "helper"]) }),
  metadata: readMeta,
  execute: ({ how }) => {
    if (how === "fatal") throw new ToolError("unavailable", "The store is gone for good.", { details: { store: "x" }, recoverable: false });
    if (how === "plain") throw new ToolError("not_found", "a.ts does not exist.", { details: { path: "a.ts" } });
    if (how === "abort") throw new DOMException("stopped", "AbortError");
    if (how === "returned") return { content: "It did not work.", isError: true, details: { reason: "x" } };
    if (how === "returned-coded") return { content: "Busy.", isError: true, details: { code: "conflict", recoverable: false } };
    if (how === "helper") return errorResult("Refused by a helper.", { why: "y" }, { code: "limit_reached", recoverable: false });
    throw new Error("boom");
  },
});

const Writer = defineTool({
  name: "Writer",
  description: "Changes something.",
  inputSchema: z.object({}),
  metadata: writeMeta,
  execute: () => ({ content: "written" }),
});

const Waiter = defineTool({
  name: "Waiter",
  description: "Waits until aborted.",
  inputSchema: z.object({}),
  metadata: readMeta,
  execute: () => new Promise<never>(() => undefined),
});

let workdir: string;
const registries: ToolRegistry[] = [];
beforeEach(() => {
  workdir = mkdtempSync(path.join(os.tmpdir(), "result-error-"));
});
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
  rmSync(workdir, { recursive: true, force: true });
});

function build(tools: ToolDefinition[], extra: { approval?: ApprovalOptions; planMode?: boolean } = {}): ToolRegistry {
  const registry = createToolRegistry({
    workdir,
    dataDir: path.join(workdir, ".data"),
    bundles: [{ id: "t", trusted: true, listTools: () => tools }],
    ...extra,
  });
  registries.push(registry);
  return registry;
}

function text(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("ToolResult.error: one error contract for every error result", () => {
  it("carries a thrown ToolError's code, message and recoverable beside the unchanged details", async () => {
    const registry = build([Thrower]);
    const fatal = await registry.executeToolCall({ id: "1", name: "Thrower", arguments: { how: "fatal" } });
    expect(fatal.details).toEqual({ code: "unavailable", store: "x" });
    expect(fatal.error).toEqual({ code: "unavailable", message: "The store is gone for good.", recoverable: false });
    const plain = await registry.executeToolCall({ id: "2", name: "Thrower", arguments: { how: "plain" } });
    expect(plain.error).toEqual({ code: "not_found", message: "a.ts does not exist.", recoverable: true });
  });

  it("has no error on a successful result", async () => {
    const result = await build([Writer]).executeToolCall({ id: "1", name: "Writer", arguments: {} });
    expect(result.isError).toBe(false);
    expect("error" in result).toBe(false);
  });

  it("argument problems are invalid_arguments and recoverable", async () => {
    const registry = build([Thrower]);
    for (const args of ["{not json", { how: "nope" }, { how: "plain", extra: 1 }, [1]]) {
      const result = await registry.executeToolCall({ id: "1", name: "Thrower", arguments: args });
      expect(result.error).toEqual({ code: "invalid_arguments", message: text(result), recoverable: true });
    }
  });

  it("an unknown tool is unknown_tool and recoverable; its details stay empty", async () => {
    const result = await build([Thrower]).executeToolCall({ id: "1", name: "Nope", arguments: {} });
    expect(result.details).toEqual({});
    expect(result.error).toEqual({ code: "unknown_tool", message: text(result), recoverable: true });
  });

  it("approval refusals (denied by policy, declined, no way to ask) and plan mode are permission_denied and not recoverable", async () => {
    const denied = await build([Writer], { approval: { policies: { Writer: "deny" } } }).executeToolCall({ id: "1", name: "Writer", arguments: {} });
    const declined = await build([Writer], { approval: { policies: { Writer: "ask" }, onAsk: () => false } }).executeToolCall({
      id: "2",
      name: "Writer",
      arguments: {},
    });
    const unasked = await build([Writer], { approval: { policies: { Writer: "ask" } } }).executeToolCall({ id: "3", name: "Writer", arguments: {} });
    const planned = await build([Writer], { planMode: true }).executeToolCall({ id: "4", name: "Writer", arguments: {} });
    for (const result of [denied, declined, unasked, planned]) {
      expect(result.error).toEqual({ code: "permission_denied", message: text(result), recoverable: false });
    }
    expect(planned.details).toEqual({ code: "permission_denied", planMode: true });
  });

  it("a cancelled call (aborted before, while running, or an AbortError) is cancelled and not recoverable", async () => {
    const registry = build([Thrower, Waiter]);
    const before = await registry.executeToolCall({ id: "1", name: "Thrower", arguments: { how: "plain" } }, { signal: AbortSignal.abort() });
    const controller = new AbortController();
    const pending = registry.executeToolCall({ id: "2", name: "Waiter", arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const during = await pending;
    const abortError = await registry.executeToolCall({ id: "3", name: "Thrower", arguments: { how: "abort" } });
    for (const result of [before, during, abortError]) {
      expect(result.details).toMatchObject({ cancelled: true });
      expect(result.error).toEqual({ code: "cancelled", message: text(result), recoverable: false });
    }
  });

  it("an unexpected exception is other and recoverable", async () => {
    const result = await build([Thrower]).executeToolCall({ id: "1", name: "Thrower", arguments: { how: "unexpected" } });
    expect(result.details).toEqual({ code: "other" });
    expect(result.error).toEqual({ code: "other", message: text(result), recoverable: true });
  });

  it("an error result a tool returns gets an error from its details (a known code, a boolean recoverable) or other", async () => {
    const registry = build([Thrower]);
    const returned = await registry.executeToolCall({ id: "1", name: "Thrower", arguments: { how: "returned" } });
    expect(returned.details).toEqual({ reason: "x" });
    expect(returned.error).toEqual({ code: "other", message: "It did not work.", recoverable: true });
    const coded = await registry.executeToolCall({ id: "2", name: "Thrower", arguments: { how: "returned-coded" } });
    expect(coded.error).toEqual({ code: "conflict", message: "Busy.", recoverable: false });
    const helper = await registry.executeToolCall({ id: "3", name: "Thrower", arguments: { how: "helper" } });
    expect(helper.details).toEqual({ why: "y" });
    expect(helper.error).toEqual({ code: "limit_reached", message: "Refused by a helper.", recoverable: false });
  });

  it("keeps the original message when the loop breaker appends its note to the content", async () => {
    const registry = build([Thrower]);
    await registry.executeToolCall({ id: "1", name: "Thrower", arguments: { how: "plain" } });
    const second = await registry.executeToolCall({ id: "2", name: "Thrower", arguments: { how: "plain" } });
    expect(text(second)).not.toBe("a.ts does not exist.");
    expect(second.error?.message).toBe("a.ts does not exist.");
  });

  it("errorResult builds an error result with an error (other, recoverable by default)", () => {
    expect(errorResult("No.")).toEqual({
      content: [{ type: "text", text: "No." }],
      details: {},
      isError: true,
      error: { code: "other", message: "No.", recoverable: true },
    });
  });
});
