import { type Logger, type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
import type { TaskListDetails } from "./task-result.js";
import type { TaskState } from "./task-state.js";
import type { TaskStateStore } from "./task-state-store.js";
import { type TaskToolBundleOptions, createTaskToolBundle } from "./task-tool-bundle.js";

const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-task-tools-"));
afterAll(() => fs.rmSync(workdir, { recursive: true, force: true }));

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((registry) => registry.close()));
});

function warnings(): { logger: Logger; messages: string[] } {
  const messages: string[] = [];
  const ignore = () => undefined;
  return { messages, logger: { debug: ignore, info: ignore, error: ignore, warn: (message, data) => messages.push(`${message} ${JSON.stringify(data ?? {})}`) } };
}

function setup(options: TaskToolBundleOptions = {}, scope: "chat" | "cron" = "chat") {
  const store = new InMemoryTaskStateStore();
  const bundle = createTaskToolBundle({ store, ...options });
  const { logger, messages } = warnings();
  const registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), runtimeScope: scope, bundles: [bundle], logger });
  registries.push(registry);
  let id = 0;
  const call = async (name: string, args: unknown, hostContext?: unknown) => {
    const result = await registry.executeToolCall({ id: `call_${(id += 1)}`, name, arguments: args }, { hostContext });
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    return { ...result, text, details: result.details as TaskListDetails };
  };
  const stateOf = (text: string): TaskState => JSON.parse(text.slice(text.indexOf("{"))) as TaskState;
  return { store, bundle, registry, call, stateOf, warnings: messages };
}

const create = (subject: string) => ({ subject, description: `${subject} in detail`, activeForm: `${subject}ing` });

describe("task tools: schemas and availability", () => {
  it("offers the three tools in chat with stable JSON Schemas", () => {
    const { registry } = setup();
    expect(registry.tools.map((tool) => tool.name)).toEqual(["TaskCreate", "TaskUpdate", "TaskList"]);
    expect(registry.tools.map((tool) => [tool.name, tool.inputSchema])).toMatchSnapshot();
    expect(registry.metadataByName.TaskList).toMatchObject({ groupId: "task", isReadOnly: true });
    expect(registry.metadataByName.TaskCreate?.isReadOnly).toBe(false);
    expect(registry.metadataByName.TaskUpdate?.isReadOnly).toBe(false);
  });

  it("offers nothing in cron scope", async () => {
    const { registry, call } = setup({}, "cron");
    expect(registry.tools).toEqual([]);
    expect(registry.hasTool("TaskCreate")).toBe(false);
    expect((await call("TaskList", {})).isError).toBe(true);
  });
});

describe("TaskCreate", () => {
  it("creates pending tasks with numeric-string ids and reports the state", async () => {
    const { call, stateOf } = setup();
    const first = await call("TaskCreate", create("Plan"));
    expect(first.isError).toBe(false);
    expect(first.text.split("\n")[0]).toBe("Created task 1.");
    expect(stateOf(first.text)).toEqual({
      runId: "default",
      revision: 1,
      nextTaskId: 2,
      tasks: [{ id: "1", subject: "Plan", description: "Plan in detail", activeForm: "Planing", status: "pending" }],
    });
    expect(first.details).toEqual({ kind: "task_list", action: "created", runId: "default", revision: 1, tasks: stateOf(first.text).tasks, taskId: "1" });
    const second = await call("TaskCreate", JSON.stringify(create("Build")));
    expect(second.text.split("\n")[0]).toBe("Created task 2.");
    expect(stateOf(second.text).tasks.map((task) => task.id)).toEqual(["1", "2"]);
    expect(stateOf(second.text)).toMatchObject({ revision: 2, nextTaskId: 3 });
  });

  it("trims fields and refuses blank or missing ones", async () => {
    const { call, stateOf } = setup();
    const trimmed = await call("TaskCreate", { subject: "  Plan  ", description: " d ", activeForm: " a " });
    expect(stateOf(trimmed.text).tasks[0]).toMatchObject({ subject: "Plan", description: "d", activeForm: "a" });
    for (const args of [{ ...create("x"), subject: "   " }, { subject: "x", description: "y" }, { ...create("x"), activeForm: "" }]) {
      const result = await call("TaskCreate", args);
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/subject|activeForm/);
    }
    expect(stateOf((await call("TaskList", {})).text).revision).toBe(1);
  });

  it("serialises parallel creates into sequential ids", async () => {
    const { call, stateOf } = setup();
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => call("TaskCreate", create(`Task ${index}`))));
    expect(results.map((result) => result.details.taskId).sort((a, b) => Number(a) - Number(b))).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    const final = stateOf((await call("TaskList", {})).text);
    expect(final).toMatchObject({ revision: 8, nextTaskId: 9 });
    expect(final.tasks.map((task) => task.id)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  });
});

