import fs from "node:fs";
import path from "node:path";
import type { ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { SubagentBatchDetails, SubagentCardDetails } from "../domain/subagent-protocol.js";
import { InMemorySubagentStore } from "../ports/in-memory-subagent-store.js";
import { type SubagentHarness, agentOf, makeRepository, openHarness } from "./__fixtures__/subagent-harness.js";

type Respond = (request: ModelRequest, agent: string, turn: number) => Promise<string | ScriptedModelResponse> | string | ScriptedModelResponse;

/** A model that routes each child's request by its agent id; `turn` counts that run's assistant messages so far. */
function modelOf(respond: Respond): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: async (request) => respond(request, agentOf(request as never), request.messages.filter((message) => message.role === "assistant").length),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const texts = (request: ModelRequest) => request.messages.map((message) => message.content).join("\n");

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("Agent tool (scripted model, real registries and git)", () => {
  it("runs 8 readonly agents side by side and streams a card per agent", async () => {
    const workdir = makeRepository();
    const spans = new Map<string, [number, number]>();
    const model = modelOf(async (_request, agent, turn) => {
      if (turn === 0) {
        const start = performance.now();
        await sleep(150);
        spans.set(agent, [start, performance.now()]);
        return { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] };
      }
      return `done ${agent}`;
    });
    harness = openHarness(workdir, model);
    const agents = Array.from({ length: 8 }, (_, index) => ({ id: `reader-${index}`, prompt: `Read the README (${index}).` }));
    const result = await harness.call({ agents });
    const details = result.details as SubagentBatchDetails;
    expect(result.isError).toBe(false);
    expect(details).toMatchObject({ kind: "subagent_batch", status: "ok", agentCount: 8, concurrency: 8, mode: "readonly" });
    expect(details.agents.map((agent) => [agent.id, agent.status, agent.rounds, agent.toolCalls, agent.summary])).toEqual(
      agents.map((agent) => [agent.id, "completed", 1, 1, `done ${agent.id}`]),
    );
    const starts = [...spans.values()].map(([start]) => start);
    const ends = [...spans.values()].map(([, end]) => end);
    expect(spans.size).toBe(8);
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends)); // all eight first turns overlapped
    const cards = result.updates.filter((update): update is SubagentCardDetails => (update as SubagentCardDetails)?.kind === "subagent_card");
    expect(new Set(cards.map((card) => card.index))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(cards.filter((card) => card.agent.status === "completed")).toHaveLength(8);
    const runs = await harness.store.listRuns("conversation-1", { agentId: "reader-3" });
    expect(runs[0]).toMatchObject({ status: "completed", rounds: 1, toolCalls: 1, summary: "done reader-3" });
    expect(text(result)).toContain("## Reader 3 (reader-3): completed");
  }, 60_000);

  it("applies three worktree agents' edits to the parent and removes their worktrees; refuses an explicit apply outside allowed_output_paths; keeps a failed agent's worktree", async () => {
    const workdir = makeRepository();
    const edits: Record<string, string> = { "edit-a": "src/a.ts", "edit-b": "src/b.ts", "add-c": "docs/c.md", outside: "src/outside.ts" };
    const model = modelOf((_request, agent, turn) => {
      if (agent === "boom") throw new Error("model exploded");
      if (turn === 0) {
        const target = edits[agent]!;
        return { toolCalls: [{ name: "Bash", arguments: { command: `mkdir -p ${path.dirname(target)} && printf 'changed by ${agent}\\n' > ${target}` } }] };
      }
      return `edited ${edits[agent]}`;
    });
    harness = openHarness(workdir, model);
    const result = await harness.call({
      agents: [
        { id: "edit-a", prompt: "Edit a.", mode: "worktree", apply_policy: "auto" },
        { id: "edit-b", prompt: "Edit b.", mode: "worktree", apply_policy: "auto" },
        { id: "add-c", prompt: "Add c.", mode: "worktree", apply_policy: "auto" },
        { id: "outside", prompt: "Write docs only.", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["docs/**"] },
        { id: "boom", prompt: "Fail.", mode: "worktree", apply_policy: "auto" },
      ],
    });
    const details = result.details as SubagentBatchDetails;
    const byId = new Map(details.agents.map((agent) => [agent.id, agent]));
    expect(result.isError).toBe(true); // one agent failed
    expect(details.mode).toBe("worktree");
    for (const id of ["edit-a", "edit-b", "add-c"]) {
      expect(byId.get(id)).toMatchObject({ status: "completed", applyStatus: "applied", worktreeCleanupStatus: "removed", changedPaths: [edits[id]] });
      expect(fs.readFileSync(path.join(workdir, edits[id]!), "utf8")).toBe(`changed by ${id}\n`);
      expect(fs.existsSync(byId.get(id)!.worktreePath!)).toBe(false);
    }
    expect(byId.get("outside")).toMatchObject({
      status: "completed",
      applyStatus: "skipped",
      skipReason: "explicit_apply_paths_mismatch",
      worktreeCleanupStatus: "retained",
    });
    expect(fs.existsSync(path.join(workdir, "src/outside.ts"))).toBe(false);
    expect(fs.readFileSync(path.join(byId.get("outside")!.worktreePath!, "src/outside.ts"), "utf8")).toBe("changed by outside\n");
    expect(byId.get("boom")).toMatchObject({ status: "failed", worktreeCleanupStatus: "retained" });
    expect(byId.get("boom")!.error).toContain("model exploded");
    expect(fs.existsSync(byId.get("boom")!.worktreePath!)).toBe(true);
    expect(text(result)).toContain("explicit_apply_paths_mismatch");
  }, 120_000);

  it("delivers a message at the recipient's next turn boundary, not before", async () => {
    const workdir = makeRepository();
    const requests: Record<string, string[]> = { alice: [], bob: [] };
    const model = modelOf(async (request, agent, turn) => {
      requests[agent]!.push(texts(request));
      if (agent === "alice")
        return turn === 0 ? { toolCalls: [{ name: "SendMessage", arguments: { to: "bob", message: "hello bob, use port 8080" } }] } : "sent";
      if (turn === 0) {
        // Bob's first turn is under way while Alice sends.
        for (let waited = 0; (await harness!.store.listMessages("conversation-1")).length === 0 && waited < 5_000; waited += 20) await sleep(20);
        return { toolCalls: [{ name: "Glob", arguments: { pattern: "**/*.ts" } }] };
      }
      return "got it";
    });
    harness = openHarness(workdir, model);
    const result = await harness.call({
      agents: [
        { id: "alice", prompt: "Tell bob the port." },
        { id: "bob", prompt: "Wait for the port." },
      ],
    });
    expect(result.isError).toBe(false);
    expect(requests.bob![0]).not.toContain("hello bob");
    expect(requests.bob![1]).toContain("hello bob, use port 8080");
    expect(requests.bob![1]).toContain("Agent Message Bus");
    const [message] = await harness.store.listMessages("conversation-1");
    expect(message).toMatchObject({ seq: 1, senderId: "alice", recipientId: "bob", channel: "direct" });
  }, 60_000);

  it("resumes an agent's context by default and starts fresh with resume=false, keeping its identity", async () => {
    const workdir = makeRepository();
    const seen: string[] = [];
    const model = modelOf((request) => {
      seen.push(texts(request));
      return `answer ${seen.length}`;
    });
    harness = openHarness(workdir, model);
    await harness.call({ agents: [{ id: "Keeper", prompt: "first task", name: "The Keeper" }] });
    const second = await harness.call({ agents: [{ id: "keeper", prompt: "second task" }] });
    expect(second.isError).toBe(false);
    expect(seen[1]).toContain("first task");
    expect(seen[1]).toContain("answer 1");
    expect(seen[1]).toContain("second task");
    await harness.call({ agents: [{ id: "keeper", prompt: "third task", resume: false }] });
    expect(seen[2]).not.toContain("first task");
    expect(seen[2]).toContain("third task");
    expect(seen[2]).toContain("The Keeper");
    const identities = await harness.store.listIdentities("conversation-1");
    expect(identities.map((identity) => [identity.id, identity.name])).toEqual([["Keeper", "The Keeper"]]);
  }, 60_000);

  it("rejects a call with several issues whole, starting nothing", async () => {
    const workdir = makeRepository();
    const model = modelOf(() => "should not run");
    harness = openHarness(workdir, model);
    const result = await harness.call({
      agents: [
        { id: "dup", prompt: "x" },
        { id: "DUP", prompt: "y" },
        { id: "t", prompt: "z", template: "no-such-template" },
        { id: "out", prompt: "w", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["../elsewhere/**"] },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ kind: "subagent_batch", status: "rejected", agentCount: 0 });
    expect(text(result)).toContain("No subagents were started");
    expect(text(result)).toContain("[duplicate_agent_id]");
    expect(text(result)).toContain("[unknown_template]");
    expect(model.requests).toHaveLength(0);
    const paths = await harness.call({
      agents: [{ id: "out", prompt: "w", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["../elsewhere/**"] }],
    });
    expect(text(paths)).toContain("[output_path_outside_workspace]");
    expect(model.requests).toHaveLength(0);
  }, 60_000);

  it("starts nothing while the store cannot list the roster, says why beside the call's other issues, and tries the store again next call", async () => {
    const workdir = makeRepository();
    const model = modelOf(() => "done");
    const working = new InMemorySubagentStore();
    let broken = true;
    const store = new Proxy(working, {
      get(target, property, receiver) {
        if (property === "listIdentities" && broken) return async () => Promise.reject(new Error("disk gone"));
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    harness = openHarness(workdir, model, { store });
    const refused = await harness.call({ agents: [{ id: "scout", prompt: "Look." }], colour: "red" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("Agent could not read its subagent store. No subagents were started.");
    expect(text(refused)).toContain("1. [provision_failed] The subagent store could not be read (disk gone).");
    expect(text(refused)).toContain('2. [invalid_arguments] Unknown Agent parameter "colour"');
    expect(text(refused)).toContain("(none: the subagent store could not be read)");
    expect(refused.details).toMatchObject({ status: "rejected", agentCount: 0, roster: [] });
    expect(model.requests).toHaveLength(0);
    broken = false;
    const ran = await harness.call({ agents: [{ id: "scout", prompt: "Look." }] });
    expect(ran.isError).toBe(false);
    expect((ran.details as SubagentBatchDetails).agents[0]).toMatchObject({ id: "scout", status: "completed" });
  }, 60_000);

  it("runs at most 4 Bash executions at once across children", async () => {
    const workdir = makeRepository();
    const log = path.join(path.dirname(workdir), "bash-spans.log");
    const model = modelOf((_request, agent, turn) =>
      turn === 0
        ? {
            toolCalls: [
              { name: "Bash", arguments: { command: `echo "start $(date +%s%N) ${agent}" >> ${log}; sleep 0.5; echo "end $(date +%s%N) ${agent}" >> ${log}` } },
            ],
          }
        : "slept",
    );
    harness = openHarness(workdir, model);
    const agents = Array.from({ length: 6 }, (_, index) => ({ id: `sleeper-${index}`, prompt: "Sleep.", mode: "worktree", apply_policy: "none" }));
    const result = await harness.call({ agents });
    expect((result.details as SubagentBatchDetails).agents.every((agent) => agent.status === "completed")).toBe(true);
    const events = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" "))
      .map(([kind, at]) => ({ delta: kind === "start" ? 1 : -1, at: BigInt(at!) }))
      .sort((left, right) => (left.at < right.at ? -1 : left.at > right.at ? 1 : left.delta - right.delta));
    let running = 0;
    let peak = 0;
    for (const event of events) {
      running += event.delta;
      peak = Math.max(peak, running);
    }
    expect(events).toHaveLength(12);
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

function text(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? "").join("\n");
}

describe("the parent's view", () => {
  it("lists the roster in the Agent description after a call, and gives the parent a bus snapshot then deltas", async () => {
    const workdir = makeRepository();
    const model = modelOf((_request, agent, turn) =>
      turn === 0
        ? { toolCalls: [{ name: "SendMessage", arguments: { to: "parent", message: `note from ${agent}`, channel: "question" } }] }
        : `finished ${agent}`,
    );
    harness = openHarness(workdir, model);
    const before = harness.registry.tools.find((tool) => tool.name === "Agent")!.description;
    expect(before).not.toContain("scout");
    const empty = await harness.bundle.parentBus.snapshot();
    expect(empty.rosterStable).toBe("");
    await harness.call({ agents: [{ id: "scout", prompt: "Ask the parent." }] });
    const after = harness.registry.tools.find((tool) => tool.name === "Agent")!.description;
    expect(after).toContain("scout");
    expect(after).toContain("finished scout");
    const delta = await harness.bundle.parentBus.delta();
    expect(delta).toContain("note from scout");
    expect(await harness.bundle.parentBus.delta()).toBe(""); // delivered once
    const snapshot = await harness.bundle.parentBus.snapshot();
    expect(snapshot.bus).toContain("note from scout");
    expect(snapshot.rosterStable).toContain("scout");
    expect(harness.bundle.parentBus.cursor).toBe(1);
  }, 60_000);
});

describe("templates", () => {
  it("offers only the first enabled template, by id or name, and puts its prompt in the child's instructions", async () => {
    const workdir = makeRepository();
    const systems: string[] = [];
    const model = modelOf((request) => {
      systems.push(String(request.messages[0]?.content));
      return "ok";
    });
    harness = openHarness(workdir, model, {
      templates: [
        { id: "reviewer", name: "Code Reviewer", description: "Reviews diffs", prompt: "Review with care.", enabled: true },
        { id: "second", name: "Second", description: "Also enabled", prompt: "Second prompt.", enabled: true },
      ],
    });
    const used = await harness.call({ agents: [{ id: "r1", prompt: "Review.", template: "code reviewer" }] });
    expect(used.isError).toBe(false);
    expect(systems[0]).toContain("Review with care.");
    expect((used.details as SubagentBatchDetails).agents[0]).toMatchObject({ name: "Code Reviewer", role: "Reviews diffs", templateId: "reviewer" });
    const refused = await harness.call({ agents: [{ id: "r2", prompt: "Review.", template: "second" }] });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("[unknown_template]");
  }, 60_000);
});
