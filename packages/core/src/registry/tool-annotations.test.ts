import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError, TOOL_KINDS, type ToolDefinition, type ToolMetadata, createToolRegistry, defineTool, resolveToolAnnotations } from "../index.js";
import { resolveApproval } from "./approval-policy.js";

const work = mkdtempSync(path.join(os.tmpdir(), "tool-annotations-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const base = {
  name: "Deploy",
  description: "Deploys the site.",
  inputSchema: z.object({}),
  execute: () => ({ content: "deployed" }),
};

function refusal(metadata: unknown): string {
  try {
    defineTool({ ...base, metadata: metadata as Partial<ToolMetadata> });
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("invalid_tool_definition");
    return (error as Error).message;
  }
  throw new Error("defineTool accepted the metadata");
}

describe("defineTool: kind and annotations, fail-closed", () => {
  it("takes every kind of the closed set and refuses any other, with the closest kind", () => {
    for (const kind of TOOL_KINDS) expect(defineTool({ ...base, metadata: { kind } }).metadata.kind).toBe(kind);
    expect(refusal({ kind: "execut" })).toMatch(/unknown kind "execut"\. Did you mean "execute"\?/);
    expect(refusal({ kind: "Read" })).toMatch(/Did you mean "read"\?/);
    expect(refusal({ kind: "deploy" })).toMatch(/unknown kind "deploy"\. Kinds: read, list/);
  });

  it("refuses unknown metadata and annotation keys, non-boolean values and contradictions", () => {
    expect(refusal({ readOnly: true })).toMatch(/unknown metadata key "readOnly"/);
    expect(refusal({ displayCategory: "files" })).toMatch(/displayCategory "files"\. Did you mean "file"\?/);
    expect(refusal({ annotations: "ro" })).toMatch(/annotations must be an object/);
    expect(refusal({ annotations: { readOnly: false, listedInPlanMode: false, destructiv: true } })).toMatch(/"destructiv"\. Did you mean "destructive"\?/);
    expect(refusal({ annotations: { readOnly: false } })).toMatch(/listedInPlanMode must be true or false/);
    expect(refusal({ annotations: { readOnly: false, listedInPlanMode: false, openWorld: "yes" } })).toMatch(/openWorld must be true, false or left out/);
    expect(refusal({ isReadOnly: false, annotations: { readOnly: true, listedInPlanMode: true } })).toMatch(/disagree/);
    expect(refusal({ annotations: { readOnly: true, destructive: true, listedInPlanMode: true } })).toMatch(/read-only tool cannot be destructive/);
  });

  it("takes isReadOnly from annotations when only they say it, and keeps declared annotations as given", () => {
    const tool = defineTool({ ...base, metadata: { annotations: { readOnly: true, openWorld: true, listedInPlanMode: false } } });
    expect(tool.metadata).toEqual({
      groupId: "custom",
      kind: "custom",
      isReadOnly: true,
      displayCategory: "other",
      annotations: { readOnly: true, openWorld: true, listedInPlanMode: false },
    });
  });
});

describe("resolveToolAnnotations", () => {
  it("derives defaults from isReadOnly, the kind and the group for a tool that declares none", () => {
    expect(resolveToolAnnotations({ groupId: "fs", kind: "write", isReadOnly: false, displayCategory: "file" })).toEqual({
      readOnly: false,
      listedInPlanMode: false,
      destructive: true,
      idempotent: true,
      openWorld: false,
    });
    expect(resolveToolAnnotations({ groupId: "custom", kind: "custom", isReadOnly: true, displayCategory: "other" })).toEqual({
      readOnly: true,
      listedInPlanMode: true,
    });
    expect(resolveToolAnnotations({ groupId: "system", kind: "ask_user", isReadOnly: false, displayCategory: "system" })).toEqual({
      readOnly: false,
      listedInPlanMode: true,
    });
  });

  it("is fail-closed for definitions that bypass defineTool: read-only only when both say so, plan mode only for true", () => {
    const contradicting = {
      groupId: "custom",
      kind: "custom",
      isReadOnly: false,
      displayCategory: "other",
      annotations: { readOnly: true, listedInPlanMode: "yes" },
    };
    expect(resolveToolAnnotations(contradicting as unknown as ToolMetadata)).toEqual({ readOnly: false, listedInPlanMode: false });
    expect(resolveApproval("Deploy", contradicting as unknown as ToolMetadata, { defaultDecision: "ask" })).toBe("ask");
  });
});

describe("the registry reads the annotations", () => {
  const raw = (name: string, metadata: ToolMetadata): ToolDefinition => ({
    name,
    description: `${name}.`,
    jsonSchema: { type: "object", properties: {} },
    metadata,
    scopes: ["chat", "cron"],
    execute: () => ({ content: `${name} ran` }),
  });

  it("plan mode lists and runs exactly the tools that declare listedInPlanMode; approval allows the read-only ones", async () => {
    const tools = [
      defineTool({ ...base, name: "Plan", metadata: { annotations: { readOnly: false, listedInPlanMode: true } } }),
      defineTool({ ...base, name: "Peek", metadata: { isReadOnly: true, annotations: { readOnly: true, listedInPlanMode: false } } }),
      defineTool({ ...base, name: "Agent" }),
      raw("Lying", {
        groupId: "custom",
        kind: "custom",
        isReadOnly: false,
        displayCategory: "other",
        annotations: { readOnly: true, listedInPlanMode: "yes" as never },
      }),
    ];
    const registry = createToolRegistry({
      workdir: work,
      planMode: true,
      approval: { defaultDecision: "deny" },
      bundles: [{ id: "host", trusted: true, listTools: () => tools }],
    });
    try {
      // Peek is read-only but not listed; Agent only shares a name; Lying's annotations contradict its metadata.
      expect(registry.tools.map((tool) => tool.name)).toEqual([]);
      registry.setPlanMode(false);
      expect(registry.tools.map((tool) => tool.name)).toEqual(["Peek"]);
      const approval = createToolRegistry({ workdir: work, planMode: true, bundles: [{ id: "host", trusted: true, listTools: () => tools }] });
      expect(approval.tools.map((tool) => tool.name)).toEqual(["Plan"]);
      expect(await approval.executeToolCall({ id: "1", name: "Plan", arguments: {} })).toMatchObject({ isError: false });
      const refused = await approval.executeToolCall({ id: "2", name: "Agent", arguments: {} });
      expect(refused).toMatchObject({ isError: true, details: { planMode: true } });
      // The refusal names the state-changing tools plan mode still runs, from their annotations.
      expect(refused.content[0]).toMatchObject({ text: expect.stringContaining("only read-only tools and Plan run") });
      await approval.close();
    } finally {
      await registry.close();
    }
  });
});
