import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { respondForSession } from "./session-respond.js";
import { type ShellSessionResponse, sessionOutput } from "./session-response.js";
import { writableRootsOf } from "./command-sandbox-runner.js";
import { type ShellRuntime, requireSession } from "./shell-runtime.js";

/** Input of ProcessStop. */
export const processStopInputSchema = z.object({
  session_id: z.string().min(1).describe("From a Bash result."),
  cursor: z.number().min(0).optional().describe("The latest cursor."),
});

const DESCRIPTION = `Stops a Bash session: kills its whole process tree (SIGTERM, then SIGKILL), waits up to 5 s and returns the output after cursor; the status becomes cancelled (not an error). On an ended session it kills background processes left behind.`;

/** ProcessStop (chat scope). */
export function createProcessStopTool(runtime: ShellRuntime): ToolDefinition {
  const tool = defineTool<typeof processStopInputSchema, ShellSessionResponse>({
    name: "ProcessStop",
    description: DESCRIPTION,
    inputSchema: processStopInputSchema,
    metadata: {
      groupId: "shell",
      kind: "stop",
      isReadOnly: false,
      displayCategory: "terminal",
      annotations: { readOnly: false, destructive: true, openWorld: true, listedInPlanMode: false },
    },
    scopes: ["chat"],
    handlesAbort: true,
    loopKey: (input) => input.session_id,
    async execute(input, context) {
      const session = requireSession(runtime, input.session_id, writableRootsOf(context));
      const cursor = input.cursor === undefined ? undefined : Math.floor(input.cursor);
      const { response } = await respondForSession(session, runtime, context, { cursor, cwd: session.cwd });
      return sessionOutput(response);
    },
  });
  // Stopping a stopped session again changes nothing.
  return { ...tool, effects: "idempotent" };
}
