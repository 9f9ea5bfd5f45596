import type { z } from "zod";
import { SdkError } from "../errors.js";
import {
  RUNTIME_SCOPES,
  type RuntimeScope,
  type ToolContext,
  type ToolDefinition,
  type ToolEffects,
  type ToolMetadata,
  type ToolOutput,
  type ToolResumeDecision,
} from "../types.js";
import { TOOL_EFFECTS } from "./call-ledger.js";
import { closestName } from "./closest-name.js";
import { toToolJsonSchema } from "./json-schema.js";
import { checkToolMetadata } from "./tool-metadata-check.js";

/** Tool names every provider accepts. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What {@link defineTool} takes. */
export interface DefineToolSpec<Schema extends z.ZodObject, Details> {
  name: string;
  /** Written for the model. */
  description: string;
  /** A zod object; its JSON Schema is what the model sees. */
  inputSchema: Schema;
  /**
   * Static facts about the tool; what is left out comes from
   * {@link defaultToolMetadata}: group `custom`, kind `custom`, not
   * read-only, display category `other`, no declared annotations (then
   * `resolveToolAnnotations` derives them: read-only as `isReadOnly` says,
   * listed in plan mode only when read-only). Checked fail-closed: an
   * unknown key, kind or display category, or annotations that contradict
   * `isReadOnly`, throw `SdkError`.
   */
  metadata?: Partial<ToolMetadata>;
  /** Scopes the tool is offered in (`chat`, `cron`); default both. */
  scopes?: readonly RuntimeScope[];
  maxOutputChars?: number;
  handlesAbort?: boolean;
  loopKey?(input: z.output<Schema>): string | undefined;
  /**
   * What running a call again would do, for durable runs: `none`,
   * `idempotent` or `unsafe` (a function decides per input). Left out: `none`
   * when the tool is read-only, else `unsafe`.
   */
  effects?: ToolEffects | ((input: z.output<Schema>) => ToolEffects);
  /** For a call interrupted by a crash (effects `none`/`idempotent`): run again, report done, or report the outcome unknown. */
  resume?(input: z.output<Schema>, context: ToolContext): Promise<ToolResumeDecision<Details>> | ToolResumeDecision<Details>;
  execute(input: z.output<Schema>, context: ToolContext): Promise<ToolOutput<Details>> | ToolOutput<Details>;
}

/**
 * The metadata of a tool that declares none: group `custom` (so approval
 * rules can say `group:custom`), kind `custom`, not read-only (calls are
 * asked about like any other state-changing tool, and plan mode does not
 * list it), display category `other`. `name` is kept for callers of the
 * earlier signature (the kind used to be the name in lower case).
 */
export function defaultToolMetadata(_name?: string): ToolMetadata {
  return { groupId: "custom", kind: "custom", isReadOnly: false, displayCategory: "other" };
}

/**
 * Defines a tool from a zod schema: validates the name and scopes, derives
 * the JSON Schema, fills in metadata the spec leaves out and types
 * `execute`'s input.
 *
 * @example
 * const Echo = defineTool({
 *   name: "Echo",
 *   description: "Returns its text.",
 *   inputSchema: z.object({ text: z.string() }),
 *   metadata: { isReadOnly: true }, // the rest: group "custom", kind "custom", category "other"
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
  if (spec.metadata !== undefined && (spec.metadata === null || typeof spec.metadata !== "object")) {
    throw new SdkError("invalid_tool_definition", `Tool ${spec.name}: metadata must be an object (or left out for the defaults).`);
  }
  const scopes = spec.scopes ?? RUNTIME_SCOPES;
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((scope) => !RUNTIME_SCOPES.includes(scope))) {
    throw new SdkError("invalid_tool_definition", `Tool ${spec.name}: scopes must be a non-empty array of ${RUNTIME_SCOPES.map((s) => `"${s}"`).join(", ")}.`);
  }
  checkDurableMembers(spec);
  // Keys set to undefined must not erase a default.
  const given = Object.fromEntries(Object.entries(spec.metadata ?? {}).filter(([, value]) => value !== undefined));
  const declared = given.annotations as ToolMetadata["annotations"];
  // Annotations alone may say read-only; isReadOnly follows them unless it is given too.
  const readOnlyFromAnnotations = given.isReadOnly === undefined && declared !== null && typeof declared === "object" && typeof declared.readOnly === "boolean";
  const metadata: ToolMetadata = { ...defaultToolMetadata(spec.name), ...(readOnlyFromAnnotations ? { isReadOnly: declared.readOnly } : {}), ...given };
  checkToolMetadata(spec.name, given, metadata);
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema as unknown as ToolDefinition<z.output<Schema>, Details>["inputSchema"],
    jsonSchema: toToolJsonSchema(spec.inputSchema, spec.name),
    metadata,
    scopes,
    maxOutputChars: spec.maxOutputChars,
    handlesAbort: spec.handlesAbort,
    loopKey: spec.loopKey,
    ...(spec.effects === undefined ? {} : { effects: spec.effects }),
    ...(spec.resume === undefined ? {} : { resume: spec.resume }),
    execute: spec.execute,
  };
}

/** `effects` is one of {@link TOOL_EFFECTS} or a function, `resume` a function; else `SdkError` naming the closest value. */
function checkDurableMembers(spec: { readonly name: string; readonly effects?: unknown; readonly resume?: unknown }): void {
  const { effects, resume } = spec;
  if (effects !== undefined && typeof effects !== "function" && !(typeof effects === "string" && (TOOL_EFFECTS as readonly string[]).includes(effects))) {
    const suggestion = typeof effects === "string" ? closestName(effects, TOOL_EFFECTS) : undefined;
    throw new SdkError(
      "invalid_tool_definition",
      `Tool ${spec.name}: effects ${JSON.stringify(effects)} is not one of ${TOOL_EFFECTS.map((value) => `"${value}"`).join(", ")}${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (or a function of the input answering one).`,
    );
  }
  if (resume !== undefined && typeof resume !== "function") {
    throw new SdkError("invalid_tool_definition", `Tool ${spec.name}: resume must be a function (input, context) => { action: "run" | "done" | "unknown" }.`);
  }
}
