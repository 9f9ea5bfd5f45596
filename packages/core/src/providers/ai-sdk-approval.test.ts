import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import { type ToolRegistry, createToolRegistry } from "../registry/create-tool-registry.js";
import { defineTool } from "../registry/define-tool.js";
import { toAiSdkTools } from "./ai-sdk-tools.js";

const metadata = { groupId: "ops", kind: "custom", isReadOnly: false, displayCategory: "other" } as const;

describe("approval: registry.approvalDecision, approvalGranted and toAiSdkTools({ approval })", () => {
  let workdir: string;
  let registry: ToolRegistry;
  const asked: string[] = [];
  const ran: string[] = [];

  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "agent-tools-ai-sdk-approval-"));
    const tool = (name: string, isReadOnly = false) =>
      defineTool({
        name,
        description: `${name} things.`,
        inputSchema: z.object({}),
        metadata: { ...metadata, isReadOnly },
        execute: () => {
          ran.push(name);
          return { content: `${name} done` };
        },
      });
    registry = createToolRegistry({
      workdir,
      dataDir: path.join(workdir, ".data"),
      bundles: [{ id: "ops", trusted: true, listTools: () => [tool("Read", true), tool("Deploy"), tool("Wipe"), tool("Restart")] }],
      approval: {
        policies: { Deploy: "ask", Wipe: "deny", "group:ops": "ask" },
        defaultDecision: "allow",
        onAsk: (request) => {
          asked.push(request.toolName);
          return false;
        },
      },
    });
  });
  afterAll(async () => {
    await registry.close();
    await rm(workdir, { recursive: true, force: true });
  });

  it("answers the policy's decision per tool name, case-insensitively, deny for unknown names", () => {
    expect(registry.approvalDecision("Deploy")).toBe("ask");
    expect(registry.approvalDecision("deploy")).toBe("ask");
    expect(registry.approvalDecision("Wipe")).toBe("deny");
    // The group rule comes before the read-only allow.
    expect(registry.approvalDecision("Read")).toBe("ask");
    expect(registry.approvalDecision("Restart")).toBe("ask");
    expect(registry.approvalDecision("Nope")).toBe("deny");
  });

  it("approvalGranted runs an ask tool without onAsk, for that call only, and never overrides deny", async () => {
    asked.length = 0;
    ran.length = 0;
    const granted = await registry.executeToolCall({ id: "1", name: "Deploy", arguments: {} }, { approvalGranted: true });
    expect(granted).toMatchObject({ isError: false, content: [{ type: "text", text: "Deploy done" }] });
    expect(asked).toEqual([]);
    const next = await registry.executeToolCall({ id: "2", name: "Deploy", arguments: {} });
    expect(next.isError).toBe(true);
    expect(asked).toEqual(["Deploy"]);
    const denied = await registry.executeToolCall({ id: "3", name: "Wipe", arguments: {} }, { approvalGranted: true });
    expect(denied).toMatchObject({ isError: true, details: { code: "permission_denied" } });
    expect(ran).toEqual(["Deploy"]);
  });

  it('approval: "ai-sdk" sets needsApproval from the policy and passes approvalGranted', async () => {
    asked.length = 0;
    ran.length = 0;
    const tools = toAiSdkTools(registry, { approval: "ai-sdk" });
    expect(Object.keys(tools)).toEqual(["Read", "Deploy", "Restart"]);
    expect(tools.Deploy!.needsApproval?.({}, { toolCallId: "c" })).toBe(true);
    const result = await tools.Deploy!.execute({}, { toolCallId: "c" });
    expect(result.isError).toBe(false);
    expect(asked).toEqual([]);
    expect(ran).toEqual(["Deploy"]);
  });

  it("by default leaves approval to the registry's onAsk", async () => {
    asked.length = 0;
    const tools = toAiSdkTools(registry);
    expect(tools.Deploy!.needsApproval).toBeUndefined();
    const result = await tools.Deploy!.execute({}, { toolCallId: "c" });
    expect(result).toMatchObject({ isError: true, details: { code: "permission_denied" } });
    expect(asked).toEqual(["Deploy"]);
  });

  it('approval: "ai-sdk" needs a source that can answer approvalDecision', () => {
    const source = { tools: registry.tools, executeToolCall: registry.executeToolCall };
    expect(() => toAiSdkTools(source, { approval: "ai-sdk" })).toThrow(SdkError);
  });
});
