import { toCheckedVectors } from "./embedding-vectors.js";
import type { RawEmbedding } from "./embedding-vectors.js";

/**
 * Reads the JSON of an OpenAI `/embeddings` answer
 * (`{ data: [{ index, embedding }, ...] }`): puts the items in `index`
 * order, then checks count, length and finiteness. Items without any
 * `index` keep the order they came in (some servers leave it out); a mix,
 * a duplicate or an index out of range is refused.
 *
 * @returns the vectors, or the reason the answer is refused.
 */
export function parseEmbeddingsResponse(json: unknown, expectedCount: number, dimension: number): Float32Array[] | string {
  if (!json || typeof json !== "object" || Array.isArray(json)) return "the body is not a JSON object";
  const data = (json as { data?: unknown }).data;
  if (!Array.isArray(data)) return `"data" is ${data === undefined ? "missing" : "not an array"}`;
  const items: { index: unknown; embedding: RawEmbedding }[] = [];
  for (const item of data) {
    if (!item || typeof item !== "object") return 'an item of "data" is not an object';
    items.push({ index: (item as { index?: unknown }).index, embedding: (item as { embedding?: unknown }).embedding });
  }
  const indexed = items.filter((item) => item.index !== undefined).length;
  let ordered: RawEmbedding[];
  if (indexed === 0) ordered = items.map((item) => item.embedding);
  else if (indexed !== items.length) return 'some items of "data" have an index and some do not';
  else {
    ordered = new Array<RawEmbedding>(items.length);
    const seen = new Set<number>();
    for (const item of items) {
      const index = item.index;
      if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= items.length) {
        return `an item's index ${JSON.stringify(index)} is not an integer from 0 to ${items.length - 1}`;
      }
      if (seen.has(index)) return `index ${index} appears twice`;
      seen.add(index);
      ordered[index] = item.embedding;
    }
  }
  return toCheckedVectors(ordered, expectedCount, dimension);
}
