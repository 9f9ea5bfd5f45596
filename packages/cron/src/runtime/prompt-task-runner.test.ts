import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { afterAll, describe, expect, it } from "vitest";
import { testPolicy, testTask } from "../__fixtures__/cron-test-tasks.js";
import { runPromptTask } from "./prompt-task-runner.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-prompt-"));
fs.writeFileSync(path.join(temporary, "notes.txt"), "the answer is 42\n");
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A cron-scope registry over the fs tools that records its workdir and whether it was closed. */
function registryFactory() {
  const built: Array<{ workdir: string; closed: boolean; registry: ToolRegistry }> = [];
  const build = async (workdir: string) => {
    const registry = createToolRegistry({
      workdir,
      runtimeScope: "cron",
      dataDir: path.join(temporary, ".data"),
      bundles: [createFsToolBundle({ ripgrepPath: false })],
      loopBreaker: false,
    });
    const entry = { workdir, closed: false, registry };
    built.push(entry);
    const close = registry.close.bind(registry);
    return Object.assign(Object.create(registry) as ToolRegistry, {
      close: async () => {
        entry.closed = true;
        await close();
      },
    });
  };
  return { built, build };
}

describe("runPromptTask", () => {
  it("runs the tool loop: the model reads a file through the cron registry, then answers; output = answer + tool summary", async () => {
    const { built, build } = registryFactory();
    const model = new ScriptedModelClient([
      { toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }] },
      { toolCalls: [{ name: "Read", arguments: { path: "missing.txt" } }] },
      "The notes say the answer is 42.",
    ]);
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "What do the notes say?", workdir: temporary, reasoning: "medium" }), {
      model,
      buildPromptRegistry: build,
    });
    expect(outcome.success).toBe(true);
    expect(outcome.output).toBe("The notes say the answer is 42.\nTool calls: 2 (Read x2), 1 failed.");
    expect(built).toHaveLength(1);
    expect(built[0]?.workdir).toBe(temporary);
    expect(built[0]?.closed).toBe(true);
    expect(built[0]?.registry.runtimeScope).toBe("cron");
    // The model saw the tools, the prompt, and the file's content as a tool result.
    const first = model.requests[0]!;
    expect(first.tools?.some((tool) => tool.name === "Read")).toBe(true);
    // Every turn asks for the task's reasoning effort.
    expect(model.requests.map((request) => request.reasoning)).toEqual(["medium", "medium", "medium"]);
    expect(first.messages.at(-1)).toEqual({ role: "user", content: "What do the notes say?" });
    const toolMessage = model.requests[1]!.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: "tool", toolName: "Read" });
    expect((toolMessage as { content: string }).content).toContain("the answer is 42");
    expect(model.requests[2]!.messages.at(-1)).toMatchObject({ role: "tool", isError: true });
  });

  it("fails after the round limit without a final answer", async () => {
    const { built, build } = registryFactory();
    const model = new ScriptedModelClient({ respond: () => ({ toolCalls: [{ name: "List", arguments: {} }] }) });
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "loop", workdir: temporary }), { model, buildPromptRegistry: build, maxRounds: 3 });
    expect(outcome.success).toBe(false);
    expect(model.requests).toHaveLength(3);
    expect(outcome.output).toContain("Stopped after 3 model rounds");
    expect(outcome.output).toContain("Tool calls: 3 (List x3).");
    expect(built[0]?.closed).toBe(true);
  });

  it("stops the default loop at 20 rounds", async () => {
    const { build } = registryFactory();
    const model = new ScriptedModelClient({ respond: () => ({ toolCalls: [{ name: "List", arguments: {} }] }) });
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "loop", workdir: temporary }), { model, buildPromptRegistry: build });
    expect(outcome.success).toBe(false);
    expect(model.requests).toHaveLength(20);
  });

  it("times out a model that hangs and closes the registry", async () => {
    const { built, build } = registryFactory();
    const model = new ScriptedModelClient({ respond: () => new Promise(() => undefined) });
    const started = Date.now();
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "hang", workdir: temporary, timeoutSeconds: 1 }), {
      model,
      buildPromptRegistry: build,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.success).toBe(false);
    expect(outcome.output).toContain("Timed out after 1 s");
    expect(built[0]?.closed).toBe(true);
  });

  it("reports a model failure and a registry that cannot be built", async () => {
    const { build } = registryFactory();
    const failing = new ScriptedModelClient([{ error: new Error("provider said 503") }]);
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "x", workdir: temporary }), { model: failing, buildPromptRegistry: build });
    expect(outcome.success).toBe(false);
    expect(outcome.output).toContain("The model failed: provider said 503");

    const broken = await runPromptTask(testTask({ type: "prompt", prompt: "x", workdir: temporary }), {
      model: new ScriptedModelClient(["unused"]),
      buildPromptRegistry: async () => {
        throw new Error("MCP server docs failed to start");
      },
    });
    expect(broken.success).toBe(false);
    expect(broken.output).toContain("The tools of the run could not be loaded: MCP server docs failed to start");
  });

  it("fails and asks to disable the task when the workdir is missing, without building a registry", async () => {
    const { built, build } = registryFactory();
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "x", workdir: path.join(temporary, "gone") }), {
      model: new ScriptedModelClient(["unused"]),
      buildPromptRegistry: build,
    });
    expect(outcome).toMatchObject({ success: false, disableTask: true });
    expect(built).toHaveLength(0);
  });

  it("refuses a task without a recorded policy or with a workdir outside its writable roots, without building a registry", async () => {
    const { built, build } = registryFactory();
    const model = new ScriptedModelClient(["unused"]);
    const legacy = await runPromptTask(testTask({ type: "prompt", prompt: "x", workdir: temporary, policy: undefined }), { model, buildPromptRegistry: build });
    expect(legacy).toMatchObject({ success: false, disableTask: true });
    expect(legacy.output).toMatch(/no record of the roots, sandbox and network/);
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(temporary, "workspace-")));
    const outside = await runPromptTask(testTask({ type: "prompt", prompt: "x", workdir: "/", policy: testPolicy(workspace) }), {
      model,
      buildPromptRegistry: build,
    });
    expect(outside).toMatchObject({ success: false, disableTask: true });
    expect(outside.output).toContain(
      `The working directory / of task cron_test is outside the directories the registry that created the task may write: the workspace ${workspace}`,
    );
    expect(built).toHaveLength(0);
  });

  it("builds the run's registry on the canonical workdir and hands it the task (its policy)", async () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(temporary, "workspace-")));
    fs.mkdirSync(path.join(workspace, "real"));
    fs.symlinkSync(path.join(workspace, "real"), path.join(workspace, "link"));
    const seen: Array<{ workdir: string; policy: unknown }> = [];
    const { build } = registryFactory();
    const task = testTask({ type: "prompt", prompt: "x", workdir: path.join(workspace, "link"), policy: testPolicy(workspace) });
    const outcome = await runPromptTask(task, {
      model: new ScriptedModelClient(["done"]),
      buildPromptRegistry: async (workdir, given) => {
        seen.push({ workdir, policy: given.policy });
        return build(workdir);
      },
    });
    expect(outcome.success).toBe(true);
    expect(seen).toEqual([{ workdir: path.join(workspace, "real"), policy: task.policy }]);
  });
});
