/** A seeded generator so the corpus and the perturbations are the same on every run. */

// The generator is the one the durable fault bench draws its kill points from.
import type { RandomSource } from "../../durable/fault/kill-plan.js";

export { type RandomSource, createRandomSource } from "../../durable/fault/kill-plan.js";

/** The items in a seeded order (Fisher-Yates on a copy). */
export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random.next() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** A seed from a string (FNV-1a), so each case draws its perturbations from its own id. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}
