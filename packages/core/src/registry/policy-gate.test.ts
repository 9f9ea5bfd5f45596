import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import type { ToolBundle, ToolDefinition } from "../types.js";
import { createToolRegistry } from "./create-tool-registry.js";
import { defineTool } from "./define-tool.js";
import type { PolicyCall, PolicyVerdict, ToolCallPolicy, ToolCallPolicyFactory } from "./tool-call-policy.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-policy-gate-")));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

/** A tool that records every input it ran with. */
function echoTool(ran: unknown[]): ToolDefinition {
  return defineTool({
    name: "Echo",
    description: "Echo.",
    inputSchema: z.object({ text: z.string().max(10) }),
    metadata: { isReadOnly: false },
    execute: (input: { text: string }) => {
      ran.push(input);
      return { content: `echo ${input.text}` };
    },
  });
}

const bundleOf = (tools: ToolDefinition[]): ToolBundle => ({ id: "test", trusted: true, listTools: () => tools });

/** A policy double whose decisions a test scripts; it records what it saw. */
function scripted(decide: (call: PolicyCall) => Partial<PolicyVerdict>, extra: Partial<ToolCallPolicy> = {}) {
  const seen: PolicyCall[] = [];
  const factory: ToolCallPolicyFactory = () => ({
    async beforeCall(call) {
      seen.push(call);
      return { decision: "allow", hooks: [], ...decide(call) };
    },
    async explain(call) {
      return { decision: "allow", hooks: [], ...decide(call) };
    },
    ...extra,
  });
  return { factory, seen };
}

function registryWith(factory: ToolCallPolicyFactory, ran: unknown[], onAsk?: () => boolean) {
  return createToolRegistry({
    workdir: work,
    dataDir: path.join(work, ".data"),
    bundles: [bundleOf([echoTool(ran)])],
    policy: factory,
    ...(onAsk === undefined ? {} : { approval: { onAsk } }),
  });
}

describe("the executor asks the registry's permission policy", () => {
  it("a deny never runs the tool and the model reads the policy's reason, rule and layer", async () => {
    const ran: unknown[] = [];
    const { factory } = scripted(() => ({ decision: "deny", rule: "Echo(x)", layer: "project", reason: "Echo is denied by Echo(x)." }));
    const registry = registryWith(factory, ran);
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "hi" } });
    expect(ran).toEqual([]);
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("permission_denied");
    expect(result.content[0]).toEqual({ type: "text", text: "Echo is denied by Echo(x)." });
    expect(result.details).toMatchObject({ rule: "Echo(x)", layer: "project" });
    await registry.close();
  });

  it("the policy sees the validated input, and a rewritten input is validated again before the tool runs", async () => {
    const ran: unknown[] = [];
    const { factory, seen } = scripted((call) =>
      call.input.text === "short" ? { updatedInput: { text: "rewritten" } } : { updatedInput: { text: "far too long for the schema" } },
    );
    const registry = registryWith(factory, ran);
    const ok = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "short" } });
    expect(ok.isError).toBe(false);
    expect(ran).toEqual([{ text: "rewritten" }]);
    expect(seen[0]?.input).toEqual({ text: "short" });
    const bad = await registry.executeToolCall({ id: "2", name: "Echo", arguments: { text: "other" } });
    expect(bad.isError).toBe(true);
    expect(bad.error?.code).toBe("invalid_arguments");
    expect(ran).toHaveLength(1);
    await registry.close();
  });

  it("ask goes to PermissionRequest hooks first, then to the host's onAsk; without either it is refused", async () => {
    const ran: unknown[] = [];
    const asked: string[] = [];
    const { factory } = scripted(() => ({ decision: "ask", rule: "Echo" }));
    const refused = registryWith(factory, ran);
    expect((await refused.executeToolCall({ id: "1", name: "Echo", arguments: { text: "a" } })).error?.code).toBe("permission_denied");
    const withHost = registryWith(factory, ran, () => {
      asked.push("host");
      return true;
    });
    expect((await withHost.executeToolCall({ id: "2", name: "Echo", arguments: { text: "b" } })).isError).toBe(false);
    expect(asked).toEqual(["host"]);
    const { factory: hooked } = scripted(() => ({ decision: "ask" }), {
      onPermissionRequest: async () => ({ decision: "deny", reason: "a hook said no", hooks: [] }),
    });
    const hookDenies = registryWith(hooked, ran, () => {
      asked.push("host again");
      return true;
    });
    const denied = await hookDenies.executeToolCall({ id: "3", name: "Echo", arguments: { text: "c" } });
    expect(denied.content[0]).toEqual({ type: "text", text: "a hook said no" });
    expect(asked).toEqual(["host"]);
    expect(ran).toEqual([{ text: "b" }]);
    await Promise.all([refused.close(), withHost.close(), hookDenies.close()]);
  });

  it("after the call the policy may replace what the model reads and add context; explain never runs the tool", async () => {
    const ran: unknown[] = [];
    const { factory } = scripted(() => ({ additionalContext: "before-context" }), {
      afterCall: async () => ({
        result: { content: [{ type: "text", text: "replaced" }], details: {}, isError: false },
        additionalContext: "after-context",
        hooks: [],
      }),
    });
    const registry = registryWith(factory, ran);
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x" } });
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(text).toContain("replaced");
    expect(text).toContain("before-context");
    expect(text).toContain("after-context");
    const explained = await registry.policy.explain({ name: "Echo", arguments: { text: "y" } });
    expect(explained).toMatchObject({ decision: "allow", toolName: "Echo" });
    expect(ran).toHaveLength(1);
    expect((await registry.policy.explain({ name: "Echo", arguments: { text: 5 } })).decision).toBe("deny");
    expect((await registry.policy.explain({ name: "Nope" })).decision).toBe("deny");
    await registry.close();
  });

  it("a factory that is not a function, or returns no policy, is refused at build", () => {
    expect(() => registryWith("nope" as unknown as ToolCallPolicyFactory, [])).toThrow(SdkError);
    expect(() => registryWith((() => ({})) as unknown as ToolCallPolicyFactory, [])).toThrow(SdkError);
  });

  it("SessionEnd runs and the policy is closed by registry.close()", async () => {
    const events: string[] = [];
    const { factory } = scripted(() => ({}), {
      notify: async (event) => {
        events.push(event);
        return [];
      },
      close: async () => {
        events.push("closed");
      },
    });
    const registry = registryWith(factory, []);
    await registry.close();
    expect(events).toEqual(["SessionStart", "SessionEnd", "closed"]);
  });
});

describe("a tool the policy denies whatever its input", () => {
  it("is left out of tools, answers deny in approvalDecision and its calls are refused before the policy is asked", async () => {
    const ran: unknown[] = [];
    const { factory, seen } = scripted(() => ({}), { deniesTool: (name) => name === "Echo" });
    const registry = registryWith(factory, ran);
    expect(registry.tools.map((tool) => tool.name)).toEqual([]);
    expect(registry.approvalDecision("Echo")).toBe("deny");
    const result = await registry.executeToolCall({ id: "1", name: "Echo", arguments: { text: "x" } });
    expect(result.error?.code).toBe("permission_denied");
    expect(seen).toEqual([]);
    expect(ran).toEqual([]);
    expect((await registry.policy.explain({ name: "Echo", arguments: { text: "x" } })).decision).toBe("deny");
    await registry.close();
  });
});
