import { describe, expect, it } from "vitest";
import { create, setup } from "./__fixtures__/task-registry.js";
import { TASK_LIMITS } from "./task-limits.js";
import { createTaskRuntime } from "./task-runtime.js";
import { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";

describe("task list size limits", () => {
  it("refuses an oversized subject, description, activeForm or taskId, naming the field and the limit, and stores nothing", async () => {
    const { call, stateOf, store } = setup();
    const huge = "x".repeat(5_000_000);
    for (const [field, limit] of [
      ["subject", TASK_LIMITS.subjectChars],
      ["description", TASK_LIMITS.descriptionChars],
      ["activeForm", TASK_LIMITS.activeFormChars],
    ] as const) {
      const result = await call("TaskCreate", { ...create("Plan"), [field]: huge });
      expect(result.isError).toBe(true);
      expect(result.text).toContain(`\`${field}\` must have at most ${limit} character(s)`);
      expect(result.text.length).toBeLessThan(1_000);
    }
    expect(await store.load("default")).toBeUndefined();
    expect((await call("TaskCreate", { ...create("Plan"), description: "d".repeat(TASK_LIMITS.descriptionChars) })).isError).toBe(false);
    const update = await call("TaskUpdate", { taskId: "1", description: huge });
    expect(update.text).toContain(`\`description\` must have at most ${TASK_LIMITS.descriptionChars} character(s)`);
    const id = await call("TaskUpdate", { taskId: "1".repeat(1_000_000), status: "completed" });
    expect(id.text).toContain(`\`taskId\` must have at most ${TASK_LIMITS.taskIdChars} character(s)`);
    expect(id.text.length).toBeLessThan(1_000);
    expect(stateOf((await call("TaskList", {})).text).revision).toBe(1);
  });

  it(`holds at most ${TASK_LIMITS.tasksPerList} tasks per list`, async () => {
    const { call } = setup();
    for (let index = 0; index < TASK_LIMITS.tasksPerList; index += 1) expect((await call("TaskCreate", create(`Task ${index}`))).isError).toBe(false);
    const refused = await call("TaskCreate", create("One more"));
    expect(refused.isError).toBe(true);
    expect(refused.details).toMatchObject({ code: "limit_reached", tasks: TASK_LIMITS.tasksPerList, limit: TASK_LIMITS.tasksPerList });
    expect(refused.text).toContain(`the most one list may hold (${TASK_LIMITS.tasksPerList})`);
    expect((await call("TaskUpdate", { taskId: "1", subject: "Rewritten", status: "completed" })).isError).toBe(false);
  }, 60_000);

  it(`keeps a list's text to ${TASK_LIMITS.listChars} characters`, async () => {
    const { call } = setup();
    const full = { subject: "s".repeat(TASK_LIMITS.subjectChars), description: "d".repeat(TASK_LIMITS.descriptionChars), activeForm: "a".repeat(2_000) };
    const perTask = full.subject.length + full.description.length + full.activeForm.length;
    const fits = Math.floor(TASK_LIMITS.listChars / perTask);
    for (let index = 0; index < fits; index += 1) expect((await call("TaskCreate", full)).isError).toBe(false);
    const refused = await call("TaskCreate", full);
    expect(refused.details).toMatchObject({ code: "limit_reached", limit: TASK_LIMITS.listChars });
    expect(refused.text).toContain(`at most ${TASK_LIMITS.listChars} are allowed over all tasks`);
  }, 60_000);

  it("guards the runtime too, for hosts that call it directly", async () => {
    const runtime = createTaskRuntime({ store: new InMemoryTaskStateStore() });
    const run = { conversationId: "c", runId: "r" };
    await expect(runtime.createTask(run, { ...create("Plan"), subject: "s".repeat(TASK_LIMITS.subjectChars + 1) })).rejects.toMatchObject({
      code: "too_large",
      details: { field: "subject", limit: TASK_LIMITS.subjectChars },
    });
    expect((await runtime.getState(run)).tasks).toEqual([]);
  });
});
