import type { MemoryToolErrorJson } from "../domain/memory-errors.js";
import type { ValidatedPlanItem } from "./validated-plan-item.js";

/** Result of {@link MemoryPlanTarget.applyBatch}: one result per item, by the item's plan index. */
export interface MemoryPlanBatchResult {
  /** Items written. */
  readonly applied: number;
  readonly results: readonly { readonly index: number; readonly ok: boolean; readonly error?: MemoryToolErrorJson }[];
}

/**
 * Where an extractor's validated plan is written: the memory service. The
 * target applies the evidence contract, the risk filter, the quota and the
 * limits per item, then writes the files and indexes every surviving item
 * in one transaction (all or nothing: when that fails, every item reports
 * the error). Writes by the extractor are stored unreviewed.
 */
export interface MemoryPlanTarget {
  applyBatch(items: readonly ValidatedPlanItem[], options: { actor: "extractor"; conversationId?: string }): Promise<MemoryPlanBatchResult>;
}
