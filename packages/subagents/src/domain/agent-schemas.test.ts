import { toToolJsonSchema } from "@agent-tools/core/internal";
import { describe, expect, it } from "vitest";
import { agentInputSchema, sendMessageInputSchema } from "./agent-schemas.js";

type Schema = Record<string, any>;

describe("agentInputSchema as the model sees it", () => {
  const schema = toToolJsonSchema(agentInputSchema, "Agent") as Schema;
  const entry = schema.properties.agents.items as Schema;

  it("states 1-8 agents, concurrency 1-8 and no extra keys", () => {
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["agents"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.agents).toMatchObject({ type: "array", minItems: 1, maxItems: 8 });
    expect(schema.properties.concurrency).toMatchObject({ type: "integer", minimum: 1, maximum: 8 });
  });

  it("states each entry's fields, the enums and no extra keys", () => {
    expect(entry.additionalProperties).toBe(false);
    expect(entry.required).toEqual(["id", "prompt"]);
    expect(Object.keys(entry.properties)).toEqual([
      "id",
      "prompt",
      "name",
      "role",
      "identity",
      "template",
      "mode",
      "apply_policy",
      "allowed_output_paths",
      "resume",
      "retain_worktree",
    ]);
    expect(entry.properties.id).toMatchObject({ type: "string", minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" });
    expect(entry.properties.prompt).toMatchObject({ type: "string", minLength: 1 });
    expect(entry.properties.mode.enum).toEqual(["readonly", "worktree"]);
    expect(entry.properties.apply_policy.enum).toEqual(["none", "explicit", "auto"]);
    expect(entry.properties.allowed_output_paths).toMatchObject({ type: "array", items: { type: "string", minLength: 1 } });
    expect(entry.properties.resume.type).toBe("boolean");
    expect(entry.properties.retain_worktree.type).toBe("boolean");
  });

  it("describes every field for the model", () => {
    expect(typeof schema.properties.agents.description).toBe("string");
    expect(typeof schema.properties.concurrency.description).toBe("string");
    for (const [name, property] of Object.entries(entry.properties as Record<string, Schema>)) {
      expect(property.description, name).toMatch(/\w/);
      expect(property.description.length, name).toBeLessThan(260);
    }
  });

  it("matches the validator's limits when parsed", () => {
    expect(agentInputSchema.safeParse({ agents: [] }).success).toBe(false);
    expect(agentInputSchema.safeParse({ agents: Array.from({ length: 9 }, (_, index) => ({ id: `a${index}`, prompt: "p" })) }).success).toBe(false);
    expect(agentInputSchema.safeParse({ agents: [{ id: "a", prompt: "p" }], concurrency: 9 }).success).toBe(false);
    expect(agentInputSchema.safeParse({ agents: [{ id: "a", prompt: "p", extra: 1 }] }).success).toBe(false);
    expect(agentInputSchema.safeParse({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "auto" }], concurrency: 1 }).success).toBe(true);
  });
});

describe("sendMessageInputSchema as the model sees it", () => {
  const schema = toToolJsonSchema(sendMessageInputSchema, "SendMessage") as Schema;
  it("requires message, states the channels and no extra keys", () => {
    expect(schema.required).toEqual(["message"]);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(["to", "message", "channel", "subject"]);
    expect(schema.properties.to).toMatchObject({ type: "string", minLength: 1 });
    expect(schema.properties.message).toMatchObject({ type: "string", minLength: 1 });
    expect(schema.properties.channel.enum).toEqual(["direct", "shared", "decision", "question"]);
    for (const property of Object.values(schema.properties as Record<string, Schema>)) expect(property.description).toMatch(/\w/);
  });
  it("parses strictly, except that an unknown channel is left to the recipient's default", () => {
    expect(sendMessageInputSchema.safeParse({ message: "hi", to: "parent" }).success).toBe(true);
    expect(sendMessageInputSchema.safeParse({ message: "hi", cc: "x" }).success).toBe(false);
    expect(sendMessageInputSchema.safeParse({ to: "parent" }).success).toBe(false);
    expect(sendMessageInputSchema.safeParse({ message: "hi", channel: "loud" }).data?.channel).toBeUndefined();
    expect(sendMessageInputSchema.safeParse({ message: "hi", channel: 7 }).data?.channel).toBeUndefined();
    expect(sendMessageInputSchema.safeParse({ message: "hi", channel: " Decision " }).data?.channel).toBe("decision");
  });
});
