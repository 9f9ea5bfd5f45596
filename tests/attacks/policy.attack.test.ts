/**
 * Attacks on the registry's policies (issue 29: items 9, 11 and 12), made as
 * a model (or a careless host configuration) would make them, through
 * `executeToolCall` on registries of `buildBuiltinToolRegistry`, with real
 * git worktrees, real processes and real SQLite:
 *
 * - Plan mode reaches Agent: a worktree agent with `apply_policy: "auto"` is
 *   refused in plan mode (set at build time or later), nothing is applied,
 *   and a direct write call is refused too.
 * - A readonly agent borrows none of the parent's session state: no
 *   ProcessWait/ProcessStop on the parent's Bash sessions, no task tools; a
 *   worktree agent gets no ManagedProcess (whose processes it would share
 *   with the parent) and finds none of the parent's sessions.
 * - Approval rules with a misspelt or wrongly cased key, or an invalid value,
 *   make the build fail with the closest name instead of letting the tool run.
 * - TaskCreate refuses multi-megabyte fields; the stored list stays small.
 * - The memory quota (500 per scope) holds under 8 registries writing at once
 *   over separate SQLite connections.
 *
 * `ATTACK_ROUNDS` (default 2) sets how many rounds the quota race runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ModelRequest, type ToolResult, toolResultText } from "../../packages/core/src/index.js";
import type { ScriptedModelResponse } from "../../packages/core/src/testing/index.js";
import { ScriptedModelClient } from "../../packages/core/src/testing/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { createCommittedRepository } from "../../packages/sdk/src/__fixtures__/committed-repository.js";
import { type Storage, openSqliteStorage } from "../../packages/storage/src/index.js";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 2));

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-policy-attack-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
const fresh = (name: string) => fs.mkdtempSync(path.join(temporary, `${name}-${(counter += 1)}-`));
const text = (result: ToolResult) => toolResultText(result, "");

/** The agent id a child's request belongs to (its system prompt names it). */
const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;

/** A child model that makes `calls` on its first turn and then reports; records every request by agent. */
function childModel(calls: (agent: string) => ScriptedModelResponse) {
  const requests: Record<string, ModelRequest[]> = {};
  const model = new ScriptedModelClient({
    respond: (request): ScriptedModelResponse | string => {
      const agent = agentOf(request);
      (requests[agent] ??= []).push(request);
      return turnOf(request) > 0 ? `done ${agent}` : calls(agent);
    },
  });
  /** What the child's tools answered, in order. */
  const toolResults = (agent: string) =>
    (requests[agent] ?? []).flatMap((request) => request.messages.filter((message) => message.role === "tool").map((message) => String(message.content)));
  const toolsOffered = (agent: string) => (requests[agent]?.[0]?.tools ?? []).map((tool) => tool.name);
  return { model, toolResults, toolsOffered };
}

async function withRegistry<T>(options: Parameters<typeof buildBuiltinToolRegistry>[0], use: (registry: BuiltinToolRegistry) => Promise<T>): Promise<T> {
  const registry = await buildBuiltinToolRegistry(options);
  try {
    return await use(registry);
  } finally {
    await registry.close();
  }
}

