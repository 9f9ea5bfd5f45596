import { SdkError, type ToolResult } from "@agent-tools/core";
import { type CallLedgerCall, type CallLedgerKey, TOOL_EFFECTS, type ToolEffects } from "@agent-tools/core/durable";

/** The longest run id, call id, tool name or arguments hash the ledger stores (UTF-16 code units). */
export const CALL_LEDGER_MAX_KEY_LENGTH = 200;

/** The default `limit` of `CallLedger.list`. */
export const CALL_LEDGER_DEFAULT_LIST_LIMIT = 1000;
/** The largest `limit` of `CallLedger.list`. */
export const CALL_LEDGER_MAX_LIST_LIMIT = 100_000;

/** The outcome `CallLedger.finish` records. */
export interface CallLedgerOutcome {
  readonly state: "completed" | "failed";
  readonly result: ToolResult;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function invalid(option: string, message: string, details: Record<string, unknown> = {}): SdkError {
  return new SdkError("invalid_options", `CallLedger: \`${option}\` ${message}`, { option, ...details });
}

/**
 * Checks one text field of a key or call: a non-empty, well-formed string of
 * at most 200 code units with no NUL (PostgreSQL's text cannot hold NUL and
 * would mangle a lone surrogate, so every backend refuses both alike).
 */
export function checkLedgerText(option: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0) throw invalid(option, "must be a non-empty string.", { received: typeof value });
  if (value.length > CALL_LEDGER_MAX_KEY_LENGTH)
    throw invalid(option, `must be at most ${CALL_LEDGER_MAX_KEY_LENGTH} characters; shorten it (a hash of a long id fits).`, { length: value.length });
  if (value.includes("\u0000") || LONE_SURROGATE.test(value)) throw invalid(option, "must not contain NUL characters or lone surrogates.");
  return value;
}

/** Checks a key (`runId`, `callId`); throws `SdkError("invalid_options")`. */
export function checkLedgerKey(key: CallLedgerKey): CallLedgerKey {
  if (typeof key !== "object" || key === null) throw invalid("key", "must be an object with `runId` and `callId`.");
  return { runId: checkLedgerText("runId", key.runId), callId: checkLedgerText("callId", key.callId) };
}

/** Checks a call: its key, `toolName`, `argumentsHash` and `effects`. Answers a plain copy holding only those fields. */
export function checkLedgerCall(call: CallLedgerCall): CallLedgerCall {
  const key = checkLedgerKey(call);
  const effects = call.effects as ToolEffects;
  if (!TOOL_EFFECTS.includes(effects)) throw invalid("effects", `must be one of ${TOOL_EFFECTS.join(", ")}.`, { received: String(effects) });
  return { ...key, toolName: checkLedgerText("toolName", call.toolName), argumentsHash: checkLedgerText("argumentsHash", call.argumentsHash), effects };
}

/** Checks an attempt count: `expectedAttempts` may be 0, `attempt` (of finish) at least 1. */
export function checkAttempts(option: "expectedAttempts" | "attempt", value: unknown): number {
  const minimum = option === "attempt" ? 1 : 0;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum)
    throw invalid(option, `must be an integer >= ${minimum}.`, { received: typeof value === "number" ? value : typeof value });
  return value;
}

/** Checks `list`'s limit; undefined is the default 1,000. */
export function checkListLimit(limit: unknown): number {
  if (limit === undefined) return CALL_LEDGER_DEFAULT_LIST_LIMIT;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1 || limit > CALL_LEDGER_MAX_LIST_LIMIT)
    throw invalid("limit", `must be an integer from 1 to ${CALL_LEDGER_MAX_LIST_LIMIT}; page with smaller run ids or delete finished runs.`, {
      received: typeof limit === "number" ? limit : typeof limit,
    });
  return limit;
}

/** Checks a finish outcome: state `completed` or `failed`, a result object. Answers the result as JSON text. */
export function checkOutcome(outcome: CallLedgerOutcome): { state: "completed" | "failed"; resultJson: string } {
  if (typeof outcome !== "object" || outcome === null) throw invalid("outcome", "must be an object with `state` and `result`.");
  if (outcome.state !== "completed" && outcome.state !== "failed")
    throw invalid("state", "must be `completed` or `failed`.", { received: String(outcome.state) });
  return { state: outcome.state, resultJson: resultToJson(outcome.result) };
}

/**
 * The result as JSON text, the form every backend stores: a result that is
 * not an object with a `content` array, or that JSON cannot write (a cycle, a
 * BigInt), is `SdkError("invalid_options")`. Values JSON drops (undefined,
 * functions) are dropped, as a reader of the stored JSON would see them.
 */
export function resultToJson(result: ToolResult): string {
  if (typeof result !== "object" || result === null || !Array.isArray(result.content))
    throw invalid("result", "must be a ToolResult (an object with a `content` array).");
  let text: string | undefined;
  try {
    text = JSON.stringify(result);
  } catch (error) {
    throw invalid("result", `is not JSON-serialisable (${error instanceof Error ? error.message : String(error)}); keep details to plain data.`);
  }
  if (typeof text !== "string") throw invalid("result", "is not JSON-serialisable.");
  return text;
}

/** The result a store reads back from its JSON text. */
export function resultFromJson(text: string): ToolResult {
  return JSON.parse(text) as ToolResult;
}

/**
 * The error of `start(call, N > 0)` for a call with no entry: there is no
 * attempt N to take over (the run was deleted, or the host guessed N).
 */
export function noEntryToRestart(key: CallLedgerKey, expectedAttempts: number): SdkError {
  return invalid("expectedAttempts", `is ${expectedAttempts} but ${key.runId}/${key.callId} has no entry; start a new call with 0.`, {
    runId: key.runId,
    callId: key.callId,
  });
}
