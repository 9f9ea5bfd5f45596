/**
 * Attacks on the permission policy through subagents (issue 35, target 5),
 * on registries of `buildBuiltinToolRegistry` (this lives here, not in
 * packages/policy/src/hardening, because a policy test importing the sdk
 * would be an import circle): a worktree child runs with the parent's rules,
 * and what it changes is applied to the parent's workdir, so a parent rule
 * must hold for the files the apply step writes there.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../packages/core/src/index.js";
import { ScriptedModelClient, type ScriptedModelResponse } from "../../packages/core/src/testing/index.js";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { createCommittedRepository } from "../../packages/sdk/src/__fixtures__/committed-repository.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-policy-subagents-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A model whose subagent makes one tool call, then answers. */
function oneCall(call: { name: string; arguments: Record<string, unknown> }, seen: string[]): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: (request: ModelRequest): ScriptedModelResponse | string => {
      const last = request.messages.at(-1);
      if (last?.role === "tool") {
        seen.push(JSON.stringify(last.content));
        return "done";
      }
      return { toolCalls: [call] };
    },
  });
}

let counter = 0;

async function runChild(permissions: Record<string, unknown>, call: { name: string; arguments: Record<string, unknown> }, mode = "worktree") {
  counter += 1;
  const workdir = createCommittedRepository(temporary, `repo${counter}`, {
    "protected/keep.txt": "original\n",
    "secret/key.txt": "TOPSECRET-4711\n",
    "README.md": "# demo\n",
  });
  const seen: string[] = [];
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, `data${counter}`),
    subagents: {
      model: oneCall({ ...call, arguments: JSON.parse(JSON.stringify(call.arguments).replaceAll("WORKDIR", workdir)) as Record<string, unknown> }, seen),
      conversationId: `chat-${counter}`,
    },
    permissions: JSON.parse(JSON.stringify(permissions).replaceAll("WORKDIR", workdir)) as never,
    approval: { defaultDecision: "allow" },
  });
  try {
    await registry.executeToolCall({
      id: "agent",
      name: "Agent",
      arguments: { agents: [{ id: "writer", prompt: "Change the file.", mode, ...(mode === "worktree" ? { apply_policy: "auto" } : {}) }] },
    });
  } finally {
    await registry.close();
  }
  return { workdir, seen };
}

describe("a worktree subagent cannot change what the parent's rules protect", () => {
  it.each([
    ["a workdir-relative rule", { deny: ["Edit(protected/**)"] }],
    ["a project-root rule", { deny: ["Edit(/protected/**)"] }],
    ["an absolute rule naming the parent's folder", { deny: ["Edit(//WORKDIR/protected/**)"] }],
  ])(
    "Write protected/keep.txt in the child (%s)",
    async (_, permissions) => {
      const { workdir, seen } = await runChild(permissions, { name: "Write", arguments: { path: "protected/keep.txt", content: "pwned\n" } });
      expect(fs.readFileSync(path.join(workdir, "protected", "keep.txt"), "utf8"), seen.join("\n")).toBe("original\n");
    },
    120_000,
  );

  it("Bash in the child meets the parent's Bash deny rule (ManagedProcess too)", async () => {
    const a = await runChild({ deny: ["Bash(touch *)"] }, { name: "Bash", arguments: { command: "touch pwned.txt" } });
    expect(fs.existsSync(path.join(a.workdir, "pwned.txt")), a.seen.join("\n")).toBe(false);
  }, 120_000);
});

describe("a subagent cannot read what the parent's rules deny", () => {
  it.each([
    ["readonly", "Read", { path: "secret/key.txt" }],
    ["readonly", "Grep", { pattern: "TOPSECRET" }],
    ["worktree", "Read", { path: "secret/key.txt" }],
    ["worktree", "Grep", { pattern: "TOPSECRET" }],
    ["worktree", "Read", { path: "WORKDIR/secret/key.txt" }],
  ])(
    "a %s child: %s %j",
    async (mode, name, args) => {
      const { seen } = await runChild({ deny: ["Read(secret/**)"] }, { name, arguments: args }, mode);
      expect(seen.join("\n")).not.toContain("TOPSECRET-4711");
    },
    120_000,
  );
});
