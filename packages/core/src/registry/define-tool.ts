import type { z } from "zod";
import { SdkError } from "../errors.js";
import { RUNTIME_SCOPES, type RuntimeScope, type ToolContext, type ToolDefinition, type ToolMetadata, type ToolOutput } from "../types.js";
import { toToolJsonSchema } from "./json-schema.js";

/** Tool names every provider accepts. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What {@link defineTool} takes. */
export interface DefineToolSpec<Schema extends z.ZodObject, Details> {
  name: string;
  /** Written for the model. */
  description: string;
  /** A zod object; its JSON Schema is what the model sees. */
  inputSchema: Schema;
  metadata: ToolMetadata;
  /** Scopes the tool is offered in; default both. */
  scopes?: readonly RuntimeScope[];
  maxOutputChars?: number;
  handlesAbort?: boolean;
  loopKey?(input: z.output<Schema>): string | undefined;
  execute(input: z.output<Schema>, context: ToolContext): Promise<ToolOutput<Details>> | ToolOutput<Details>;
}

/**
 * Defines a tool from a zod schema: validates the name, derives the JSON
 * Schema and types `execute`'s input.
 *
 * @example
 * const Echo = defineTool({
 *   name: "Echo",
 *   description: "Returns its text.",
 *   inputSchema: z.object({ text: z.string() }),
 *   metadata: { groupId: "system", kind: "echo", isReadOnly: true, displayCategory: "other" },
 *   execute: ({ text }) => ({ content: text }),
 * });
 */
export function defineTool<Schema extends z.ZodObject, Details = unknown>(spec: DefineToolSpec<Schema, Details>): ToolDefinition<z.output<Schema>, Details> {
  if (!TOOL_NAME_PATTERN.test(spec.name)) {
    throw new SdkError("invalid_tool_definition", `Tool name "${spec.name}" must match ${TOOL_NAME_PATTERN}.`);
  }
  if (typeof spec.description !== "string" || spec.description.trim() === "") {
    throw new SdkError("invalid_tool_definition", `Tool ${spec.name} needs a description written for the model.`);
  }
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema as unknown as ToolDefinition<z.output<Schema>, Details>["inputSchema"],
    jsonSchema: toToolJsonSchema(spec.inputSchema, spec.name),
    metadata: spec.metadata,
    scopes: spec.scopes ?? RUNTIME_SCOPES,
    maxOutputChars: spec.maxOutputChars,
    handlesAbort: spec.handlesAbort,
    loopKey: spec.loopKey,
    execute: spec.execute,
  };
}
