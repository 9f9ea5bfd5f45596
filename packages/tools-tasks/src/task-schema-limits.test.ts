import type { ToolSchema } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { setup } from "./__fixtures__/task-registry.js";
import { TASK_LIMITS } from "./task-limits.js";

// The task tools' descriptions are kept short (every token is paid on every
// model call), but each limit and rule the model needs must still be stated in
// the text it reads: OpenAI's strict mode drops `maxLength`, so the character
// limits are asserted in the text as well as in the schema.

type PropertySchema = { description?: string; maxLength?: number; minLength?: number; enum?: string[] };

function tool(name: string): ToolSchema {
  const found = setup().registry.tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no ${name} tool`);
  return found;
}

const properties = (schema: ToolSchema): Record<string, PropertySchema> => schema.inputSchema.properties as Record<string, PropertySchema>;

/** The tool's description, then each parameter's, as the model reads them. */
const text = (schema: ToolSchema): string =>
  [schema.description, ...Object.entries(properties(schema)).map(([key, property]) => `${key}: ${property.description ?? ""}`)].join("\n");

const TEXT_LIMITS = `at most ${TASK_LIMITS.subjectChars} characters for subject and activeForm, ${TASK_LIMITS.descriptionChars} for description`;

describe("limits and rules the task tools' schemas still state", () => {
  it("TaskCreate: pending, the run's list, the text limits, no blanks, the list size, no delete", () => {
    const create = tool("TaskCreate");
    const all = text(create);
    expect(all).toMatch(/Adds a pending task to the current run's task list and returns the list as JSON/);
    expect(all).toMatch(/one task per concrete step, in order/);
    expect(all.toLowerCase()).toContain(TEXT_LIMITS.toLowerCase());
    expect(all).toMatch(/No field may be blank/);
    expect(all).toContain(`At most ${TASK_LIMITS.tasksPerList} tasks per list, completed ones included`);
    expect(all).toMatch(/there is no delete, so mark a task completed when done or no longer needed/);
    expect(properties(create).activeForm?.description).toMatch(/in progress, e\.g\. "Adding/);
    for (const [key, limit] of [
      ["subject", TASK_LIMITS.subjectChars],
      ["description", TASK_LIMITS.descriptionChars],
      ["activeForm", TASK_LIMITS.activeFormChars],
    ] as const) {
      expect(properties(create)[key]).toMatchObject({ minLength: 1, maxLength: limit });
    }
    expect(create.inputSchema.required).toEqual(["subject", "description", "activeForm"]);
  });

  it("TaskUpdate: only the passed fields, at least one, the text limits, one in_progress, when it fails", () => {
    const update = tool("TaskUpdate");
    const all = text(update);
    expect(all).toMatch(/Changes the fields you pass \(at least one\)/);
    expect(all.toLowerCase()).toContain(TEXT_LIMITS.toLowerCase());
    expect(all).toMatch(/At most one task may be in_progress: complete it \(or set it back to pending\) before starting another/);
    expect(all).toMatch(/Set in_progress when you start a task, completed as soon as it is done/);
    expect(all).toMatch(/Fails when this run has no list yet or the id does not exist/);
    expect(properties(update).taskId?.description).toMatch(/Numeric string/);
    expect(properties(update).taskId?.maxLength).toBe(TASK_LIMITS.taskIdChars);
    expect(properties(update).status?.enum).toEqual(["pending", "in_progress", "completed"]);
  });

  it("TaskList: the run's list as JSON, empty until a task is created, read-only", () => {
    const all = text(tool("TaskList"));
    expect(all).toMatch(/current run's task list as JSON \(empty until a task is created\)/);
    expect(all).toMatch(/Changes nothing/);
  });
});
