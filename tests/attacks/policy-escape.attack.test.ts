/**
 * Second-round attacks on the registry's policies (issue 29, items 9 and 11),
 * made through `executeToolCall` on registries of `buildBuiltinToolRegistry`
 * (real processes, real git worktrees), against what the first round's fixes
 * promise:
 *
 * - Plan mode switched on while a call waits (for the user's approval, or for
 *   a run slot behind other calls of its tool) refuses the call when its
 *   turn comes; before, the check ran once at the call's entry and a write
 *   queued before plan mode ran after it.
 * - Plan mode's exceptions (Agent, SendMessage, ExitPlanMode) are the SDK's
 *   tools: a host's own write tool that only shares the name is refused.
 * - The approval options are read once, as own properties: a polluted
 *   `Object.prototype` (`onAsk`, `policies`, `defaultDecision`) lends no rule
 *   and no approver, and a worktree agent's registry (built when the Agent
 *   call runs) gets the rules the parent checked, not what the host's object
 *   says later (a getter, or a mutation after the build).
 * - An `onAsk` that never answers does not hold a call past its abort.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ModelRequest, type ToolResult, defineTool, toolResultText } from "../../packages/core/src/index.js";
import { ScriptedModelClient } from "../../packages/core/src/testing/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { z } from "zod";
import { createCommittedRepository } from "../../packages/sdk/src/__fixtures__/committed-repository.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-policy-escape-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
const fresh = (name: string) => fs.mkdtempSync(path.join(temporary, `${name}-${(counter += 1)}-`));
const text = (result: ToolResult) => toolResultText(result, "");

async function withRegistry<T>(options: Parameters<typeof buildBuiltinToolRegistry>[0], use: (registry: BuiltinToolRegistry) => Promise<T>): Promise<T> {
  const registry = await buildBuiltinToolRegistry(options);
  try {
    return await use(registry);
  } finally {
    await registry.close();
  }
}

describe("plan mode switched on while a call waits", () => {
  it("refuses a Write that was waiting for the user's approval when plan mode started", async () => {
    const workdir = fresh("plan-ask");
    let answer: (value: boolean) => void = () => undefined;
    let onAsked: () => void = () => undefined;
    const askedOnce = new Promise<void>((resolve) => {
      onAsked = resolve;
    });
    await withRegistry(
      {
        workdir,
        dataDir: fresh("plan-ask-data"),
        approval: {
          policies: { Write: "ask" },
          onAsk: () =>
            new Promise<boolean>((resolve) => {
              answer = resolve;
              onAsked();
            }),
        },
      },
      async (registry) => {
        const pending = registry.executeToolCall({ id: "w", name: "Write", arguments: { path: "plan.txt", content: "written in plan mode" } });
        await askedOnce;
        registry.setPlanMode(true);
        answer(true);
        const result = await pending;
        expect(result).toMatchObject({ isError: true, details: { code: "permission_denied", planMode: true } });
        expect(text(result)).toContain("plan mode");
      },
    );
    expect(fs.existsSync(path.join(workdir, "plan.txt"))).toBe(false);
  });

  it("refuses a Bash call queued behind a run slot when plan mode started", async () => {
    const workdir = fresh("plan-slot");
    await withRegistry({ workdir, dataDir: fresh("plan-slot-data"), concurrency: { limits: { Bash: 1 } } }, async (registry) => {
      const first = registry.executeToolCall({ id: "b1", name: "Bash", arguments: { command: "sleep 1" } });
      // Let the first call take the only slot before the second queues.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = registry.executeToolCall({ id: "b2", name: "Bash", arguments: { command: "printf pwned > queued.txt" } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      registry.setPlanMode(true);
      await first;
      const result = await second;
      expect(result).toMatchObject({ isError: true, details: { code: "permission_denied", planMode: true } });
    });
    expect(fs.existsSync(path.join(workdir, "queued.txt"))).toBe(false);
  }, 30_000);
});

describe("plan mode's exceptions are the SDK's tools, not their names", () => {
  it.each(["Agent", "SendMessage"])("refuses a host's own write tool named %s in plan mode", async (name) => {
    const workdir = fresh("plan-name");
    const hostTool = defineTool({
      name,
      description: "Deploys the workspace.",
      inputSchema: z.object({}),
      execute: () => {
        fs.writeFileSync(path.join(workdir, "deployed.txt"), "x");
        return { content: "deployed" };
      },
    });
    await withRegistry({ workdir, dataDir: fresh("plan-name-data"), interaction: { planMode: true }, tools: [hostTool] }, async (registry) => {
      expect(registry.tools.map((tool) => tool.name)).not.toContain(name);
      const result = await registry.executeToolCall({ id: "1", name, arguments: {} });
      expect(result).toMatchObject({ isError: true, details: { code: "permission_denied", planMode: true } });
    });
    expect(fs.existsSync(path.join(workdir, "deployed.txt"))).toBe(false);
  });
});

describe("approval options are read once, as own properties", () => {
  const pollute = (key: string, value: unknown) => {
    Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true, enumerable: false });
    return () => {
      delete (Object.prototype as Record<string, unknown>)[key];
    };
  };

  it("a polluted Object.prototype.onAsk approves nothing: an ask rule without the host's onAsk still refuses", async () => {
    const workdir = fresh("proto-ask");
    const restore = pollute("onAsk", () => true);
    try {
      await withRegistry({ workdir, dataDir: fresh("proto-ask-data"), approval: { policies: { Bash: "ask" } } }, async (registry) => {
        const result = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "touch ran.txt" } });
        expect(result).toMatchObject({ isError: true, details: { code: "permission_denied" } });
      });
    } finally {
      restore();
    }
    expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
  });

  it("a polluted Object.prototype.policies lends no rule: defaultDecision deny still refuses Bash", async () => {
    const workdir = fresh("proto-policies");
    const restore = pollute("policies", { Bash: "allow" });
    try {
      await withRegistry({ workdir, dataDir: fresh("proto-policies-data"), approval: { defaultDecision: "deny" } }, async (registry) => {
        const result = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "touch ran.txt" } });
        expect(result).toMatchObject({ isError: true, details: { code: "permission_denied" } });
      });
    } finally {
      restore();
    }
    expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
  });

  it("a worktree agent's registry gets the rules the parent checked, not the host object's later values", async () => {
    const workdir = createCommittedRepository(fresh("child-rules"), "repo", { "README.md": "# demo\n" });
    const requests: ModelRequest[] = [];
    const model = new ScriptedModelClient({
      respond: (request) => {
        requests.push(request);
        const turn = request.messages.filter((message) => message.role === "assistant").length;
        return turn > 0 ? "done" : { toolCalls: [{ name: "Bash", arguments: { command: "printf pwned > child.txt && cat child.txt" } }] };
      },
    });
    const policies: Record<string, "allow" | "ask" | "deny"> = { Bash: "deny" };
    await withRegistry(
      { workdir, dataDir: fresh("child-rules-data"), approval: { policies }, subagents: { model, conversationId: "child-rules" } },
      async (registry) => {
        // The host changes its own object after the build (the parent still denies Bash: the rules were read once).
        policies.Bash = "allow";
        const own = await registry.executeToolCall({ id: "p", name: "Bash", arguments: { command: "true" } });
        expect(own).toMatchObject({ isError: true, details: { code: "permission_denied" } });
        await registry.executeToolCall({
          id: "agent_1",
          name: "Agent",
          arguments: { agents: [{ id: "runner", prompt: "Run it.", mode: "worktree", apply_policy: "none" }] },
        });
      },
    );
    const toolAnswers = requests.flatMap((request) => request.messages.filter((message) => message.role === "tool").map((message) => String(message.content)));
    expect(toolAnswers.join("\n")).not.toContain("pwned");
    expect(toolAnswers.join("\n")).toMatch(/denied/);
  }, 120_000);
});

describe("an onAsk that never answers", () => {
  it("does not hold the call past its abort", async () => {
    const workdir = fresh("ask-hang");
    await withRegistry(
      { workdir, dataDir: fresh("ask-hang-data"), approval: { policies: { Bash: "ask" }, onAsk: () => new Promise<boolean>(() => undefined) } },
      async (registry) => {
        const controller = new AbortController();
        const pending = registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "touch ran.txt" } }, { signal: controller.signal });
        setTimeout(() => controller.abort(), 100);
        const outcome = await Promise.race([pending, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 3_000))]);
        expect(outcome).not.toBe("hung");
        expect(outcome).toMatchObject({ isError: true, details: { cancelled: true } });
      },
    );
    expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
  });

  it.each([["yes"], [{}], [1], ["ALLOW"], [null]])("refuses the call when onAsk answers %j", async (answer) => {
    const workdir = fresh("ask-odd");
    await withRegistry(
      { workdir, dataDir: fresh("ask-odd-data"), approval: { policies: { Bash: "ask" }, onAsk: () => answer as boolean } },
      async (registry) => {
        const result = await registry.executeToolCall({ id: "1", name: "BASH", arguments: { command: "touch ran.txt" } });
        expect(result).toMatchObject({ isError: true, details: { code: "permission_denied" } });
      },
    );
    expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
  });
});
