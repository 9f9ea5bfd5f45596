import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { respondForSession } from "./session-respond.js";
import { type ShellSessionResponse, sessionOutput } from "./session-response.js";
import { writableRootsOf } from "./command-sandbox-runner.js";
import { type ShellRuntime, requireSession } from "./shell-runtime.js";
import { WAIT_YIELD, clampInteger } from "./timeout-policy.js";

/** Input of ProcessWait. */
export const processWaitInputSchema = z.object({
  session_id: z.string().min(1).describe("From a Bash result."),
  cursor: z.number().min(0).optional().describe("Output after it is returned (default: the oldest still buffered)."),
  yield_time_ms: z.number().optional().describe("Longest wait in ms (default 30000, 5000..300000)."),
});

const DESCRIPTION = `Waits for a Bash session; returns its new output once the command ends, 64 KiB of output are unread, or yield_time_ms passes. Pass the latest cursor; repeat while the status is running. Only for Bash session ids ("bash-..."); a ManagedProcess has action="wait".`;

/** ProcessWait (chat scope). */
export function createProcessWaitTool(runtime: ShellRuntime): ToolDefinition {
  const tool = defineTool<typeof processWaitInputSchema, ShellSessionResponse>({
    name: "ProcessWait",
    description: DESCRIPTION,
    inputSchema: processWaitInputSchema,
    metadata: {
      groupId: "shell",
      kind: "wait",
      isReadOnly: true,
      displayCategory: "terminal",
      annotations: { readOnly: true, openWorld: true, listedInPlanMode: true },
    },
    scopes: ["chat"],
    handlesAbort: true,
    loopKey: (input) => input.session_id,
    async execute(input, context) {
      const session = requireSession(runtime, input.session_id, writableRootsOf(context));
      const cursor = input.cursor === undefined ? undefined : Math.floor(input.cursor);
      const yieldMs = clampInteger(input.yield_time_ms, WAIT_YIELD.minMs, WAIT_YIELD.maxMs, WAIT_YIELD.defaultMs);
      const { response } = await respondForSession(session, runtime, context, { cursor, cwd: session.cwd, yieldMs });
      return sessionOutput(response);
    },
  });
  // Reading moves nothing a second run would not: the same cursor (or, for a durable session, the same call id) reads the same bytes first.
  return { ...tool, effects: "idempotent" };
}
