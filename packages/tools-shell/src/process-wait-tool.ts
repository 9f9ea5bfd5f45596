import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { respondForSession } from "./session-respond.js";
import { type ShellSessionResponse, sessionOutput } from "./session-response.js";
import { type ShellRuntime, requireSession } from "./shell-runtime.js";
import { WAIT_YIELD, clampInteger } from "./timeout-policy.js";

/** Input of ProcessWait. */
export const processWaitInputSchema = z.object({
  session_id: z.string().min(1).describe("The session_id a Bash result returned."),
  cursor: z
    .number()
    .min(0)
    .optional()
    .describe("The cursor of the previous result for this session; output after it is returned. Default: the oldest output still buffered."),
  yield_time_ms: z.number().optional().describe("Longest wait in ms (default 30000, clamped to 5000..300000). Use 60000 or more for long quiet commands."),
});

const DESCRIPTION = `Waits for a running Bash session and returns its new output.

Returns as soon as the command ends, or 64 KiB of unread output are buffered, or yield_time_ms passes (default 30000, 5000..300000). Pass the cursor from the previous Bash/ProcessWait result each time; the result gives the next cursor. Repeat until status is completed, failed, cancelled or timed_out. output_truncated: true means output older than the 1 MiB buffer was dropped before you read it. session_duration_ms is the total time since the Bash start (do not add values). Only for Bash session ids ("bash-..."); ManagedProcess ids use ManagedProcess(action="wait").`;

/** ProcessWait (chat scope). */
export function createProcessWaitTool(runtime: ShellRuntime): ToolDefinition {
  return defineTool<typeof processWaitInputSchema, ShellSessionResponse>({
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
      const session = requireSession(runtime, input.session_id);
      const cursor = input.cursor === undefined ? undefined : Math.floor(input.cursor);
      const yieldMs = clampInteger(input.yield_time_ms, WAIT_YIELD.minMs, WAIT_YIELD.maxMs, WAIT_YIELD.defaultMs);
      const { response } = await respondForSession(session, runtime, context, { cursor, cwd: session.cwd, yieldMs });
      return sessionOutput(response);
    },
  });
}
