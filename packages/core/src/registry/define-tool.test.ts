import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import type { RuntimeScope } from "../types.js";
import { createToolRegistry } from "./create-tool-registry.js";
import { defaultToolMetadata, defineTool } from "./define-tool.js";

const work = mkdtempSync(path.join(os.tmpdir(), "define-tool-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const shout = {
  name: "Shout",
  description: "Returns its text in upper case.",
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }: { text: string }) => ({ content: text.toUpperCase() }),
};

describe("defineTool", () => {
  it("gives a tool without metadata the custom defaults", () => {
    const tool = defineTool(shout);
    expect(tool.metadata).toEqual({ groupId: "custom", kind: "custom", isReadOnly: false, displayCategory: "other" });
    expect(tool.metadata).toEqual(defaultToolMetadata("Shout"));
    expect(tool.scopes).toEqual(["chat", "cron"]);
  });

  it("merges partial metadata over the defaults; undefined keys keep the default", () => {
    const tool = defineTool({ ...shout, metadata: { isReadOnly: true, kind: undefined } });
    expect(tool.metadata).toEqual({ groupId: "custom", kind: "custom", isReadOnly: true, displayCategory: "other" });
    const full = defineTool({ ...shout, metadata: { groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" } });
    expect(full.metadata).toEqual({ groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" });
  });

  it("refuses a bad name, an empty description, non-object metadata and unknown or empty scopes", () => {
    expect(() => defineTool({ ...shout, name: "has space" })).toThrow(SdkError);
    expect(() => defineTool({ ...shout, description: " " })).toThrow(/description/);
    expect(() => defineTool({ ...shout, metadata: "fs" as never })).toThrow(/metadata must be an object/);
    expect(() => defineTool({ ...shout, scopes: [] })).toThrow(/scopes/);
    expect(() => defineTool({ ...shout, scopes: ["daemon" as RuntimeScope] })).toThrow(/scopes/);
  });

  it("is offered only in its scopes, and group:custom approval rules reach it", async () => {
    const chatOnly = defineTool({ ...shout, name: "ChatShout", scopes: ["chat"] });
    const both = defineTool(shout);
    const bundles = [{ id: "host", trusted: true, listTools: () => [chatOnly, both] }];
    const chat = createToolRegistry({ workdir: work, runtimeScope: "chat", bundles });
    const cron = createToolRegistry({ workdir: work, runtimeScope: "cron", bundles });
    expect(chat.tools.map((tool) => tool.name)).toEqual(["ChatShout", "Shout"]);
    expect(cron.tools.map((tool) => tool.name)).toEqual(["Shout"]);
    const refused = await cron.executeToolCall({ id: "1", name: "ChatShout", arguments: { text: "a" } });
    expect(refused.isError).toBe(true);
    const ran = await cron.executeToolCall({ id: "2", name: "shout", arguments: { text: "a" } });
    expect(ran).toMatchObject({ isError: false, content: [{ type: "text", text: "A" }] });
    const denied = createToolRegistry({ workdir: work, bundles, approval: { policies: { "group:custom": "deny" } } });
    expect(denied.tools).toEqual([]);
    await Promise.all([chat.close(), cron.close(), denied.close()]);
  });
});
