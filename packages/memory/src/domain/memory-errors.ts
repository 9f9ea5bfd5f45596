import type { MemoryScope } from "./memory-types.js";

/**
 * The JSON answer a memory tool gives the model when it refuses a call. The
 * `error` code is stable; `message` is for the model; `suggestion` holds a
 * corrected value and `suggested_next_call` the arguments of a call that
 * helps (e.g. listing a full scope).
 */
export interface MemoryToolErrorJson {
  error: string;
  message: string;
  suggestion?: string;
  suggested_next_call?: Record<string, unknown>;
}

/** Stable error codes of the memory tool answers. */
export const MEMORY_ERROR_CODES = [
  "slug_invalid",
  "quota_exceeded",
  "risk_hard_blocked",
  "body_too_large",
  "daily_not_writable",
  "read_only",
  "not_found",
  "conflict",
] as const;
/** One stable error code of a memory tool answer. */
export type MemoryErrorCode = (typeof MEMORY_ERROR_CODES)[number];

/** The exact text of the refusal of a mutating action in read-only mode. */
export const MEMORY_READ_ONLY_MESSAGE = "MemoryManager is read-only in this context.";

/**
 * A slug that breaks the slug rule; `suggestion` is a valid slug derived from
 * it, when one could be derived.
 *
 * @example
 * slugInvalid("A!", "lowercase letters, digits and -, 3-64 characters");
 */
export function slugInvalid(raw: string, reason: string, suggestion?: string): MemoryToolErrorJson {
  const answer: MemoryToolErrorJson = {
    error: "slug_invalid",
    message: `Invalid slug ${JSON.stringify(raw)}: ${reason}.${suggestion === undefined ? "" : ` Try ${JSON.stringify(suggestion)}.`}`,
  };
  if (suggestion !== undefined) answer.suggestion = suggestion;
  return answer;
}

/**
 * A scope holds its maximum of non-daily entries. The suggested call lists the
 * scope so the model can pick entries to delete or update instead.
 */
export function quotaExceeded(scope: MemoryScope, count: number, limit = 500): MemoryToolErrorJson {
  return {
    error: "quota_exceeded",
    message: `The ${scope} memory holds ${count} entries (limit ${limit}). Delete or update an existing entry instead of writing a new one.`,
    suggested_next_call: { action: "list", scope, limit: 32 },
  };
}

/** The content holds a secret (key, token, private key): nothing was stored. */
export function riskHardBlocked(reasons: readonly string[]): MemoryToolErrorJson {
  return {
    error: "risk_hard_blocked",
    message: `Nothing was stored: the content looks like it holds a secret (${reasons.join(", ")}). Remove it and write again without it.`,
  };
}

/** A body past its byte limit (UTF-8 bytes). */
export function bodyTooLarge(limit: number, actual: number): MemoryToolErrorJson {
  return {
    error: "body_too_large",
    message: `The body is ${actual} bytes; the limit is ${limit} bytes (UTF-8). Shorten it or split it into several entries.`,
  };
}

/** A write or update aimed at a daily journal, which only appends maintain. */
export function dailyNotWritable(): MemoryToolErrorJson {
  return {
    error: "daily_not_writable",
    message: "daily journals are append-managed: they cannot be written or updated directly.",
  };
}

/** A mutating action called where the tool is read-only. */
export function readOnlyMode(): MemoryToolErrorJson {
  return { error: "read_only", message: MEMORY_READ_ONLY_MESSAGE };
}

/** No entry under that key. */
export function notFound(key: string): MemoryToolErrorJson {
  return {
    error: "not_found",
    message: `No memory entry ${key}. Use action "list" or "search" to find the right slug and scope.`,
  };
}

/** Another writer changed the entry first: re-read it and retry. */
export function conflict(key: string): MemoryToolErrorJson {
  return {
    error: "conflict",
    message: `Memory entry ${key} was changed by another writer meanwhile. Read it again and retry the change.`,
  };
}
