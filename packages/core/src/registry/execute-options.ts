import { SdkError } from "../errors.js";
import type { ExecuteToolCallOptions } from "./execute-tool-call.js";

/**
 * Checks the per-call options a host passed to `executeToolCall`: `undefined`
 * and `null` mean none; anything else must be an object whose `signal` is an
 * AbortSignal and whose `onUpdate` / `onEvent` are functions. A wrong value
 * is host misuse, so it throws `SdkError("invalid_options")` naming the
 * option instead of letting the tool fail later for an unrelated-looking
 * reason.
 *
 * @example
 * const options = checkExecuteOptions(callOptions); // throws for { signal: {} }
 */
export function checkExecuteOptions(options: unknown): ExecuteToolCallOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new SdkError(
      "invalid_options",
      `executeToolCall's second argument must be an options object ({ signal, onUpdate, onEvent, hostContext }) or omitted, not ${Array.isArray(options) ? "an array" : typeof options}.`,
    );
  }
  const { signal, onUpdate, onEvent } = options as Record<string, unknown>;
  if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
    throw new SdkError("invalid_options", "executeToolCall's `signal` must be an AbortSignal (e.g. `new AbortController().signal`) or omitted.");
  }
  for (const [name, value] of [
    ["onUpdate", onUpdate],
    ["onEvent", onEvent],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== "function") {
      throw new SdkError("invalid_options", `executeToolCall's \`${name}\` must be a function or omitted, not ${typeof value}.`);
    }
  }
  const checked = options as ExecuteToolCallOptions;
  // null for an optional member means "not given", as it does for the options themselves.
  if (signal === null || onUpdate === null || onEvent === null) {
    return { ...checked, signal: signal ?? undefined, onUpdate: onUpdate ?? undefined, onEvent: onEvent ?? undefined } as ExecuteToolCallOptions;
  }
  return checked;
}

/**
 * An AbortSignal of this realm, or one from another realm or a polyfill that
 * behaves as one (the members the executor uses).
 */
function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  const candidate = value as { aborted?: unknown; addEventListener?: unknown; removeEventListener?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.aborted === "boolean" &&
    typeof candidate.addEventListener === "function" &&
    typeof candidate.removeEventListener === "function"
  );
}