describe("plan mode reaches Agent", () => {
  const worktreeWriter = () =>
    childModel(() => ({
      toolCalls: [
        { name: "Write", arguments: { path: "src/a.ts", content: "export const a = 666;\n" } },
        { name: "Bash", arguments: { command: "printf pwned > pwned.txt" } },
      ],
    }));
  const worktreeAgent = { agents: [{ id: "writer", prompt: "Set a to 666.", mode: "worktree", apply_policy: "auto" }] };

  for (const how of ["at build time", "by setPlanMode later"] as const) {
    it(`refuses a worktree agent with apply_policy auto when plan mode is on ${how}; the workspace stays as it was`, async () => {
      const workdir = createCommittedRepository(fresh("plan"), "repo", { "src/a.ts": "export const a = 1;\n" });
      const { model, toolResults } = worktreeWriter();
      await withRegistry(
        { workdir, dataDir: fresh("plan-data"), interaction: { planMode: how === "at build time" }, subagents: { model, conversationId: "plan-chat" } },
        async (registry) => {
          if (how !== "at build time") registry.setPlanMode(true);
          const result = await registry.executeToolCall({ id: "agent_1", name: "Agent", arguments: worktreeAgent });
          expect(result.isError).toBe(true);
          expect(result.details).toMatchObject({ status: "rejected", agentCount: 0 });
          expect(text(result)).toContain("not available in plan mode");
          expect(toolResults("writer")).toEqual([]);
          // Plan mode refuses the parent's own write calls as well.
          const write = await registry.executeToolCall({ id: "w", name: "Write", arguments: { path: "src/a.ts", content: "x" } });
          expect(write).toMatchObject({ isError: true, details: { code: "permission_denied", planMode: true } });
        },
      );
      expect(fs.readFileSync(path.join(workdir, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
      expect(fs.existsSync(path.join(workdir, "pwned.txt"))).toBe(false);
    }, 120_000);
  }

  it("starts an agent without a mode as readonly in plan mode: it cannot write either", async () => {
    const workdir = createCommittedRepository(fresh("plan-readonly"), "repo", { "src/a.ts": "export const a = 1;\n" });
    const { model, toolResults, toolsOffered } = worktreeWriter();
    await withRegistry(
      { workdir, dataDir: fresh("plan-readonly-data"), interaction: { planMode: true }, subagents: { model, conversationId: "plan-ro" } },
      async (registry) => {
        const result = await registry.executeToolCall({ id: "agent_1", name: "Agent", arguments: { agents: [{ id: "writer", prompt: "Set a to 666." }] } });
        expect(result.isError).toBe(false);
        expect(toolsOffered("writer")).not.toContain("Write");
        expect(toolResults("writer")).toEqual([
          expect.stringContaining("Tool Write is not available to delegated subagents in mode=readonly"),
          expect.stringContaining("Tool Bash is not available to delegated subagents in mode=readonly"),
        ]);
      },
    );
    expect(fs.readFileSync(path.join(workdir, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
  }, 120_000);
});

describe("agents reach none of the parent's session state", () => {
  it("a readonly agent cannot read or stop the parent's Bash session, nor see its task list", async () => {
    const workdir = createCommittedRepository(fresh("reach"), "repo", { "README.md": "# demo\n" });
    let sessionId = "";
    const { model, toolResults, toolsOffered } = childModel(() => ({
      toolCalls: [
        { name: "ProcessWait", arguments: { session_id: sessionId, yield_time_ms: 5_000 } },
        { name: "ProcessStop", arguments: { session_id: sessionId } },
        { name: "TaskList", arguments: {} },
        { name: "TaskCreate", arguments: { subject: "Injected", description: "by a child", activeForm: "Injecting" } },
      ],
    }));
    await withRegistry({ workdir, dataDir: fresh("reach-data"), subagents: { model, conversationId: "reach-chat" } }, async (registry) => {
      const bash = await registry.executeToolCall({
        id: "bash_1",
        name: "Bash",
        arguments: { command: "printf 'parent-secret-%s\\n' 4242; sleep 30", yield_time_ms: 1_000 },
      });
      expect(bash.isError).toBe(false);
      sessionId = (bash.details as { session_id: string }).session_id;
      expect(sessionId).toMatch(/^bash-/);
      await registry.executeToolCall({
        id: "task_1",
        name: "TaskCreate",
        arguments: { subject: "Plan 5151", description: "secret plan 5151", activeForm: "Planning" },
      });

      const result = await registry.executeToolCall({ id: "agent_1", name: "Agent", arguments: { agents: [{ id: "snoop", prompt: "Look around." }] } });
      expect(result.isError).toBe(false);
      for (const name of ["ProcessWait", "ProcessStop", "TaskList", "TaskCreate", "TaskUpdate", "Bash"]) expect(toolsOffered("snoop")).not.toContain(name);
      const seen = toolResults("snoop");
      expect(seen).toHaveLength(4);
      for (const answer of seen) {
        expect(answer).toContain("is not available to delegated subagents in mode=readonly");
        expect(answer).not.toContain("4242");
        expect(answer).not.toContain("5151");
      }
      // The child neither read nor stopped the parent's session: the parent stops it now, its output unread.
      const stop = await registry.executeToolCall({ id: "stop_1", name: "ProcessStop", arguments: { session_id: sessionId } });
      expect(stop.isError).toBe(false);
      expect(text(stop)).toContain("parent-secret-4242");
      expect((stop.details as { status: string }).status).toBe("cancelled");
      const list = await registry.executeToolCall({ id: "list_1", name: "TaskList", arguments: {} });
      expect(text(list)).not.toContain("Injected");
    });
  }, 120_000);

  it("a worktree agent finds none of the parent's Bash sessions and gets no ManagedProcess", async () => {
    const workdir = createCommittedRepository(fresh("reach-wt"), "repo", { "README.md": "# demo\n" });
    let sessionId = "";
    let processId = "";
    const { model, toolResults, toolsOffered } = childModel(() => ({
      toolCalls: [
        { name: "ProcessWait", arguments: { session_id: sessionId, yield_time_ms: 5_000 } },
        { name: "ManagedProcess", arguments: { action: "status" } },
        { name: "ManagedProcess", arguments: { action: "stop", process_id: processId } },
      ],
    }));
    await withRegistry({ workdir, dataDir: fresh("reach-wt-data"), subagents: { model, conversationId: "reach-wt-chat" } }, async (registry) => {
      const bash = await registry.executeToolCall({
        id: "bash_1",
        name: "Bash",
        arguments: { command: "printf 'parent-secret-%s\\n' 4343; sleep 30", yield_time_ms: 1_000 },
      });
      sessionId = (bash.details as { session_id: string }).session_id;
      const managed = await registry.executeToolCall({
        id: "mp_1",
        name: "ManagedProcess",
        arguments: { action: "start", command: "sleep 30", label: "parent-server" },
      });
      expect(managed.isError).toBe(false);
      processId = (managed.details as { process: { process_id: string } }).process.process_id;

      const result = await registry.executeToolCall({
        id: "agent_1",
        name: "Agent",
        arguments: { agents: [{ id: "builder", prompt: "Build.", mode: "worktree", apply_policy: "none" }] },
      });
      expect((result.details as { agents: { status: string }[] }).agents[0]?.status).toBe("completed");
      expect(toolsOffered("builder")).toEqual(expect.arrayContaining(["Bash", "ProcessWait", "ProcessStop"]));
      expect(toolsOffered("builder")).not.toContain("ManagedProcess");
      const [wait, status, stop] = toolResults("builder");
      expect(wait).not.toContain("4343");
      expect(wait).toMatch(/not found|unknown|no session/i);
      for (const answer of [status, stop]) {
        expect(answer).toContain("Tool ManagedProcess is not available to delegated subagents in mode=worktree");
        expect(answer).not.toContain(processId);
      }
      const after = await registry.executeToolCall({ id: "mp_2", name: "ManagedProcess", arguments: { action: "status", process_id: processId } });
      expect(text(after)).toContain("running");
      await registry.executeToolCall({ id: "mp_3", name: "ManagedProcess", arguments: { action: "stop", process_id: processId } });
      await registry.executeToolCall({ id: "stop_1", name: "ProcessStop", arguments: { session_id: sessionId } });
    });
  }, 120_000);
});

describe("approval rules fail closed", () => {
  it.each(["bash", "Bsh", "BASH", " Bash"])(
    "refuses the rule key %j when the registry is built, suggesting Bash (the tool never runs unchecked)",
    async (key) => {
      const workdir = fresh("approval");
      await expect(buildBuiltinToolRegistry({ workdir, dataDir: fresh("approval-data"), approval: { policies: { [key]: "deny" } } })).rejects.toMatchObject({
        name: "SdkError",
        code: "invalid_options",
        details: { key, suggestion: "Bash" },
      });
      expect(fs.readdirSync(workdir)).toEqual([]);
    },
  );

  it.each(["Deny", "block", "no", ""])("refuses the value %j instead of treating it as ask", async (value) => {
    let asked = 0;
    const attempt = buildBuiltinToolRegistry({
      workdir: fresh("approval-value"),
      dataDir: fresh("approval-value-data"),
      approval: { policies: { Bash: value as "deny" }, onAsk: () => (asked += 1) > 0 },
    });
    await expect(attempt).rejects.toMatchObject({ name: "SdkError", code: "invalid_options" });
    await expect(attempt).rejects.toThrow(/must be exactly "allow", "ask" or "deny"/);
    expect(asked).toBe(0);
  });

  it("applies an exact rule: Bash denied does not run", async () => {
    const workdir = fresh("approval-exact");
    await withRegistry({ workdir, dataDir: fresh("approval-exact-data"), approval: { policies: { Bash: "deny" } } }, async (registry) => {
      const result = await registry.executeToolCall({ id: "1", name: "bash", arguments: { command: "touch ran.txt" } });
      expect(result).toMatchObject({ isError: true, details: { code: "permission_denied" } });
    });
    expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
  });

  it("checks server: rules against the configured MCP servers; a configured server's tools may be named before it connects", async () => {
    const mcp = { getSettings: () => ({ servers: [{ id: "later", command: "node", args: ["server.js"], enabled: false }], selected: [] }) };
    const build = (policies: Record<string, "deny">) =>
      buildBuiltinToolRegistry({ workdir: fresh("mcp"), dataDir: fresh("mcp-data"), mcp, approval: { policies } });
    await expect(build({ "server:Later": "deny" })).rejects.toMatchObject({ code: "invalid_options", details: { suggestion: "server:later" } });
    await expect(build({ "server:nowhere": "deny" })).rejects.toThrow(/names no MCP server/);
    await expect(build({ mcp_unknown_tool: "deny" })).rejects.toThrow(/names no tool/);
    const registry = await build({ "server:later": "deny", mcp_later_create_issue: "deny" });
    await registry.close();
  });
});

describe("TaskCreate field sizes", () => {
  it("refuses ten calls with 5 MB fields, naming the limit; the stored list and the SQLite file stay small", async () => {
    const dataDir = fresh("tasks-data");
    const huge = "x".repeat(5_000_000);
    await withRegistry({ workdir: fresh("tasks"), dataDir, memory: false }, async (registry) => {
      for (let index = 0; index < 10; index += 1) {
        const field = (["subject", "description", "activeForm"] as const)[index % 3]!;
        const result = await registry.executeToolCall({
          id: `t${index}`,
          name: "TaskCreate",
          arguments: { subject: "Plan", description: "Plan it", activeForm: "Planning", [field]: huge },
        });
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(new RegExp(`\`${field}\` must have at most \\d+ character\\(s\\)`));
        expect(text(result).length).toBeLessThan(1_000);
      }
      expect(
        (await registry.executeToolCall({ id: "ok", name: "TaskCreate", arguments: { subject: "Plan", description: "Plan it", activeForm: "Planning" } }))
          .isError,
      ).toBe(false);
      expect(JSON.parse(text(await registry.executeToolCall({ id: "list", name: "TaskList", arguments: {} })).replace(/^[^{]*/, "")).tasks).toHaveLength(1);
    });
    const bytes = fs
      .readdirSync(dataDir)
      .filter((name) => name.startsWith("agent-tools.sqlite"))
      .reduce((sum, name) => sum + fs.statSync(path.join(dataDir, name)).size, 0);
    expect(bytes).toBeLessThan(2_000_000);
  }, 60_000);
});

describe("the memory quota under concurrent registries", () => {
  const QUOTA = 500;
  const WRITERS = 8;

  it(`never passes ${QUOTA} global entries when ${WRITERS} registries on separate SQLite connections write at the edge`, async () => {
    const dataDir = fresh("quota-data");
    const globalDirectory = path.join(dataDir, "memory", "global");
    fs.mkdirSync(globalDirectory, { recursive: true });
    // The edge: four short of the quota, as hand-written files the first open indexes.
    for (let index = 0; index < QUOTA - 4; index += 1) {
      fs.writeFileSync(path.join(globalDirectory, `prefill-${index}.md`), `---\ntype: "reference"\ndescription: "Prefill ${index}"\n---\nbody ${index}`);
    }
    const workdir = fresh("quota");
    const filename = path.join(dataDir, "memory-index.sqlite");
    const storages: Storage[] = [];
    const registries: BuiltinToolRegistry[] = [];
    try {
      for (let index = 0; index < WRITERS; index += 1) {
        const storage = await openSqliteStorage({ filename });
        storages.push(storage);
        registries.push(await buildBuiltinToolRegistry({ workdir, dataDir, memory: { storage } }));
        // One at a time: each registry's first call reconciles the index.
        await registries[index]!.executeToolCall({ id: `open-${index}`, name: "MemoryManager", arguments: { action: "list", scope: "global", limit: 1 } });
      }
      const total = async () =>
        (
          (await registries[0]!.executeToolCall({ id: "count", name: "MemoryManager", arguments: { action: "list", scope: "global", limit: 1 } })).details as {
            total: number;
          }
        ).total;
      expect(await total()).toBe(QUOTA - 4);
      for (let round = 0; round < ROUNDS; round += 1) {
        if (round > 0) {
          // Make room for four again.
          for (let index = 0; index < 4; index += 1) {
            const removed = await registries[index]!.executeToolCall({
              id: `rm-${round}-${index}`,
              name: "MemoryManager",
              arguments: { action: "delete", slug: `prefill-${round * 4 + index}`, scope: "global" },
            });
            expect(removed.isError).toBe(false);
          }
        }
        const results = await Promise.all(
          registries.flatMap((registry, writer) =>
            [0, 1, 2].map((n) =>
              registry.executeToolCall({
                id: `w-${round}-${writer}-${n}`,
                name: "MemoryManager",
                arguments: {
                  action: "write",
                  slug: `race-${round}-${writer}-${n}`,
                  scope: "global",
                  type: "reference",
                  description: "Raced entry",
                  body: "raced",
                },
              }),
            ),
          ),
        );
        const refused = results.filter((result) => result.isError);
        expect(refused.every((result) => text(result).includes("quota_exceeded"))).toBe(true);
        expect(results.length - refused.length).toBe(4);
        expect(await total()).toBe(QUOTA);
        expect(fs.readdirSync(globalDirectory).filter((name) => name.endsWith(".md"))).toHaveLength(QUOTA);
      }
    } finally {
      await Promise.all(registries.map((registry) => registry.close()));
      await Promise.all(storages.map((storage) => storage.close()));
    }
  }, 120_000);
});
