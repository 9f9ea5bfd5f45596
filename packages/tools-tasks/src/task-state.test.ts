import { describe, expect, it } from "vitest";
import { emptyTaskState, parseStoredTaskState, tasksInProgress } from "./task-state.js";

const task = (id: string, status = "pending") => ({ id, subject: `s${id}`, description: `d${id}`, activeForm: `a${id}`, status });
const state = (tasks: unknown[], nextTaskId = 10) => ({ runId: "run-1", revision: tasks.length, nextTaskId, tasks });

describe("parseStoredTaskState", () => {
  it("accepts a valid state, from an object or JSON text", () => {
    const valid = state([task("1", "completed"), task("2", "in_progress"), task("4")], 5);
    expect(parseStoredTaskState(valid)).toEqual({ ok: true, state: valid });
    expect(parseStoredTaskState(JSON.stringify(valid))).toEqual({ ok: true, state: valid });
    expect(parseStoredTaskState(emptyTaskState("r"))).toEqual({ ok: true, state: { runId: "r", revision: 0, nextTaskId: 1, tasks: [] } });
  });

  it("drops unknown keys of tasks", () => {
    const parsed = parseStoredTaskState(state([{ ...task("1"), extra: true }]));
    expect(parsed.ok && parsed.state.tasks[0]).toEqual(task("1"));
  });

  it.each([
    ["invalid JSON", "{not json", "not valid JSON"],
    ["a non-object", [1, 2], "not an object"],
    ["a missing runId", { revision: 0, nextTaskId: 1, tasks: [] }, "runId"],
    ["a negative revision", { ...state([]), revision: -1 }, "revision"],
    ["nextTaskId 0", state([], 0), "nextTaskId"],
    ["tasks not an array", { ...state([]), tasks: {} }, "tasks must be an array"],
    ["duplicate ids", state([task("1"), task("1")]), "appears twice"],
    ["two tasks in progress", state([task("1", "in_progress"), task("2", "in_progress")]), "in_progress"],
    ["an id at nextTaskId", state([task("3")], 3), "outside [1, 3)"],
    ["an id of 0", state([task("0")]), "not a numeric string"],
    ["a non-numeric id", state([task("a")]), "not a numeric string"],
    ["a numeric (not string) id", state([{ ...task("1"), id: 1 }]), "not a numeric string"],
    ["an unknown status", state([task("1", "cancelled")]), "unknown status"],
    ["a missing subject", state([{ ...task("1"), subject: undefined }]), "subject"],
  ])("rejects %s", (_name, value, reason) => {
    const parsed = parseStoredTaskState(value);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toContain(reason);
  });
});

describe("tasksInProgress", () => {
  it("lists the in_progress tasks", () => {
    const parsed = parseStoredTaskState(state([task("1", "completed"), task("2", "in_progress")]));
    expect(parsed.ok && tasksInProgress(parsed.state).map((entry) => entry.id)).toEqual(["2"]);
  });
});