describe("TaskUpdate", () => {
  it("changes only the given fields and bumps the revision", async () => {
    const { call, stateOf } = setup();
    await call("TaskCreate", create("Plan"));
    const result = await call("TaskUpdate", { taskId: "1", status: "in_progress" });
    expect(result.isError).toBe(false);
    expect(result.text.split("\n")[0]).toBe("Updated task 1.");
    expect(stateOf(result.text)).toMatchObject({ revision: 2, nextTaskId: 2 });
    expect(stateOf(result.text).tasks[0]).toEqual({ id: "1", subject: "Plan", description: "Plan in detail", activeForm: "Planing", status: "in_progress" });
    expect(result.details).toMatchObject({ action: "updated", taskId: "1", revision: 2 });
    const renamed = await call("TaskUpdate", { taskId: "1", subject: "Plan it", activeForm: "Planning it" });
    expect(stateOf(renamed.text).tasks[0]).toMatchObject({ subject: "Plan it", activeForm: "Planning it", description: "Plan in detail", status: "in_progress" });
  });

  it("refuses a call without a list, an unknown id, no fields and an invalid status", async () => {
    const { call } = setup();
    const noList = await call("TaskUpdate", { taskId: "1", status: "completed" });
    expect(noList).toMatchObject({ isError: true, details: { code: "not_found" } });
    expect(noList.text).toContain("No task list exists for the current run");
    await call("TaskCreate", create("Plan"));
    const missing = await call("TaskUpdate", { taskId: "7", status: "completed" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("Task 7 does not exist");
    const noFields = await call("TaskUpdate", { taskId: "1" });
    expect(noFields.isError).toBe(true);
    expect(noFields.text).toContain("TaskUpdate requires at least one field to update");
    const badStatus = await call("TaskUpdate", { taskId: "1", status: "cancelled" });
    expect(badStatus.isError).toBe(true);
    expect(badStatus.text).toMatch(/status/);
  });

  it("allows at most one task in_progress", async () => {
    const { call, stateOf } = setup();
    await call("TaskCreate", create("One"));
    await call("TaskCreate", create("Two"));
    await call("TaskUpdate", { taskId: "1", status: "in_progress" });
    const second = await call("TaskUpdate", { taskId: "2", status: "in_progress" });
    expect(second).toMatchObject({ isError: true, details: { code: "conflict", inProgressTaskId: "1" } });
    expect(second.text).toContain("Another task (1) is already in_progress");
    // Re-asserting the same task is fine; after completing it, another may start.
    expect((await call("TaskUpdate", { taskId: "1", status: "in_progress" })).isError).toBe(false);
    await call("TaskUpdate", { taskId: "1", status: "completed" });
    const started = await call("TaskUpdate", { taskId: "2", status: "in_progress" });
    expect(stateOf(started.text).tasks.map((task) => task.status)).toEqual(["completed", "in_progress"]);
  });
});

describe("TaskList", () => {
  it("returns an empty state before any task and never changes the revision", async () => {
    const { call, stateOf } = setup();
    const empty = await call("TaskList", {});
    expect(empty.isError).toBe(false);
    expect(stateOf(empty.text)).toEqual({ runId: "default", revision: 0, nextTaskId: 1, tasks: [] });
    expect(empty.details).toEqual({ kind: "task_list", action: "listed", runId: "default", revision: 0, tasks: [] });
    await call("TaskCreate", create("Plan"));
    expect(stateOf((await call("TaskList", {})).text).revision).toBe(1);
    expect(stateOf((await call("TaskList", {})).text).revision).toBe(1);
  });
});

describe("persistence", () => {
  function failingStore(inner: TaskStateStore, failures: { save: boolean }): TaskStateStore {
    return {
      load: (id) => inner.load(id),
      delete: (id) => inner.delete(id),
      save: async (id, state, options) => {
        if (failures.save) throw new Error("disk full");
        return inner.save(id, state, options);
      },
    };
  }

  it("persists before applying: a failed save reports an error and the state does not advance", async () => {
    const failures = { save: false };
    const { call, stateOf } = setup({ store: failingStore(new InMemoryTaskStateStore(), failures) });
    await call("TaskCreate", create("Plan"));
    failures.save = true;
    const failedCreate = await call("TaskCreate", create("Build"));
    expect(failedCreate).toMatchObject({ isError: true, details: { code: "io" } });
    expect(failedCreate.text).toContain("Failed to persist task state.");
    const failedUpdate = await call("TaskUpdate", { taskId: "1", status: "completed" });
    expect(failedUpdate.text).toContain("Failed to persist task state.");
    failures.save = false;
    const after = stateOf((await call("TaskList", {})).text);
    expect(after).toMatchObject({ revision: 1, nextTaskId: 2 });
    expect(after.tasks[0]?.status).toBe("pending");
    // The failed create did not burn an id.
    expect((await call("TaskCreate", create("Build"))).text.split("\n")[0]).toBe("Created task 2.");
  });

  it("reports a conflict when another writer changed the list between load and save", async () => {
    const inner = new InMemoryTaskStateStore();
    let interfere = false;
    const racing: TaskStateStore = {
      load: async (id) => {
        const loaded = await inner.load(id);
        if (interfere && loaded !== undefined) {
          interfere = false;
          await inner.save(id, { ...(loaded.state as TaskState), revision: 50 }, { expectedVersion: loaded.version });
        }
        return loaded;
      },
      save: (id, state, options) => inner.save(id, state, options),
      delete: (id) => inner.delete(id),
    };
    const { call, stateOf } = setup({ store: racing });
    await call("TaskCreate", create("Plan"));
    interfere = true;
    const lost = await call("TaskCreate", create("Build"));
    expect(lost).toMatchObject({ isError: true, details: { code: "conflict" } });
    expect(stateOf((await call("TaskList", {})).text).revision).toBe(50);
  });

  it("opens a store factory on first use, retries after a failed open, and closes it with the bundle", async () => {
    let opened = 0;
    let closed = 0;
    let fail = true;
    const inner = new InMemoryTaskStateStore();
    const { call, bundle } = setup({
      store: async () => {
        opened += 1;
        if (fail) throw new Error("database offline");
        return {
          load: (id) => inner.load(id),
          save: (id, state, saveOptions) => inner.save(id, state, saveOptions),
          delete: (id) => inner.delete(id),
          close: async () => void (closed += 1),
        } satisfies TaskStateStore;
      },
    });
    expect(opened).toBe(0);
    const unavailable = await call("TaskList", {});
    expect(unavailable).toMatchObject({ isError: true, details: { code: "unavailable" } });
    expect(unavailable.text).toContain("database offline");
    fail = false;
    expect((await call("TaskCreate", create("Plan"))).isError).toBe(false);
    expect((await call("TaskList", {})).isError).toBe(false);
    expect(opened).toBe(2);
    await bundle.close?.();
    expect(closed).toBe(1);
  });

  it("never closes a store instance the host passed in", async () => {
    let closed = false;
    const store = Object.assign(new InMemoryTaskStateStore(), { close: async () => void (closed = true) });
    const { bundle, call } = setup({ store });
    await call("TaskCreate", create("Plan"));
    await bundle.close?.();
    expect(closed).toBe(false);
  });
});

describe("run scoping and corrupt state", () => {
  it("treats a list of another run as absent; a new run's first create replaces it", async () => {
    const { call, stateOf } = setup({ run: (context) => context.hostContext as { conversationId: string; runId: string } });
    const runA = { conversationId: "c1", runId: "turn-a" };
    const runB = { conversationId: "c1", runId: "turn-b" };
    await call("TaskCreate", create("Plan"), runA);
    await call("TaskCreate", create("Build"), runA);
    expect(stateOf((await call("TaskList", {}, runB)).text)).toEqual({ runId: "turn-b", revision: 0, nextTaskId: 1, tasks: [] });
    expect((await call("TaskUpdate", { taskId: "1", status: "completed" }, runB)).text).toContain("No task list exists for the current run");
    const fresh = await call("TaskCreate", create("Other"), runB);
    expect(fresh.text.split("\n")[0]).toBe("Created task 1.");
    expect(stateOf((await call("TaskList", {}, runA)).text).tasks).toEqual([]);
    // Another conversation is untouched.
    expect(stateOf((await call("TaskList", {}, { conversationId: "c2", runId: "turn-b" })).text).tasks).toEqual([]);
  });

  it("startRun clears a list of another run and keeps the current run's", async () => {
    const store = new InMemoryTaskStateStore();
    const bundle = createTaskToolBundle({ store });
    const run = (runId: string) => ({ conversationId: "c1", runId });
    await bundle.runtime.createTask(run("a"), create("Plan"));
    expect((await bundle.runtime.startRun(run("a"))).tasks).toHaveLength(1);
    expect(await bundle.runtime.startRun(run("b"))).toEqual({ runId: "b", revision: 0, nextTaskId: 1, tasks: [] });
    expect((await store.load("c1"))?.state).toEqual({ runId: "b", revision: 0, nextTaskId: 1, tasks: [] });
  });

  it("drops corrupt stored state with one warning and lets the model start over", async () => {
    const store = new InMemoryTaskStateStore();
    const { call, stateOf, warnings } = setup({ store });
    const corrupt = { runId: "default", revision: 2, nextTaskId: 2, tasks: [
      { id: "1", subject: "a", description: "b", activeForm: "c", status: "in_progress" },
      { id: "1", subject: "a", description: "b", activeForm: "c", status: "pending" },
    ] };
    await store.saveRaw("default", JSON.stringify(corrupt));
    expect(stateOf((await call("TaskList", {})).text).tasks).toEqual([]);
    await call("TaskList", {});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("appears twice");
    expect((await call("TaskCreate", create("Plan"))).text.split("\n")[0]).toBe("Created task 1.");
    await store.saveRaw("default", "{ truncated");
    expect(stateOf((await call("TaskList", {})).text).tasks).toEqual([]);
    expect(warnings[1]).toContain("not valid JSON");
  });
});
