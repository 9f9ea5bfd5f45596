import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { create, setup } from "./__fixtures__/task-registry.js";
import { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
import type { TaskState } from "./task-state.js";
import type { TaskStateStore } from "./task-state-store.js";
import { createTaskToolBundle } from "./task-tool-bundle.js";

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

  it("answers a store that cannot open without 'Retry later', not recoverable, and warns the host once", async () => {
    const { call, warnings } = setup({
      store: async () => {
        throw new Error("no database here");
      },
    });
    for (const name of ["TaskCreate", "TaskList"]) {
      const result = await call(name, name === "TaskCreate" ? create("Plan") : {});
      expect(result).toMatchObject({ isError: true, details: { code: "unavailable", recoverable: false } });
      expect(result.text).toBe("The task store could not be opened (no database here). The task tools cannot be used until the host fixes this.");
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Task tools: The task store could not be opened \(no database here\)/);
  });

  it("answers with the ToolError a store factory rejects with, and warns only about non-recoverable ones", async () => {
    let failure = new ToolError("unavailable", "The store is busy. Retry later.", { details: { recoverable: true } });
    const { call, warnings } = setup({
      store: async () => {
        throw failure;
      },
    });
    const busy = await call("TaskList", {});
    expect(busy).toMatchObject({ isError: true, text: "The store is busy. Retry later.", details: { code: "unavailable", recoverable: true } });
    expect(warnings).toHaveLength(0);
    failure = new ToolError("unavailable", "Install the driver.", { details: { reason: "driver_missing" }, recoverable: false });
    expect((await call("TaskList", {})).text).toBe("Install the driver.");
    expect((await call("TaskList", {})).text).toMatch(/^Install the driver\./); // the loop breaker may add its note
    expect(warnings).toEqual([expect.stringMatching(/^Task tools: Install the driver\. /)]);
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
    const corrupt = {
      runId: "default",
      revision: 2,
      nextTaskId: 2,
      tasks: [
        { id: "1", subject: "a", description: "b", activeForm: "c", status: "in_progress" },
        { id: "1", subject: "a", description: "b", activeForm: "c", status: "pending" },
      ],
    };
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
