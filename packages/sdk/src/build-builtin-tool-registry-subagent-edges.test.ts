import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelRequest, ToolRegistry } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagent-edges-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const REJECTION_HEADER = "Agent rejected this call. No subagents were started. Fix every issue and retry with one corrected call.";
const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;
const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((block: { text?: string }) => block.text ?? "").join("")
      : JSON.stringify(content);

/** A parent registry on a fresh repository with a persistent conversation; children answer "done" unless `respond` says otherwise. */
async function openRegistry(
  name: string,
  respond: (request: ModelRequest) => ScriptedModelResponse | string = () => "done",
  prepareDataDir?: (dataDir: string) => void,
): Promise<{ registry: ToolRegistry; workdir: string; dataDir: string }> {
  const workdir = createCommittedRepository(temporary, name, { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" });
  const dataDir = path.join(temporary, `${name}-data`);
  prepareDataDir?.(dataDir);
  const model = new ScriptedModelClient({ respond });
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, subagents: { model, conversationId: `${name}-chat` } });
  return { registry, workdir, dataDir };
}

describe("buildBuiltinToolRegistry: Agent and SendMessage edge cases", () => {
  it("answers an unknown top-level Agent key with the Agent rejection (every issue, the roster, the templates)", async () => {
    const { registry } = await openRegistry("unknown-key");
    try {
      const result = await registry.executeToolCall({
        id: "call_1",
        name: "Agent",
        arguments: {
          agents: [
            { id: "scout", prompt: "Look around." },
            { id: "Scout", prompt: "Look again." },
          ],
          mode: "worktree",
        },
      });
      const output = text(result.content);
      expect(result.isError).toBe(true);
      expect(output.startsWith(REJECTION_HEADER)).toBe(true);
      expect(output).toContain('[invalid_arguments] Unknown Agent parameter "mode". Allowed parameters: "agents", "concurrency"');
      expect(output).toContain("[duplicate_agent_id] agent=Scout");
      expect(output).toContain("Existing agents (reuse these ids to resume):\n(none)");
      expect(output).toContain("Templates (template=<id or name>):\n(none)");
      expect(output).not.toContain("unsupported argument");
      const details = result.details as SubagentBatchDetails;
      expect(details).toMatchObject({ kind: "subagent_batch", status: "rejected", agentCount: 0, agents: [], roster: [], templates: [] });
      expect(details.issues?.map((issue) => issue.code)).toEqual(["invalid_arguments", "duplicate_agent_id"]);
    } finally {
      await registry.close();
    }
  }, 60_000);

  for (const [label, breakStore] of [
    ["a corrupt SQLite file", (dataDir: string) => fs.writeFileSync(path.join(dataDir, "agent-tools.sqlite"), "this is not a SQLite database\n".repeat(200))],
    ["a directory where the SQLite file belongs", (dataDir: string) => fs.mkdirSync(path.join(dataDir, "agent-tools.sqlite"))],
  ] as const) {
    it(`with ${label}, Agent starts nothing, shows an empty roster and says the subagent store failed; SendMessage says so too`, async () => {
      let modelCalls = 0;
      const { registry } = await openRegistry(
        label.replace(/\W+/g, "-"),
        () => {
          modelCalls += 1;
          return "done";
        },
        (dataDir) => {
          fs.mkdirSync(dataDir, { recursive: true });
          breakStore(dataDir);
        },
      );
      try {
        const result = await registry.executeToolCall({ id: "call_1", name: "Agent", arguments: { agents: [{ id: "scout", prompt: "Look around." }] } });
        const output = text(result.content);
        expect(result.isError).toBe(true);
        expect(output).not.toContain("failed unexpectedly");
        expect(output).toContain("No subagents were started");
        expect(output).toContain("Issues:\n1. [provision_failed] The subagent tools are unavailable: ");
        expect(output).toContain("agent-tools.sqlite");
        expect(output).toContain("Retrying will not help: continue without subagents and tell the user.");
        expect(output).toContain("pass its own store as `subagents.store`");
        expect(output).toContain("Existing agents (reuse these ids to resume):\n(none: the subagent store could not be read)");
        const details = result.details as SubagentBatchDetails;
        expect(details).toMatchObject({ kind: "subagent_batch", status: "rejected", agentCount: 0, agents: [], roster: [] });
        expect(details.issues?.map((issue) => issue.code)).toEqual(["provision_failed"]);
        expect(modelCalls).toBe(0);

        const sent = await registry.executeToolCall({ id: "call_2", name: "SendMessage", arguments: { to: "*", message: "hello" } });
        expect(sent.isError).toBe(true);
        expect(text(sent.content)).not.toContain("failed unexpectedly");
        expect(text(sent.content)).toContain("The message was not sent: the message store failed (The subagent tools are unavailable:");
      } finally {
        await registry.close();
      }
    }, 60_000);
  }

  it("SendMessage normalises an unknown channel (broadcast: shared; one recipient: direct) and keeps to/message validation", async () => {
    const { registry } = await openRegistry("channels");
    try {
      const started = await registry.executeToolCall({ id: "call_1", name: "Agent", arguments: { agents: [{ id: "scout", prompt: "Look around." }] } });
      expect(started.isError).toBe(false);
      const send = async (args: Record<string, unknown>) => {
        const result = await registry.executeToolCall({ id: `send_${JSON.stringify(args)}`, name: "SendMessage", arguments: { message: "hi", ...args } });
        return { isError: result.isError === true, text: text(result.content), channel: (result.details as { channel?: string } | undefined)?.channel };
      };
      const broadcast = await Promise.all(["bogus", "direct", "", "decision", "Question"].map((channel) => send({ to: "*", channel })));
      expect(broadcast.map((result) => [result.isError, result.channel])).toEqual([
        [false, "shared"],
        [false, "shared"],
        [false, "shared"],
        [false, "decision"],
        [false, "question"],
      ]);
      expect(broadcast[0]!.text).toContain("Message sent to all agents via Agent Message Bus.");
      expect(broadcast[0]!.text).toContain("channel=shared");
      const direct = await Promise.all(["bogus", "shared", "SHARED", "decision"].map((channel) => send({ to: "SCOUT", channel })));
      expect(direct.map((result) => [result.isError, result.channel])).toEqual([
        [false, "direct"],
        [false, "direct"],
        [false, "direct"],
        [false, "decision"],
      ]);
      expect(direct[0]!.text).toContain("Message sent to scout via Agent Message Bus.");
      // An omitted `to` still needs channel shared (any case); `to` and `message` are still checked.
      expect(await send({ channel: "Shared" })).toMatchObject({ isError: false, channel: "shared" });
      const noRecipient = await send({ channel: "bogus" });
      expect(noRecipient.isError).toBe(true);
      expect(noRecipient.text).toContain('"to" is required');
      expect((await send({ to: "ghost", channel: "bogus" })).text).toContain('Unknown recipient "ghost"');
      expect((await send({ to: "*", message: "" })).isError).toBe(true);
      expect((await send({ to: "*", colour: "red" })).text).toContain("unsupported argument(s): colour");
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("counts a worktree whose only changes are .DS_Store, Thumbs.db and Desktop.ini as unchanged and never applies litter", async () => {
    const { registry, workdir } = await openRegistry("litter", (request) => {
      const agent = agentOf(request);
      if (turnOf(request) > 0) return `done ${agent}`;
      if (agent === "litterer")
        return {
          toolCalls: [
            { name: "Bash", arguments: { command: "printf x > .DS_Store && mkdir -p sub && printf x > sub/Thumbs.db && printf x > src/desktop.ini" } },
          ],
        };
      return {
        toolCalls: [{ name: "Bash", arguments: { command: "printf 'export const a = 2;\\n' > src/a.ts && printf x > src/.DS_Store && printf x > Thumbs.db" } }],
      };
    });
    try {
      const result = await registry.executeToolCall({
        id: "call_1",
        name: "Agent",
        arguments: {
          agents: [
            { id: "litterer", prompt: "Leave litter only.", mode: "worktree", apply_policy: "auto" },
            { id: "editor", prompt: "Set a to 2.", mode: "worktree", apply_policy: "auto" },
          ],
        },
      });
      const details = result.details as SubagentBatchDetails;
      expect(result.isError).toBe(false);
      const [litterer, editor] = details.agents;
      expect(litterer).toMatchObject({
        status: "completed",
        applyStatus: "skipped",
        skipReason: "no_changes",
        worktreeCleanupStatus: "removed",
        cleanupReason: "unchanged",
        changedPaths: [],
      });
      expect(editor).toMatchObject({ status: "completed", applyStatus: "applied", worktreeCleanupStatus: "removed", changedPaths: ["src/a.ts"] });
      expect(fs.readFileSync(path.join(workdir, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");
      for (const litter of [".DS_Store", "sub", "src/desktop.ini", "src/.DS_Store", "Thumbs.db"]) expect(fs.existsSync(path.join(workdir, litter))).toBe(false);
    } finally {
      await registry.close();
    }
  }, 120_000);
});
