/**
 * Which task list a call of the web host works on. One registry serves every
 * conversation of the page, so the registry cannot pick the list itself: each
 * turn passes its conversation and message as the calls' `hostContext`, and
 * {@link webTaskRun} keys the list by the workdir and the conversation, with
 * the user message as the run (a new turn starts a fresh list, as a new run
 * does in every host).
 */
import { type ToolContext, ToolError } from "@agent-tools/core";
import { workdirTaskListKey } from "@agent-tools/sdk";

/** What a web turn passes to every tool call as `hostContext`. */
export interface WebTurnContext {
  readonly conversationId: string;
  readonly messageId: string;
}

/**
 * The `tasks.run` of the web host's registry: one list per workdir and
 * conversation, one run per user message. A call without a turn's context
 * (none is made by this example) is refused rather than filed under a
 * shared list.
 *
 * @example
 * const registry = await buildBuiltinToolRegistry({ workdir, dataDir, tasks: { run: webTaskRun } });
 * await registry.executeToolCall(call, { hostContext: { conversationId: "c1", messageId: "m1" } satisfies WebTurnContext });
 */
export function webTaskRun(context: ToolContext): { conversationId: string; runId: string } {
  const turn = context.hostContext as Partial<WebTurnContext> | undefined;
  if (typeof turn?.conversationId !== "string" || typeof turn.messageId !== "string") {
    throw new ToolError("unavailable", "This task tool call came without its conversation (the host passes none), so it has no task list.", {
      recoverable: false,
    });
  }
  return { conversationId: workdirTaskListKey(context.workdir, turn.conversationId), runId: turn.messageId };
}
