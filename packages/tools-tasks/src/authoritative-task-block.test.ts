import { describe, expect, it } from "vitest";
import { AUTHORITATIVE_TASK_BLOCK_HEADING, createFrozenTaskBlock, renderAuthoritativeTaskBlock } from "./authoritative-task-block.js";
import { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
import { createTaskRuntime } from "./task-runtime.js";
import { emptyTaskState } from "./task-state.js";

const run = { conversationId: "c1", runId: "turn-1" };
const input = (subject: string) => ({ subject, description: `${subject} fully`, activeForm: `${subject}ing` });

describe("renderAuthoritativeTaskBlock", () => {
  it("renders nothing without tasks", () => {
    expect(renderAuthoritativeTaskBlock(undefined)).toBe("");
    expect(renderAuthoritativeTaskBlock(emptyTaskState("r"))).toBe("");
  });

  it("renders the heading, the do-not-recreate instruction and the list JSON", async () => {
    const runtime = createTaskRuntime({ store: new InMemoryTaskStateStore() });
    await runtime.createTask(run, input("Plan"));
    const state = await runtime.getState(run);
    const block = renderAuthoritativeTaskBlock(state);
    const lines = block.split("\n");
    expect(lines[0]).toBe(AUTHORITATIVE_TASK_BLOCK_HEADING);
    expect(lines[1]).toContain("Do not recreate, renumber, reorder, or replace these tasks");
    expect(lines[2]).toBe(`<task_list>${JSON.stringify(state)}</task_list>`);
    expect(JSON.parse(lines[2]!.slice("<task_list>".length, -"</task_list>".length))).toEqual(state);
  });
});

describe("createFrozenTaskBlock", () => {
  it("keeps its bytes until refresh, whatever the tools change", async () => {
    const runtime = createTaskRuntime({ store: new InMemoryTaskStateStore() });
    const block = createFrozenTaskBlock(runtime);
    expect(block.text).toBe("");
    await runtime.createTask(run, input("Plan"));
    const atRunStart = await block.refresh(run);
    expect(atRunStart).toContain('"subject":"Plan"');
    await runtime.updateTask(run, { taskId: "1", status: "in_progress" });
    await runtime.createTask(run, input("Build"));
    expect(block.text).toBe(atRunStart);
    // A compaction boundary recomputes it.
    const afterCompaction = await block.refresh(run);
    expect(afterCompaction).not.toBe(atRunStart);
    expect(afterCompaction).toContain('"status":"in_progress"');
    expect(afterCompaction).toContain('"subject":"Build"');
  });

  it("does not carry a list of another run into a new run", async () => {
    const runtime = createTaskRuntime({ store: new InMemoryTaskStateStore() });
    await runtime.createTask(run, input("Plan"));
    const block = createFrozenTaskBlock(runtime);
    expect(await block.refresh({ conversationId: "c1", runId: "turn-2" })).toBe("");
  });
});
