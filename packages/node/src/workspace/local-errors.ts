/**
 * Errors of the local workspace: a closed workspace, an aborted operation,
 * and the mapping of whatever a Node `fs` call threw onto a WorkspaceError.
 */
import { SdkError } from "@agent-tools/core";
import { WorkspaceError, workspaceErrorFromErrno } from "@agent-tools/core/workspace";

/** The rejection of every operation after `close()`. */
export function closedError(operation: string, path?: string): WorkspaceError {
  return new WorkspaceError("closed", `${operation}: the local workspace is closed.`, { operation, path });
}

/** An `AbortError`-named error for an aborted signal (its own reason when that already is one). */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("The operation was aborted.", { name: "AbortError", cause: reason });
}

/** Throws {@link abortError} when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** Runs one `fs` operation, mapping a failure onto a WorkspaceError (an abort and an SdkError for misuse pass through). */
export async function mapErrno<T>(operation: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SdkError || (error as { name?: unknown } | null)?.name === "AbortError") throw error;
    throw workspaceErrorFromErrno(error, operation, path);
  }
}
