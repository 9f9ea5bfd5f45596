/**
 * Runs an in-process hook: `run(input, { signal })` with its timeout
 * (default 60 s); the signal aborts at the timeout or when the call is
 * aborted, and the run then counts as failed even if the function ignores it.
 * The function gets a copy of the input (changing it changes nothing; a
 * rewrite is `hookSpecificOutput.updatedInput`).
 */
import { type HookRunContext, type HookRunOutcome, startHookDeadline, whenAborted } from "./hook-run.js";
import type { FunctionHookHandler, HookInput } from "./hook-settings.js";
import { checkHookOutput } from "./parse-hook-output.js";

/** Runs one function hook; never rejects. */
export async function runFunctionHook(handler: FunctionHookHandler, input: HookInput, context: HookRunContext): Promise<HookRunOutcome> {
  const deadline = startHookDeadline(handler.timeoutMs, context.signal);
  try {
    if (deadline.signal.aborted) return { kind: "failed", error: deadline.why() };
    // A copy: a hook that changes the object it was given must not change the call's input behind the validation of a rewrite.
    const running = Promise.resolve().then(() => handler.run(structuredClone(input), { signal: deadline.signal }));
    const settled = await Promise.race([
      running.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      whenAborted(deadline.signal).then(() => undefined),
    ]);
    if (settled === undefined) {
      running.catch(() => undefined);
      return { kind: "failed", error: deadline.why() };
    }
    if ("error" in settled) {
      const message = settled.error instanceof Error ? settled.error.message : String(settled.error);
      return { kind: "failed", error: `threw: ${message}` };
    }
    const parsed = checkHookOutput(settled.value, input.hook_event_name);
    return "failure" in parsed ? { kind: "failed", error: parsed.failure } : { kind: "answered", output: parsed.output };
  } finally {
    deadline.dispose();
  }
}
