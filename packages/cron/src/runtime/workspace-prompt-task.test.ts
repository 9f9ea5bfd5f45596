import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { afterAll, describe, expect, it } from "vitest";
import { testTask } from "../__fixtures__/cron-test-tasks.js";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import { type PromptRunPlacement, runPromptTask } from "./prompt-task-runner.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-ws-prompt-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** The policy a registry on `workspace` at /srv/app records, with a write root /srv/shared and a root outside the workspace's root. */
function policyOn(workspace: Workspace): CronTaskPolicy {
  return {
    workspace: "/srv/app",
    roots: [
      { alias: "shared", path: "/srv/shared", access: "write" },
      { alias: "moved", path: "/srv/moved", access: "write" },
      { alias: "docs", path: "/srv/docs", access: "read" },
    ],
    allowedPrivateNetworks: [],
    workspaceLabel: workspace.label,
  };
}

/** A cron-scope registry over the fs tools; on `workspace` when given, else on this host's disk. */
function fsRegistry(workdir: string, workspace?: Workspace): ToolRegistry {
  return createToolRegistry({
    workdir,
    runtimeScope: "cron",
    dataDir: path.join(temporary, ".data"),
    bundles: [createFsToolBundle({ ripgrepPath: false })],
    loopBreaker: false,
    ...(workspace === undefined ? {} : { ports: { workspace } }),
  });
}

describe("runPromptTask: a task recorded on a non-local workspace", () => {
  it("hands the builder the workspace of the task's label and the roots still live there; the model's Write lands in the workspace", async () => {
    const workspace = createMemoryWorkspace({ root: "/srv", symlinks: { "/srv/moved": "/elsewhere" } });
    for (const dir of ["/srv/app/jobs", "/srv/shared", "/srv/docs", "/elsewhere"]) await workspace.fs.mkdir(dir, { recursive: true });
    const seen: Array<{ workdir: string; placement: PromptRunPlacement | undefined }> = [];
    const model = new ScriptedModelClient([{ toolCalls: [{ name: "Write", arguments: { path: "out.txt", content: "from cron\n" } }] }, "Written."]);
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "Write out.txt", workdir: "/srv/app/jobs", policy: policyOn(workspace) }), {
      model,
      workspaces: [createMemoryWorkspace({ root: "/other" }), workspace],
      buildPromptRegistry: async (workdir, _task, placement) => {
        seen.push({ workdir, placement });
        return fsRegistry(workdir, placement?.workspace);
      },
    });
    expect(outcome).toMatchObject({ success: true, output: "Written.\nTool calls: 1 (Write x1)." });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.workdir).toBe("/srv/app/jobs");
    expect(seen[0]?.placement?.workspace).toBe(workspace);
    // /srv/moved now resolves elsewhere: it counts for nothing.
    expect(seen[0]?.placement?.liveRoots).toEqual({ writable: ["/srv/app", "/srv/shared"], readOnly: ["/srv/docs"] });
    expect((await workspace.fs.readFile("/srv/app/jobs/out.txt")).toString("utf8")).toBe("from cron\n");
    expect(fs.existsSync("/srv/app/jobs/out.txt")).toBe(false);
  });

  it("refuses the run when the builder ignores the placement (a registry on this host's disk), before the model is asked", async () => {
    const workspace = createMemoryWorkspace({ root: "/srv" });
    await workspace.fs.mkdir("/srv/app", { recursive: true });
    let closed = false;
    const model = new ScriptedModelClient([{ toolCalls: [{ name: "Write", arguments: { path: "out.txt", content: "x" } }] }, "done"]);
    const outcome = await runPromptTask(testTask({ type: "prompt", prompt: "p", workdir: "/srv/app", policy: policyOn(workspace) }), {
      model,
      workspaces: [workspace],
      buildPromptRegistry: async () => {
        const registry = fsRegistry(temporary);
        const close = registry.close.bind(registry);
        return Object.assign(Object.create(registry) as ToolRegistry, {
          workdir: "/srv/app",
          close: async () => {
            closed = true;
            await close();
          },
        });
      },
    });
    expect(outcome.success).toBe(false);
    expect(outcome.output).toContain(`its tool registry was not built on the workspace ${workspace.label} the task belongs to`);
    expect(model.requests).toHaveLength(0);
    expect(closed).toBe(true);
    expect(fs.readdirSync(temporary).filter((name) => name !== ".data")).toEqual([]);
  });

  it("fails without building anything when the scheduler has no workspace of the label, and disables the task whose workdir is outside the workspace's root", async () => {
    const workspace = createMemoryWorkspace({ root: "/srv/app" });
    await workspace.fs.mkdir("/srv/app", { recursive: true });
    let built = 0;
    const build = async (workdir: string) => {
      built += 1;
      return fsRegistry(workdir, workspace);
    };
    const model = new ScriptedModelClient(["never"]);
    const task = testTask({ type: "prompt", prompt: "p", workdir: "/srv/app", policy: { ...policyOn(workspace), workspace: "/srv" } });
    const absent = await runPromptTask(task, { model, buildPromptRegistry: build });
    expect(absent).toMatchObject({ success: false });
    expect(absent.disableTask).toBeUndefined();
    expect(absent.output).toContain(`it belongs to the workspace ${workspace.label}, and this scheduler was not given it`);

    const outsideRoot = await runPromptTask({ ...task, workdir: "/srv" }, { model, buildPromptRegistry: build, workspaces: [workspace] });
    expect(outsideRoot).toMatchObject({ success: false, disableTask: true });
    expect(outsideRoot.output).toContain(`The working directory /srv of task ${task.id} is outside the root /srv/app of the workspace ${workspace.label}`);
    expect(built).toBe(0);
    expect(model.requests).toHaveLength(0);
  });
});
