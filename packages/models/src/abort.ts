import { isAbortError } from "@agent-tools/core";

/** An AbortError for `signal`: its reason when that already is one, else a fresh DOMException. */
export function abortErrorFor(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && isAbortError(reason)) return reason;
  return new DOMException("The model request was aborted.", "AbortError");
}

/** Throws the AbortError of `signal` when it is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortErrorFor(signal);
}

/**
 * Settles like `promise`, or rejects with an AbortError as soon as `signal`
 * aborts (the promise itself keeps running; callers cancel their own work).
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(promise);
  if (signal.aborted) return Promise.reject(abortErrorFor(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortErrorFor(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? abortErrorFor(signal) : error);
      },
    );
  });
}

/** Maps the finish reasons of OpenAI-style and AI SDK providers onto the port's. */
export function normaliseFinishReason(raw: unknown, hasToolCalls: boolean): "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other" {
  if (hasToolCalls) return "tool-calls";
  switch (raw) {
    case "stop":
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_calls":
    case "tool-calls":
    case "function_call":
    case "tool_use":
      return "tool-calls";
    case "length":
    case "max_tokens":
      return "length";
    case "content_filter":
    case "content-filter":
      return "content-filter";
    case "error":
      return "error";
    default:
      return "other";
  }
}
