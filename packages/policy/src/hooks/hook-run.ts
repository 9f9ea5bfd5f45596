/**
 * What every hook runner shares: the context a run gets, its outcome, and the
 * timeout + abort signal of one run.
 */
import type { ProcessRunner, RunningProcess } from "@agent-tools/core";
import type { HookOutput } from "./hook-settings.js";
import { DEFAULT_HOOK_TIMEOUT_MS } from "./hook-settings.js";

/** What a runner needs besides the hook and its input. */
export interface HookRunContext {
  /** The registry's workdir (a command hook's default cwd). */
  readonly workdir: string;
  /** The call's signal: aborting it aborts the hook. */
  readonly signal: AbortSignal;
  /** For command hooks. */
  readonly processRunner?: ProcessRunner | undefined;
  /** The command hooks running now (their owner kills them when it closes). */
  readonly running: Set<RunningProcess>;
}

/**
 * How one hook run ended: an answer (possibly empty), a block (a command's
 * exit 2, with stderr as the reason), or a failure (why).
 */
export type HookRunOutcome =
  | { readonly kind: "answered"; readonly output: HookOutput }
  | { readonly kind: "blocked"; readonly reason: string }
  | { readonly kind: "failed"; readonly error: string };

/** One run's signal: aborted by the call's signal or when the timeout passes. */
export interface HookDeadline {
  readonly signal: AbortSignal;
  /** Why the run was aborted, in words ("timed out after 60000 ms", "was aborted"). */
  why(): string;
  /** Clears the timer. */
  dispose(): void;
}

/** Starts the timeout of one run (`timeoutMs`, default 60 s) joined with the call's signal. */
export function startHookDeadline(timeoutMs: number | undefined, callSignal: AbortSignal): HookDeadline {
  const limit = timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const onCallAbort = (): void => controller.abort(callSignal.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The hook timed out after ${limit} ms.`, "TimeoutError"));
  }, limit);
  if (callSignal.aborted) onCallAbort();
  else callSignal.addEventListener("abort", onCallAbort, { once: true });
  return {
    signal: controller.signal,
    why: () => (timedOut ? `timed out after ${limit} ms` : "was aborted"),
    dispose: () => {
      clearTimeout(timer);
      callSignal.removeEventListener("abort", onCallAbort);
    },
  };
}

/** A promise that resolves when `signal` aborts (never rejects). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** A short, single-line excerpt of text for a reason or log line. */
export function excerpt(text: string, limit = 300): string {
  const flat = text.trim().replace(/\s+/g, " ");
  return flat.length > limit ? `${flat.slice(0, limit)}...` : flat;
}
