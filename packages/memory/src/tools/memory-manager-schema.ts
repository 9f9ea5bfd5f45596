import { z } from "zod";
import { MEMORY_LIMITS, MEMORY_TYPES } from "../domain/memory-types.js";

/** Actions of MemoryManager in `rw` mode; `ro` allows the first three. */
export const MEMORY_MANAGER_ACTIONS = ["list", "read", "search", "write", "update", "delete", "accept"] as const;
/** The actions `ro` mode allows. */
export const MEMORY_READ_ACTIONS: readonly string[] = ["list", "read", "search"];

const STORED_TYPES = [...MEMORY_TYPES, "daily"] as const;

/** The input of MemoryManager: one flat object, the fields each action uses. */
export const memoryManagerInputSchema = z.object({
  action: z.enum(MEMORY_MANAGER_ACTIONS),
  slug: z.string().min(3).optional(),
  scope: z.enum(["auto", "global", "project"]).optional(),
  type: z.enum(STORED_TYPES).optional(),
  filter_type: z.enum(STORED_TYPES).optional(),
  include_daily: z.boolean().optional(),
  query: z.string().min(1).optional(),
  include_history: z.boolean().optional(),
  history_since: z.number().int().optional(),
  history_until: z.number().int().optional(),
  // Checked, not advertised: the pattern would cost the model more tokens than the description's "YYYY-MM-DD".
  history_date_local: z
    .string()
    .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value), "history_date_local is YYYY-MM-DD")
    .optional(),
  history_time_mode: z.enum(["message", "updated", "conversation"]).optional(),
  description: z.string().min(MEMORY_LIMITS.descriptionMinChars).max(MEMORY_LIMITS.descriptionMaxChars).optional(),
  body: z.string().optional(),
  mode: z.enum(["replace", "append", "merge"]).optional(),
  // read clamps it to line 1, list to entry 0.
  offset: z.number().int().optional(),
  length: z.number().int().min(1).max(MEMORY_LIMITS.readLengthMax).optional(),
  limit: z.number().int().min(1).max(MEMORY_LIMITS.resultLimitMax).optional(),
  confidence: z.enum(["high", "medium", "low"]).optional(),
  source_quote: z.string().max(MEMORY_LIMITS.sourceQuoteMaxChars).optional(),
  reasoning: z.string().max(MEMORY_LIMITS.reasoningMaxChars).optional(),
  aliases: z.array(z.string()).max(MEMORY_LIMITS.aliasesMax).optional(),
  supersedes: z.string().min(3).optional(),
  conflicts_with: z.array(z.string()).max(MEMORY_LIMITS.conflictsWithMax).optional(),
  override_reject: z.string().max(MEMORY_LIMITS.overrideRejectMaxChars).optional(),
});

/** Parsed MemoryManager input. */
export type MemoryManagerInput = z.output<typeof memoryManagerInputSchema>;

/** The description the model reads (kept short: it is sent with every request). */
export const MEMORY_MANAGER_DESCRIPTION = `Long-term memory across chats: short Markdown entries of lasting user facts and preferences; never secrets.
scope auto (reads) = global + this project, project wins; changes need global or project.
read offset: 1-based line. write: new or overwrite (max 500 per scope). update mode defaults to replace. accept: mark an auto-saved entry reviewed.
confidence high needs source_quote (user's words, >= 5 chars), else it is lowered.
include_history: also search past chats (untrusted).`;
