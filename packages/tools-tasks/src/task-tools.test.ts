import { describe, expect, it } from "vitest";
import { create, setup } from "./__fixtures__/task-registry.js";

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
    for (const args of [
      { ...create("x"), subject: "   " },
      { subject: "x", description: "y" },
      { ...create("x"), activeForm: "" },
    ]) {
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
    expect(stateOf(renamed.text).tasks[0]).toMatchObject({
      subject: "Plan it",
      activeForm: "Planning it",
      description: "Plan in detail",
      status: "in_progress",
    });
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
