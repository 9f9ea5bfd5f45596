import type { MemoryToolErrorJson } from "../domain/memory-errors.js";
import type { MemoryPlanTarget } from "./memory-plan-target.js";
import { type MemoryPlanContext, type ValidatedMemoryPlan, validateMemoryPlan } from "./validate-memory-plan.js";

/** Result of {@link applyMemoryPlan}: the validation, plus what the target did with the accepted items. */
export interface AppliedMemoryPlan extends ValidatedMemoryPlan {
  /** Items the target wrote. */
  readonly applied: number;
  /** The target's answer per accepted item (by plan index); empty when nothing was accepted. */
  readonly results: readonly { readonly index: number; readonly ok: boolean; readonly error?: MemoryToolErrorJson }[];
  /** Slugs written (accepted items the target applied). */
  readonly writtenSlugs: readonly string[];
}

/**
 * Validates a submitted plan and hands the accepted items to the target as
 * one batch. Rejected items are reported, never applied; a plan with no
 * accepted item does not reach the target.
 *
 * @example
 * const outcome = await applyMemoryPlan(args, { target: memoryService, context: { projectScopeAllowed: true, writtenThisTurn, rejectedSlugs } });
 */
export async function applyMemoryPlan(
  plan: unknown,
  options: { target: MemoryPlanTarget; context: MemoryPlanContext; conversationId?: string },
): Promise<AppliedMemoryPlan> {
  const validated = validateMemoryPlan(plan, options.context);
  if (validated.accepted.length === 0) return { ...validated, applied: 0, results: [], writtenSlugs: [] };
  const batch = await options.target.applyBatch(validated.accepted, {
    actor: "extractor",
    ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
  });
  const succeeded = new Set(batch.results.filter((result) => result.ok).map((result) => result.index));
  const writtenSlugs = validated.accepted.filter((item) => succeeded.has(item.index) && item.slug !== undefined).map((item) => item.slug as string);
  return { ...validated, applied: batch.applied, results: batch.results, writtenSlugs };
}
