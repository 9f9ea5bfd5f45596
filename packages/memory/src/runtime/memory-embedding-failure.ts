/**
 * What a search says when its vector side failed: a short sentence in the
 * SDK's own words (the error's kind, code and HTTP status), never the
 * provider's free text. A provider's error message can be long and can hold
 * instructions; the tool's answer goes to the model, so only this summary
 * goes there. The whole message stays with the host
 * (`MemoryService.embeddingStatus().lastSearchError`).
 */
import { ModelClientError } from "@agent-tools/core";

/** Longest `vectorError` a search reports (and the memory tool shows). */
export const MEMORY_VECTOR_ERROR_MAX_CHARS = 200;

const WORD = /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/;

/** `value` when it is a short plain word (a code or an error's name), else undefined. */
function plainWord(value: unknown): string | undefined {
  return typeof value === "string" && WORD.test(value) ? value : undefined;
}

/**
 * `text` on one line, without control characters, cut at
 * {@link MEMORY_VECTOR_ERROR_MAX_CHARS} (an ellipsis marks the cut).
 *
 * @example
 * capVectorError("the embedder failed (http_error 500)"); // unchanged
 */
export function capVectorError(text: string): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (line.length <= MEMORY_VECTOR_ERROR_MAX_CHARS) return line;
  const end = MEMORY_VECTOR_ERROR_MAX_CHARS - 1;
  const last = line.charCodeAt(end - 1);
  return `${line.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end)}…`;
}

/**
 * The `vectorError` of a search whose query embedding or vector read
 * threw `error`: which side failed and the error's kind (`code`, HTTP
 * status, or its class name), at most {@link MEMORY_VECTOR_ERROR_MAX_CHARS}
 * characters and none of the error's message.
 *
 * @example
 * describeVectorFailure(new ModelClientError("http_error", "...", { status: 500 }), "embedder");
 * // "the embedder failed (http_error, HTTP 500)"
 */
export function describeVectorFailure(error: unknown, side: "embedder" | "vector index"): string {
  if (error instanceof ModelClientError) {
    const status = error.status;
    return capVectorError(`the ${side} failed (${error.code}${typeof status === "number" && Number.isInteger(status) ? `, HTTP ${status}` : ""})`);
  }
  const code = plainWord((error as { code?: unknown } | null)?.code);
  const name = plainWord((error as { name?: unknown } | null)?.name);
  const kind = code ?? (name !== undefined && name !== "Error" ? name : undefined);
  // The store's dimension mismatch (numbers only): the model id kept its name but changed its dimension.
  const details = (error as { details?: { expected?: unknown; actual?: unknown } } | null)?.details;
  const mismatch =
    Number.isInteger(details?.expected) && Number.isInteger(details?.actual)
      ? `: stored vectors of this model have ${details?.expected} components, the query ${details?.actual}`
      : "";
  return capVectorError(`the ${side} failed${kind === undefined ? "" : ` (${kind}${mismatch})`}`);
}
