import type { MemoryConfidence, MemoryScope, MemoryType } from "../domain/memory-types.js";

/** Actions of a memory plan item. */
export const MEMORY_PLAN_ACTIONS = ["write", "update", "accept", "delete", "append_daily"] as const;
/** One action of a memory plan item. */
export type MemoryPlanAction = (typeof MEMORY_PLAN_ACTIONS)[number];

/** How an update combines with the stored entry. The extractor's default is `merge`. */
export type MemoryPlanUpdateMode = "merge" | "replace";

/**
 * One plan item that passed validation, normalised: slug checked and
 * normalised, scope resolved, texts trimmed and cut to their limits, the
 * wire's snake_case names turned into camelCase. The evidence contract and
 * the risk filter are applied by whoever writes it.
 */
export interface ValidatedPlanItem {
  /** Position of the item in the submitted plan (0-based). */
  readonly index: number;
  readonly action: MemoryPlanAction;
  /**
   * The normalised slug. Set for every action except `append_daily`, where
   * it is only set when the plan named a `daily-YYYY-MM-DD` journal
   * (absent: today's journal).
   */
  readonly slug?: string;
  /** `global` unless the plan asked for `project` (always `global` for `append_daily`). */
  readonly scope: MemoryScope;
  /** Set for `write`; optional for `update`. */
  readonly type?: MemoryType;
  readonly description?: string;
  /** Set for `write` and `append_daily`; optional for `update`. */
  readonly body?: string;
  /** For `update`: default `merge`. */
  readonly mode: MemoryPlanUpdateMode;
  readonly confidence?: MemoryConfidence;
  readonly sourceQuote?: string;
  readonly reasoning?: string;
  readonly aliases?: readonly string[];
  readonly supersedes?: string;
  readonly conflictsWith?: readonly string[];
  /** Why the item overrides a recent rejection of its slug by the user. */
  readonly overrideReject?: string;
}
