import { ToolError, isAbortError } from "@agent-tools/core";

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
