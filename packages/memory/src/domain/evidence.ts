import type { MemoryConfidence } from "./memory-types.js";

/** Shortest quote that supports `high` confidence. */
export const HIGH_CONFIDENCE_MIN_QUOTE_CHARS = 5;

/**
 * The evidence contract: a claimed confidence must be backed by a quote of
 * what the user said. `high` needs a quote of at least 5 characters (else it
 * becomes `medium`), `medium` a non-empty quote (else `low`); a missing
 * confidence is `low`. `autoDowngraded` tells whether the claim was lowered.
 * The quote is measured after trimming, in characters (code points).
 *
 * @example
 * applyEvidenceContract({ confidence: "high", sourceQuote: "ok" }); // { confidence: "medium", autoDowngraded: true }
 */
export function applyEvidenceContract(input: { confidence?: MemoryConfidence; sourceQuote?: string }): {
  confidence: MemoryConfidence;
  autoDowngraded: boolean;
} {
  const requested = input.confidence ?? "low";
  const quoteLength = [...(input.sourceQuote ?? "").trim()].length;
  let confidence: MemoryConfidence = requested;
  if (confidence === "high" && quoteLength < HIGH_CONFIDENCE_MIN_QUOTE_CHARS) confidence = "medium";
  if (confidence === "medium" && quoteLength === 0) confidence = "low";
  return { confidence, autoDowngraded: confidence !== requested };
}
