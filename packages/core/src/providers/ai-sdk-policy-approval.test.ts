import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolRegistry, createToolRegistry } from "../registry/create-tool-registry.js";
import { defineTool } from "../registry/define-tool.js";
import type { PolicyCall, PolicyVerdict, ToolCallPolicyFactory } from "../registry/tool-call-policy.js";
import { toAiSdkTools } from "./ai-sdk-tools.js";

/** A policy double: `rm` commands ask, `hook-asks` commands are allowed by the rules but a (hook-like) beforeCall asks. */
const decide = (call: PolicyCall, withHooks: boolean): PolicyVerdict => {
  const command = String(call.input.command);
  if (command.startsWith("rm")) return { decision: "ask", rule: "Run(rm *)", hooks: [] };
  if (command === "hook-asks" && withHooks) return { decision: "ask", layer: "hook", hooks: [] };
  return { decision: "allow", hooks: [] };
};
const factory: ToolCallPolicyFactory = () => ({
  beforeCall: async (call) => decide(call, true),
  explain: async (call, options) => decide(call, options?.runHooks !== false),
});

describe('toAiSdkTools({ approval: "ai-sdk" }) over a registry with a permission policy', () => {
  let workdir: string;
  let registry: ToolRegistry;
  const ran: string[] = [];

  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "agent-tools-ai-sdk-policy-"));
    const run = defineTool({
      name: "Run",
      description: "Runs a command.",
      inputSchema: z.object({ command: z.string() }),
      metadata: { isReadOnly: false },
      execute: (input: { command: string }) => {
        ran.push(input.command);
        return { content: "ran" };
      },
    });
    registry = createToolRegistry({
      workdir,
      dataDir: path.join(workdir, ".data"),
      bundles: [{ id: "t", trusted: true, listTools: () => [run] }],
      policy: factory,
    });
  });
  afterAll(async () => {
    await registry.close();
    await rm(workdir, { recursive: true, force: true });
  });

  it("asks per call from the arguments, and only a call the user was asked about runs as granted", async () => {
    const tools = toAiSdkTools(registry, { approval: "ai-sdk" });
    const tool = tools.Run!;
    expect(await tool.needsApproval?.({ command: "rm -rf build" }, { toolCallId: "a" })).toBe(true);
    expect(await tool.needsApproval?.({ command: "ls" }, { toolCallId: "b" })).toBe(false);
    expect(await tool.needsApproval?.({ command: "hook-asks" }, { toolCallId: "c" })).toBe(false);
    const options = { toolCallId: "a", messages: [] };
    // The user approved "a": it runs without asking again.
    expect((await tool.execute({ command: "rm -rf build" }, options)).isError).toBe(false);
    expect((await tool.execute({ command: "ls" }, { ...options, toolCallId: "b" })).isError).toBe(false);
    // "c" was never put to the user: the hook's ask at run time is not taken as granted.
    const refused = await tool.execute({ command: "hook-asks" }, { ...options, toolCallId: "c" });
    expect(refused.error?.code).toBe("permission_denied");
    expect(ran).toEqual(["rm -rf build", "ls"]);
  });
});
