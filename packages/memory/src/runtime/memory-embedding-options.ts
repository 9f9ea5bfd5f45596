/**
 * The fail-closed check of a memory `embedder` option: anything but an
 * `EmbeddingClient` throws `SdkError` naming the option and what is wrong,
 * before the memory opens.
 */
import { SdkError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { MAX_VECTOR_DIMENSION } from "../ports/memory-vector-rules.js";

/** Longest accepted `modelId` (it is stored with every vector). */
export const MAX_EMBEDDING_MODEL_ID_CHARS = 256;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

/** What `value` lacks to be an `EmbeddingClient`, or an empty list when it is one. */
function embeddingClientFaults(value: Record<string, unknown>): string[] {
  const faults: string[] = [];
  if (typeof value.embed !== "function") faults.push("embed is not a function");
  if (typeof value.modelId !== "string" || value.modelId.trim() === "") faults.push("modelId is not a non-empty string");
  else if (value.modelId.length > MAX_EMBEDDING_MODEL_ID_CHARS) faults.push(`modelId is longer than ${MAX_EMBEDDING_MODEL_ID_CHARS} characters`);
  // PostgreSQL's text refuses NUL: a model id every backend stores alike has no control character.
  else if (/\p{Cc}/u.test(value.modelId)) faults.push("modelId holds a control character");
  if (typeof value.dimension !== "number" || !Number.isInteger(value.dimension) || value.dimension < 1) faults.push("dimension is not a positive integer");
  else if (value.dimension > MAX_VECTOR_DIMENSION) faults.push(`dimension is over ${MAX_VECTOR_DIMENSION}, the largest vector the memory stores`);
  if (typeof value.maxBatchSize !== "number" || !Number.isInteger(value.maxBatchSize) || value.maxBatchSize < 1) {
    faults.push("maxBatchSize is not a positive integer");
  }
  return faults;
}

/**
 * Returns `value` as an `EmbeddingClient` (or undefined when absent); throws
 * `SdkError("invalid_options")` with `details.option` = `where` when it is
 * anything else (a string, a model name, an object without `embed`, a
 * dimension of 0 or over 16,384, a model id with a control character or
 * over 256 characters...).
 *
 * @example
 * checkMemoryEmbedder(options.embedder, "memory.embedder"); // throws for "text-embedding-3-small": memory.embedder must be an EmbeddingClient ...
 */
export function checkMemoryEmbedder(value: unknown, where: string): EmbeddingClient | undefined {
  if (value === undefined) return undefined;
  const faults =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? embeddingClientFaults(value as Record<string, unknown>)
      : [`it is ${describe(value)}`];
  if (faults.length === 0) return value as EmbeddingClient;
  throw new SdkError(
    "invalid_options",
    `${where} must be an EmbeddingClient ({ modelId, dimension, maxBatchSize, embed(texts, { signal }) }, e.g. from @agent-tools/models/embeddings or @agent-tools/word-vectors), not ${describe(value)}: ${faults.join(", ")}.`,
    { option: where },
  );
}
