import type { ToolContext } from "@agent-tools/core";
import type { OutputPage } from "./output-ring-buffer.js";
import { type ShellSessionResponse, buildSessionResponse } from "./session-response.js";
import { type ShellRuntime, displayCwd, withTimeLimit } from "./shell-runtime.js";
import type { ResumableSession } from "./resumable-session.js";

/** How long a stop (ProcessStop, or a stop after an abort) may take before the call returns anyway. */
export const STOP_WAIT_MS = 5_000;

/** What {@link respondForSession} does before it reads. */
export interface SessionRespondOptions {
  /** Output after this cursor is returned; undefined: the oldest output still buffered. */
  cursor: number | undefined;
  /** The working directory to show (absolute; displayed through the path policy). */
  cwd: string;
  /** Wait up to this long for the session (Bash start, ProcessWait); absent: stop it now (ProcessStop). */
  yieldMs?: number;
}

/**
 * The one way Bash, ProcessWait and ProcessStop settle a session and answer:
 * either wait (streaming output to `onUpdate`; an abort stops the whole tree
 * and reports `cancelled`) or stop it, then read the page after `cursor` and
 * build the response.
 *
 * @example
 * const { response } = await respondForSession(session, runtime, context, { cursor: 0, cwd, yieldMs: 10_000 });
 * return sessionOutput(response);
 */
export async function respondForSession(
  session: ResumableSession,
  runtime: ShellRuntime,
  context: ToolContext,
  options: SessionRespondOptions,
): Promise<{ response: ShellSessionResponse; page: OutputPage }> {
  let aborted = false;
  // A durable session reads on from its persisted cursor when the model gave none.
  const cursor = session.beginRead ? session.beginRead(context.callId, options.cursor) : options.cursor;
  if (options.yieldMs === undefined) {
    // Stopping a session that already ended still ends what it left running in the background.
    await withTimeLimit(session.isTerminal ? session.endTree() : session.terminate("cancelled"), STOP_WAIT_MS);
  } else {
    session.stopOnAbort(context.signal);
    const detach = session.stream(context.onUpdate);
    try {
      const outcome = await session.wait(cursor ?? session.buffer.oldestCursor, options.yieldMs, context.signal);
      aborted = outcome === "aborted" || context.signal.aborted;
      if (aborted) await withTimeLimit(session.terminate("cancelled"), STOP_WAIT_MS);
    } finally {
      detach();
    }
  }
  const page = session.read(cursor);
  // Persisted before the model gets the page, so a host killed now loses no byte of it.
  session.endRead?.(context.callId, page.start, page.cursor);
  const response = buildSessionResponse(session, page, runtime.info, displayCwd(context, options.cwd), aborted ? "cancelled" : undefined);
  if (options.yieldMs !== undefined) response.yield_time_ms = options.yieldMs;
  return { response, page };
}
