/**
 * What the memory embeds of an entry, and the vector arithmetic around the
 * port: the text (description, a newline, the body, capped) and unit
 * length normalisation.
 */
import type { MemoryRecord } from "../domain/memory-types.js";

/**
 * The embedded text is cut at this many UTF-16 code units: every non-daily
 * entry (a description of at most 120 characters and a body of at most
 * 8 KB) fits whole; a daily journal (up to 32 KB, appended to at its end)
 * is embedded by its description and the last characters of its body, so
 * the newest appends count. Small enough for an 8,191-token model
 * (OpenAI's), which reads English at about 4 characters a token; a model
 * with a shorter window truncates (or its adapter does).
 */
export const MEMORY_EMBEDDING_TEXT_MAX_CHARS = 8_192;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * What the memory embeds of an entry: `description + "\n" + body`, at most
 * {@link MEMORY_EMBEDDING_TEXT_MAX_CHARS}. A longer one is cut at its end,
 * except a daily journal's: its description is kept and its body is cut at
 * its start (the journal's tail, its newest appends, is embedded). Never
 * inside a surrogate pair.
 *
 * @example
 * memoryEmbeddingText({ type: "user", description: "Editor", body: "Tabs, width 2." }); // "Editor\nTabs, width 2."
 */
export function memoryEmbeddingText(record: Pick<MemoryRecord, "description" | "body"> & { readonly type?: MemoryRecord["type"] }): string {
  const whole = `${record.description}\n${record.body}`;
  if (whole.length <= MEMORY_EMBEDDING_TEXT_MAX_CHARS || record.type !== "daily") return capEmbeddingText(whole);
  const head = `${capEmbeddingText(record.description).slice(0, MEMORY_EMBEDDING_TEXT_MAX_CHARS / 2)}\n`;
  let start = record.body.length - (MEMORY_EMBEDDING_TEXT_MAX_CHARS - head.length);
  if (isLowSurrogate(record.body.charCodeAt(start))) start += 1;
  return `${head}${record.body.slice(start)}`;
}

/** `text` cut at {@link MEMORY_EMBEDDING_TEXT_MAX_CHARS} (never inside a surrogate pair): what an entry or a search query sends to the embedder. */
export function capEmbeddingText(text: string): string {
  if (text.length <= MEMORY_EMBEDDING_TEXT_MAX_CHARS) return text;
  let end = MEMORY_EMBEDDING_TEXT_MAX_CHARS;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

/**
 * `vector` scaled to unit length, or undefined when it has no direction
 * (every component 0) or a component that is not finite.
 */
export function unitVector(vector: Float32Array): Float32Array | undefined {
  let sum = 0;
  for (const value of vector) {
    if (!Number.isFinite(value)) return undefined;
    sum += value * value;
  }
  const length = Math.sqrt(sum);
  if (!(length > 0) || !Number.isFinite(length)) return undefined;
  const unit = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) unit[index] = vector[index]! / length;
  return unit;
}
