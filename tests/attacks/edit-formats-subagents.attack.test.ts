/**
 * Attacks on ApplyPatch through worktree subagents: a child on the
 * `apply_patch` surface patches what the parent's `Edit(protected/**)` deny
 * rule protects (Add, Update, Delete, Move to), and the parent applies the
 * child's worktree with `apply_policy: "auto"`: the parent's file must stay
 * as it was. (Here, not in packages/policy, for the same reason as
 * policy-subagents.attack.test.ts: the sdk is needed.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../packages/core/src/index.js";
import { ScriptedModelClient, type ScriptedModelResponse } from "../../packages/core/src/testing/index.js";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { createCommittedRepository } from "../../packages/sdk/src/__fixtures__/committed-repository.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-edit-formats-subagents-")));
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

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
let counter = 0;

describe("a worktree child's ApplyPatch meets the parent's Edit deny rule", () => {
  it.each([
    ["Update", patch("*** Update File: protected/keep.txt", "@@", "-original", "+pwned")],
    ["Delete", patch("*** Delete File: protected/keep.txt")],
    ["Add", patch("*** Add File: protected/new.txt", "+pwned")],
    ["Move to", patch("*** Update File: README.md", "*** Move to: protected/readme.md")],
    ["Move from", patch("*** Update File: protected/keep.txt", "*** Move to: free.txt")],
  ])(
    "%s",
    async (_, text) => {
      counter += 1;
      const workdir = createCommittedRepository(temporary, `repo${counter}`, { "protected/keep.txt": "original\n", "README.md": "# demo\n" });
      const seen: string[] = [];
      const registry = await buildBuiltinToolRegistry({
        workdir,
        dataDir: path.join(temporary, `data${counter}`),
        editSurface: "apply_patch",
        subagents: { model: oneCall({ name: "ApplyPatch", arguments: { patch: text } }, seen), conversationId: `chat-${counter}` },
        permissions: { deny: ["Edit(protected/**)"] },
        approval: { defaultDecision: "allow" },
      });
      try {
        await registry.executeToolCall({
          id: "agent",
          name: "Agent",
          arguments: { agents: [{ id: "patcher", prompt: "Change the file.", mode: "worktree", apply_policy: "auto" }] },
        });
      } finally {
        await registry.close();
      }
      expect(fs.readdirSync(path.join(workdir, "protected")), seen.join("\n")).toEqual(["keep.txt"]);
      expect(fs.readFileSync(path.join(workdir, "protected", "keep.txt"), "utf8"), seen.join("\n")).toBe("original\n");
      expect(seen.join("\n")).toContain("denied");
    },
    120_000,
  );
});
