import { isAbortError } from "./errors.js";

/**
 * What an aborted signal rejects with: its `reason` (an `AbortError`
 * DOMException when `abort()` was called without one, or whatever the
 * caller passed), or a fresh `AbortError` for a signal with no reason (a
 * foreign AbortSignal implementation).
 *
 * @example
 * const controller = new AbortController();
 * controller.abort(new Error("user pressed Ctrl-C"));
 * abortReason(controller.signal); // Error: user pressed Ctrl-C
 */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted.", "AbortError");
}

/**
 * Settles like `promise`, or rejects as soon as `signal` aborts, whichever
 * comes first. The work behind `promise` keeps running: cancel it in
 * `onAbort` or through the same signal. The abort listener is removed when
 * the promise settles, so a long-lived signal does not collect one listener
 * per call; a late rejection of `promise` after the abort is handled (it
 * never surfaces as an unhandled rejection).
 *
 * An already aborted signal rejects at once. Without a signal the promise
 * is returned as it is.
 *
 * @param onAbort called once, with the signal's reason, when the abort wins;
 * what it returns is the rejection (default: the reason itself). Use it to
 * stop the work or to turn the reason into your own error.
 *
 * @example
 * const body = await raceWithAbort(response.text(), signal);
 * const output = await raceWithAbort(tool.execute(input), signal, () => new ToolError("cancelled", "Cancelled."));
 */
export function raceWithAbort<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined, onAbort?: (reason: unknown) => unknown): Promise<T> {
  const running = Promise.resolve(promise);
  if (signal === undefined) return running;
  const rejection = (): unknown => {
    const reason = abortReason(signal);
    return onAbort ? onAbort(reason) : reason;
  };
  if (signal.aborted) {
    running.catch(() => undefined); // nobody awaits it any more
    return Promise.reject(rejection());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(rejection());
    signal.addEventListener("abort", abort, { once: true });
    running.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** An `AbortError` for `signal`: its reason when that already is one, else a fresh DOMException named AbortError. */
export function abortErrorFor(signal: AbortSignal | undefined, message = "The operation was aborted."): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && isAbortError(reason)) return reason;
  return new DOMException(message, "AbortError");
}

/** Throws the `AbortError` of `signal` when it is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, message?: string): void {
  if (signal?.aborted) throw abortErrorFor(signal, message);
}

/**
 * {@link raceWithAbort} for callers that always want an `AbortError` once the
 * signal has fired: an abort, or a rejection of `promise` after the abort
 * (work that failed because it was cancelled), rejects with
 * {@link abortErrorFor}.
 */
export function raceAbortError<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined, message?: string): Promise<T> {
  return raceWithAbort(promise, signal, () => abortErrorFor(signal, message)).catch((error: unknown) => {
    throw signal?.aborted ? abortErrorFor(signal, message) : error;
  });
}
