import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, toolResultText } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { buildToolRegistry } from "./build-tool-registry.js";
import { builtinToolPlugins } from "./plugins/builtin-tool-plugins.js";
import { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-edit-surface-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const workdir = path.join(temporary, "project");
fs.mkdirSync(workdir, { recursive: true });
const dataDir = path.join(temporary, "data");

/** The edit tools (and Write) a registry built with `options` lists, in the cron scope too. */
async function editToolsOf(options: Partial<BuiltinToolRegistryOptions>): Promise<{ chat: string[]; cron: string[] }> {
  const lists: string[][] = [];
  for (const runtimeScope of ["chat", "cron"] as const) {
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, runtimeScope, ...options });
    try {
      const names = registry.tools.map((tool) => tool.name);
      lists.push(names.filter((name) => ["Write", "Edit", "ApplyPatch"].includes(name)));
      for (const name of ["Write", "Edit", "ApplyPatch"]) expect(registry.hasTool(name)).toBe(names.includes(name));
    } finally {
      await registry.close();
    }
  }
  return { chat: lists[0]!, cron: lists[1]! };
}

/** The SdkError a build with `options` rejects with (fails the test when it builds). */
async function rejection(options: Record<string, unknown>): Promise<SdkError> {
  const error = await buildBuiltinToolRegistry({ workdir, dataDir, ...options } as BuiltinToolRegistryOptions).then(
    async (registry) => {
      await registry.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  expect(error, `${JSON.stringify(options)} built`).toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe("invalid_options");
  return error as SdkError;
}

describe("buildBuiltinToolRegistry: the edit surface", () => {
  it("lists Edit and not ApplyPatch without a model, and by the table for one", async () => {
    const edit = { chat: ["Write", "Edit"], cron: ["Write", "Edit"] };
    const patch = { chat: ["Write", "ApplyPatch"], cron: ["Write", "ApplyPatch"] };
    expect(await editToolsOf({})).toEqual(edit);
    expect(await editToolsOf({ modelId: "claude-sonnet-4-5" })).toEqual(edit);
    expect(await editToolsOf({ modelId: "gemini-2.5-pro", editSurface: "auto" })).toEqual(edit);
    expect(await editToolsOf({ modelId: "gpt-5" })).toEqual(patch);
    expect(await editToolsOf({ modelId: "openai:gpt-5.1-codex-mini" })).toEqual(patch);
    expect(await editToolsOf({ modelId: "codex-mini-latest" })).toEqual(patch);
  });

  it("follows each explicit value whatever the model, and the host's table before the default one", async () => {
    expect(await editToolsOf({ editSurface: "apply_patch", modelId: "claude-sonnet-4-5" })).toEqual({
      chat: ["Write", "ApplyPatch"],
      cron: ["Write", "ApplyPatch"],
    });
    expect(await editToolsOf({ editSurface: "edit", modelId: "gpt-5-codex" })).toEqual({ chat: ["Write", "Edit"], cron: ["Write", "Edit"] });
    expect(await editToolsOf({ editSurface: "both" })).toEqual({ chat: ["Write", "Edit", "ApplyPatch"], cron: ["Write", "Edit", "ApplyPatch"] });
    const editSurfaceByModel = [
      { model: "gpt-5-mini", surface: "edit" as const },
      { model: /^claude-/, surface: "both" as const },
    ];
    expect((await editToolsOf({ modelId: "gpt-5-mini", editSurfaceByModel })).chat).toEqual(["Write", "Edit"]);
    expect((await editToolsOf({ modelId: "claude-opus-4-1", editSurfaceByModel })).chat).toEqual(["Write", "Edit", "ApplyPatch"]);
    expect((await editToolsOf({ modelId: "gpt-5", editSurfaceByModel })).chat).toEqual(["Write", "ApplyPatch"]);
  });

  it("refuses a call of the edit tool it does not list, and lists the same through builtinToolPlugins", async () => {
    const registry = await buildToolRegistry({ workdir, dataDir, plugins: builtinToolPlugins({ workdir, memory: false, modelId: "gpt-5" }) });
    try {
      expect(registry.hasTool("Edit")).toBe(false);
      fs.writeFileSync(path.join(workdir, "a.txt"), "one\n");
      await registry.executeToolCall({ id: "r", name: "Read", arguments: { path: "a.txt" } });
      const result = await registry.executeToolCall({ id: "e", name: "Edit", arguments: { path: "a.txt", old_string: "one", new_string: "two" } });
      expect(result.isError).toBe(true);
      expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("one\n");
    } finally {
      await registry.close();
    }
  });

  it("accepts approval and permission rules naming either edit tool, listed or not", async () => {
    for (const editSurface of ["edit", "apply_patch"] as const) {
      const registry = await buildBuiltinToolRegistry({
        workdir,
        dataDir,
        memory: false,
        editSurface,
        approval: { policies: { Edit: "ask", ApplyPatch: "ask" } },
        permissions: { deny: ["ApplyPatch", "Edit"] },
      });
      await registry.close();
    }
    await rejection({ approval: { policies: { ApplyPatsh: "ask" } } });
  });

  it("throws SdkError naming a wrong value before anything is built", async () => {
    const surface = await rejection({ editSurface: "apply-patch" });
    expect(surface.details).toEqual({ option: "editSurface", suggestion: "apply_patch" });
    expect((await rejection({ modelId: new ScriptedModelClient({ respond: () => "x" }) })).details).toEqual({ option: "modelId" });
    const entry = await rejection({ editSurfaceByModel: [{ model: "gpt-5", surface: "patch" }] });
    expect(entry.details).toMatchObject({ option: "editSurfaceByModel[0].surface" });
    expect((await rejection({ editSurfce: "edit" })).details).toEqual({ option: "editSurfce", suggestion: "editSurface" });
    expect((await rejection({ model: "gpt-5" })).details).toMatchObject({ option: "model" });
  });

  it("gives a worktree subagent the parent's surface (ApplyPatch, no Edit) and applies its patch", async () => {
    const repository = createCommittedRepository(temporary, "subagent", { "src/a.ts": "export const a = 1;\n" });
    const patch = ["*** Begin Patch", "*** Update File: src/a.ts", "@@", "-export const a = 1;", "+export const a = 2;", "*** End Patch"].join("\n");
    let childTools: string[] = [];
    const model = new ScriptedModelClient({
      respond: (request): ScriptedModelResponse | string => {
        if (request.messages.some((message) => message.role === "assistant")) return "done";
        childTools = (request.tools ?? []).map((tool) => tool.name);
        return { toolCalls: [{ name: "ApplyPatch", arguments: { patch } }] };
      },
    });
    // The subagents' model has an id the table gives Edit: the child follows the parent's surface, not it.
    expect(model.id).not.toMatch(/gpt-5|codex/);
    const registry = await buildBuiltinToolRegistry({
      workdir: repository,
      dataDir: path.join(temporary, "subagent-data"),
      memory: false,
      modelId: "gpt-5-codex",
      subagents: { model },
    });
    try {
      const result = await registry.executeToolCall({
        id: "agent",
        name: "Agent",
        arguments: { agents: [{ id: "writer", prompt: "Set a to 2.", mode: "worktree", apply_policy: "auto" }] },
      });
      expect(result.isError).toBe(false);
      expect(childTools).toContain("ApplyPatch");
      expect(childTools).toContain("Write");
      expect(childTools).not.toContain("Edit");
      expect((result.details as SubagentBatchDetails).agents[0]).toMatchObject({ status: "completed", applyStatus: "applied", changedPaths: ["src/a.ts"] });
      expect(fs.readFileSync(path.join(repository, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("gives a cron prompt run the surface of the scheduler's model, and refuses a bad registryOptions.editSurface at start", async () => {
    const base = fs.mkdtempSync(path.join(temporary, "cron-"));
    const project = path.join(base, "project");
    fs.mkdirSync(project);
    const cronDataDir = path.join(base, "data");
    const model = new ScriptedModelClient({
      id: "openai:gpt-5",
      respond: (request) => (request.messages.some((message) => message.role === "tool") ? "done" : { toolCalls: [{ name: "List", arguments: {} }] }),
    });
    const chat = await buildBuiltinToolRegistry({ workdir: project, dataDir: cronDataDir, memory: false, cron: { currentModelId: () => model.id } });
    const created = await chat.executeToolCall({
      id: "1",
      name: "CronTaskManager",
      arguments: { action: "create", name: "tidy", cron: "* * * * * *", type: "prompt", prompt: "Tidy up.", remaining_executions: 1 },
    });
    const taskId = /task_id=(\S+)/.exec(toolResultText(created, ""))?.[1] as string;
    expect(taskId).toBeDefined();
    const scheduler = await startBuiltinCronScheduler({ dataDir: cronDataDir, model, tickMs: 100, registryOptions: { memory: false } });
    try {
      for (let waited = 0; model.requests.length === 0 && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      const offered = model.requests[0]?.tools?.map((tool) => tool.name) ?? [];
      expect(offered).toContain("ApplyPatch");
      expect(offered).not.toContain("Edit");
    } finally {
      await scheduler.stop();
      await chat.close();
    }
    const refused = await startBuiltinCronScheduler({ dataDir: cronDataDir, model, registryOptions: { editSurface: "apply-patch" as never } }).then(
      async (started) => {
        await started.stop();
        return undefined;
      },
      (error: unknown) => error as SdkError,
    );
    expect(refused).toBeInstanceOf(SdkError);
    expect(refused?.details).toEqual({ option: "registryOptions.editSurface", suggestion: "apply_patch" });
  }, 60_000);
});
