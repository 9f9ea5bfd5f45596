import type { ToolSchema } from "@agent-tools/core";
import { toToolJsonSchema } from "@agent-tools/core/internal";
import { z } from "zod";
import { MEMORY_LIMITS, MEMORY_TYPES } from "../domain/memory-types.js";
import { MEMORY_PLAN_ACTIONS } from "./validated-plan-item.js";

/** Name of the hidden tool the extractor's model calls. */
export const SUBMIT_MEMORY_PLAN_TOOL_NAME = "SubmitMemoryPlan";

const slugText = "Entry id: 3-64 characters of a-z, 0-9 and -, starting and ending with a letter or digit.";

/** One item of a memory plan, as the model sends it (snake_case, as on the wire). */
export const memoryPlanItemSchema = z.object({
  action: z
    .enum(MEMORY_PLAN_ACTIONS)
    .describe(
      "write: a new entry. update: change an entry. accept: confirm an unreviewed entry. delete: remove one. append_daily: add a line to today's journal.",
    ),
  slug: z.string().optional().describe(`${slugText} Required except for append_daily.`),
  scope: z.enum(["global", "project"]).optional().describe("global (default): about the user everywhere. project: only about the current project."),
  type: z
    .enum(MEMORY_TYPES)
    .optional()
    .describe(
      "Required for write. user: who the user is. feedback: how they want the agent to work. project: facts of a project. reference: pointers to docs and systems.",
    ),
  description: z.string().max(MEMORY_LIMITS.descriptionMaxChars).optional().describe("One line naming the entry; required for write."),
  body: z.string().optional().describe("The content in Markdown; required for write and append_daily. At most 8 KB."),
  mode: z.enum(["merge", "replace"]).optional().describe("For update: merge (default) folds the body into the entry, replace overwrites it."),
  confidence: z.enum(["high", "medium", "low"]).optional().describe("high needs a source_quote of 5+ characters, medium a non-empty one; else it is lowered."),
  source_quote: z.string().max(MEMORY_LIMITS.sourceQuoteMaxChars).optional().describe("The user's own words that support the item."),
  reasoning: z.string().max(MEMORY_LIMITS.reasoningMaxChars).optional().describe("Why this is worth remembering."),
  aliases: z.array(z.string()).max(MEMORY_LIMITS.aliasesMax).optional().describe("Other slugs this entry is known by."),
  supersedes: z.string().optional().describe("Slug of an entry this one replaces."),
  conflicts_with: z.array(z.string()).max(MEMORY_LIMITS.conflictsWithMax).optional().describe("Slugs of entries this one contradicts."),
  override_reject: z
    .string()
    .max(MEMORY_LIMITS.overrideRejectMaxChars)
    .optional()
    .describe("Only to rewrite a slug the user recently rejected: what is different now."),
});

/** The input of SubmitMemoryPlan. */
export const submitMemoryPlanInputSchema = z.object({
  status: z.enum(["updated", "noop"]).describe("noop when nothing is worth remembering (then items is empty)."),
  note: z.string().max(200).optional().describe("One short line about the plan, for logs."),
  items: z.array(memoryPlanItemSchema).max(8).describe("At most 8 changes."),
});

/** A memory plan as the model submits it. */
export type SubmitMemoryPlanInput = z.infer<typeof submitMemoryPlanInputSchema>;

/** What the hidden model is told the tool is for. */
export const SUBMIT_MEMORY_PLAN_DESCRIPTION = `Submits the memory plan for the conversation turns you were shown. Call it exactly once.
You maintain a long-term memory about the user and their projects. Look only for facts that will still matter in later conversations:
- user: who the user is (name, role, languages, environment).
- feedback: how the user wants the work done (style, tools, things to avoid), especially corrections they gave.
- project: decisions, conventions and facts of the current project (scope "project").
- reference: where things are (docs, dashboards, repositories).
Rules:
- Most turns hold nothing worth keeping: then submit {"status":"noop","items":[]}.
- Never store secrets (keys, tokens, passwords): such items are refused.
- Prefer update (mode "merge") of an existing entry over a new entry with a similar slug.
- Back each item with source_quote, the user's own words (at most 80 characters); confidence "high" needs a quote of 5+ characters.
- Items you write are stored as unreviewed until the user accepts them. Do not write a slug the user rejected unless override_reject says what changed.
- append_daily adds a short line to today's journal (what was worked on); it takes a body and no slug.
- At most 8 items; one item per slug.`;

/**
 * The tool schema of SubmitMemoryPlan, as handed to the model (the only tool
 * of an extraction run).
 *
 * @example
 * await model.generate({ messages, tools: [submitMemoryPlanToolSchema()], toolChoice: "required" });
 */
export function submitMemoryPlanToolSchema(): ToolSchema {
  return {
    name: SUBMIT_MEMORY_PLAN_TOOL_NAME,
    description: SUBMIT_MEMORY_PLAN_DESCRIPTION,
    inputSchema: toToolJsonSchema(submitMemoryPlanInputSchema, SUBMIT_MEMORY_PLAN_TOOL_NAME),
  };
}
