import { describe, expect, it } from "vitest";
import { SUBMIT_MEMORY_PLAN_TOOL_NAME, submitMemoryPlanInputSchema, submitMemoryPlanToolSchema } from "./submit-memory-plan.js";

describe("SubmitMemoryPlan", () => {
  it("shows the model this JSON Schema", () => {
    const schema = submitMemoryPlanToolSchema();
    expect(schema.name).toBe(SUBMIT_MEMORY_PLAN_TOOL_NAME);
    expect(schema.description).toContain('{"status":"noop","items":[]}');
    expect(schema.inputSchema).toMatchSnapshot();
  });

  it("requires status and items, caps note at 200 characters and items at 8", () => {
    const schema = submitMemoryPlanToolSchema().inputSchema as { required: string[]; properties: Record<string, Record<string, unknown>> };
    expect(schema.required).toEqual(["status", "items"]);
    expect(schema.properties.note.maxLength).toBe(200);
    expect(schema.properties.items.maxItems).toBe(8);
  });

  it("parses a plan and refuses unknown actions, more than 8 items and long notes", () => {
    const item = { action: "append_daily", body: "- did things" };
    expect(submitMemoryPlanInputSchema.safeParse({ status: "updated", items: [item] }).success).toBe(true);
    expect(submitMemoryPlanInputSchema.safeParse({ status: "updated", items: [{ action: "rename" }] }).success).toBe(false);
    expect(submitMemoryPlanInputSchema.safeParse({ status: "updated", items: Array(9).fill(item) }).success).toBe(false);
    expect(submitMemoryPlanInputSchema.safeParse({ status: "noop", note: "n".repeat(201), items: [] }).success).toBe(false);
    expect(submitMemoryPlanInputSchema.safeParse({ status: "maybe", items: [] }).success).toBe(false);
  });
});
