import { randomUUID } from "node:crypto";
import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { respondForSession } from "./session-respond.js";
import { type ShellSessionResponse, sessionOutput } from "./session-response.js";
import { resolveCommandCwd } from "./shell-environment.js";
import { EXECUTE_METADATA, type ShellRuntime, checkCommand, commandEnvironment } from "./shell-runtime.js";
import { SESSION_YIELD, clampInteger, resolveSessionTimeout } from "./timeout-policy.js";

/** Input of the resumable Bash tool (chat scope). */
export const bashSessionInputSchema = z.object({
  command: z.string().describe("The shell command line (bash). Runs in its own process group."),
  cwd: z
    .string()
    .optional()
    .describe("Working directory: workspace-relative, skill://<name>/..., or absolute. Default: the workspace root. root:// is not accepted."),
  timeout_ms: z
    .number()
    .optional()
    .describe("Optional hard limit in ms (clamped to 1000..600000); when reached the whole process tree is killed and status is timed_out. Default: none."),
  yield_time_ms: z.number().optional().describe("How long this call waits before returning a running session (default 10000, clamped to 250..30000)."),
});

const DESCRIPTION = `Runs a shell command (bash) in the workspace and returns its output.

The command runs in a resumable session: this call waits up to yield_time_ms (default 10000 ms, 250..30000). If the command is still running then, the result has status "running", a session_id and a cursor; continue with ProcessWait(session_id, cursor) using the latest cursor each time, and stop it with ProcessStop(session_id). Never start the same command again and never use "sleep" to wait.

Statuses: running, completed (exit 0), failed (non-zero exit or could not start), cancelled (ProcessStop or the user stopped it; not an error), timed_out (hit timeout_ms).
- Output of stdout and stderr is kept in arrival order in a 1 MiB buffer; each result returns at most 64 KiB. output_truncated: true means older output was dropped before you read it; has_more: true means more output is already buffered.
- session_duration_ms counts from the original Bash start; never add values from several results.
- A bare "&" background job is refused unless it redirects both stdout and stderr; for long-running servers use ManagedProcess.
- Commands starting with "sleep N" (N >= 2) are refused: use ProcessWait.`;

/** The resumable Bash tool of the chat scope. */
export function createBashSessionTool(runtime: ShellRuntime): ToolDefinition {
  return defineTool<typeof bashSessionInputSchema, ShellSessionResponse>({
    name: "Bash",
    description: DESCRIPTION,
    inputSchema: bashSessionInputSchema,
    metadata: EXECUTE_METADATA,
    scopes: ["chat"],
    handlesAbort: true,
    loopKey: (input) => input.command,
    async execute(input, context) {
      const cwd = resolveCommandCwd(context, input.cwd, "Bash cwd");
      await checkCommand(runtime, "Bash", input.command, cwd, input.cwd, "resumable");
      const yieldMs = clampInteger(input.yield_time_ms, SESSION_YIELD.minMs, SESSION_YIELD.maxMs, SESSION_YIELD.defaultMs);
      const session = runtime.sessions.start({
        id: `bash-${randomUUID()}`,
        command: input.command,
        cwd,
        shell: runtime.info.shell,
        runner: context.ports.processRunner,
        timeoutMs: resolveSessionTimeout(input.timeout_ms),
        env: commandEnvironment(runtime),
      });
      const { response, page } = await respondForSession(session, runtime, context, { cursor: 0, cwd, yieldMs });
      return sessionOutput(response, session.isTerminal && !page.hasMore);
    },
  });
}
