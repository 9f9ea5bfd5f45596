import { ToolError, isAbortError } from "@agent-tools/core";

/**
 * Runs an interaction tool's host callback; when it throws, rethrows
 * {@link hostFailure} of the error.
 *
 * @example
 * const response = await callHost("AskUserQuestion", "ask the user", context.signal, () => ask.call(host, request, { signal: context.signal }));
 */
export async function callHost<T>(toolName: string, what: string, signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw hostFailure(toolName, what, error, signal);
  }
}

/**
 * The error of an interaction tool whose host callback threw: after an abort
 * the call's own cancellation (the executor reports it), else a ToolError
 * that names the tool and says what the model can do instead.
 *
 * @example
 * throw hostFailure("AskUserQuestion", "ask the user", error, context.signal);
 */
export function hostFailure(toolName: string, what: string, error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || isAbortError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("unavailable", `${toolName} could not ${what}: the host failed (${reason.slice(0, 500)}). Continue in your reply instead.`, {
    details: { hostError: reason.slice(0, 500) },
  });
}
