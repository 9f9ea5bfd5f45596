/**
 * Agent validates its own arguments (`allowUnknownArguments`), and SendMessage
 * now normalises any channel instead of refusing it. Attacks: top-level keys
 * named like prototype slots (`__proto__` carrying `agents`, `constructor`)
 * or like internal options (`workdir`, `conversationId`, `mode`,
 * `apply_policy`, `forceReadonly`) must be refused with nothing started;
 * channels such as `__proto__`, `toString` or 1 MB of text travel as a known
 * channel, never as the string given.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-subagent-args-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const AGENTS = [{ id: "scout", prompt: "Look around." }];

describe("Agent's own argument check and SendMessage channels", () => {
  it("refuses every unknown top-level key (prototype names, internal option names) and starts nothing", async () => {
    const workdir = path.join(temporary, "work");
    const outside = path.join(temporary, "outside");
    fs.mkdirSync(workdir);
    fs.mkdirSync(outside);
    let modelCalls = 0;
    const model = new ScriptedModelClient({
      respond: () => {
        modelCalls += 1;
        return "done";
      },
    });
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "data"),
      memory: false,
      subagents: { model, conversationId: "attack-chat" },
    });
    try {
      const attempts: Array<{ label: string; raw: string; unknown: string }> = [
        { label: "__proto__ carrying agents", raw: `{"__proto__": {"agents": ${JSON.stringify(AGENTS)}}}`, unknown: "__proto__" },
        {
          label: "__proto__ beside agents",
          raw: `{"agents": ${JSON.stringify(AGENTS)}, "__proto__": {"mode": "worktree", "apply_policy": "auto"}}`,
          unknown: "__proto__",
        },
        { label: "constructor", raw: JSON.stringify({ agents: AGENTS, constructor: { prototype: { mode: "worktree" } } }), unknown: "constructor" },
        { label: "workdir", raw: JSON.stringify({ agents: AGENTS, workdir: outside }), unknown: "workdir" },
        { label: "conversationId", raw: JSON.stringify({ agents: AGENTS, conversationId: "someone-else" }), unknown: "conversationId" },
        { label: "mode", raw: JSON.stringify({ agents: AGENTS, mode: "worktree" }), unknown: "mode" },
        { label: "apply_policy", raw: JSON.stringify({ agents: AGENTS, apply_policy: "auto" }), unknown: "apply_policy" },
        { label: "forceReadonly", raw: JSON.stringify({ agents: AGENTS, forceReadonly: false }), unknown: "forceReadonly" },
        { label: "hasOwnProperty", raw: JSON.stringify({ agents: AGENTS, hasOwnProperty: 1 }), unknown: "hasOwnProperty" },
      ];
      for (const attempt of attempts) {
        const result = await registry.executeToolCall({ id: `agent-${attempt.label}`, name: "Agent", arguments: attempt.raw });
        const text = toolResultText(result, "");
        expect(result.isError, attempt.label).toBe(true);
        expect(text, attempt.label).toContain("Agent rejected this call. No subagents were started.");
        expect(text, attempt.label).toContain(`Unknown Agent parameter "${attempt.unknown}"`);
      }
      expect(modelCalls).toBe(0);
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(({} as Record<string, unknown>).agents).toBeUndefined();
      expect(({} as Record<string, unknown>).mode).toBeUndefined();

      // The same per entry: an entry's prototype key is an unknown field, not a setting.
      const entry = await registry.executeToolCall({
        id: "agent-entry-proto",
        name: "Agent",
        arguments: `{"agents": [{"id": "scout", "prompt": "Look.", "__proto__": {"mode": "worktree", "apply_policy": "auto"}}]}`,
      });
      expect(entry.isError).toBe(true);
      expect(toolResultText(entry, "")).toContain('Unknown field "__proto__" in agents[0]');
      expect(modelCalls).toBe(0);

      // A clean call still starts the agent.
      const clean = await registry.executeToolCall({ id: "agent-clean", name: "Agent", arguments: { agents: AGENTS } });
      expect(clean.isError, toolResultText(clean, "")).toBe(false);
      expect(modelCalls).toBeGreaterThan(0);

      for (const [channel, expected] of [
        ["__proto__", "direct"],
        ["toString", "direct"],
        ["constructor", "direct"],
        ["hasOwnProperty", "direct"],
        [" DECISION ", "decision"],
        ["Question", "question"],
        ["x".repeat(1024 * 1024), "direct"],
      ] as const) {
        const sent = await registry.executeToolCall({
          id: `send-${channel.slice(0, 20)}`,
          name: "SendMessage",
          arguments: { to: "scout", channel, message: "hello" },
        });
        const text = toolResultText(sent, "");
        if (channel.length > 1000) {
          // A huge channel may be refused by the argument limits; if it is sent, it travels as a known channel.
          if (sent.isError) continue;
        }
        expect(sent.isError, text.slice(0, 300)).toBe(false);
        expect(text).toMatch(new RegExp(`channel=${expected}$`, "m"));
        expect((sent.details as { channel?: unknown }).channel).toBe(expected);
      }
      for (const channel of ["__proto__", "toString", "shared"]) {
        const broadcast = await registry.executeToolCall({ id: `broadcast-${channel}`, name: "SendMessage", arguments: { to: "*", channel, message: "all" } });
        expect(broadcast.isError, toolResultText(broadcast, "")).toBe(false);
        expect(toolResultText(broadcast, "")).toMatch(/channel=shared$/m);
      }
    } finally {
      await registry.close();
    }
  }, 120_000);
});
