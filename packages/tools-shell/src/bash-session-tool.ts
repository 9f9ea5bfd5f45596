import { randomUUID } from "node:crypto";
import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { chooseCommandRunner, writableRootsOf } from "./command-sandbox-runner.js";
import type { ResumableSession } from "./resumable-session.js";
import { respondForSession } from "./session-respond.js";
import { type ShellSessionResponse, sessionOutput } from "./session-response.js";
import { resolveCommandCwd } from "./shell-environment.js";
import { EXECUTE_METADATA, type ShellRuntime, checkCommand, commandEnvironment } from "./shell-runtime.js";
import { SESSION_YIELD, clampInteger, resolveSessionTimeout } from "./timeout-policy.js";

/** Input of the resumable Bash tool (chat scope). */
export const bashSessionInputSchema = z.object({
  command: z.string().describe("Runs in its own process group."),
  cwd: z.string().optional().describe("Working directory (default: the workspace root): workspace-relative, skill://<name>/..., or absolute; not root://."),
  timeout_ms: z.number().optional().describe("Hard limit in ms (1000..600000, default: none); then the whole process tree is killed: status timed_out."),
  yield_time_ms: z.number().optional().describe("How long this call waits in ms (default 10000, 250..30000)."),
});

const DESCRIPTION = `Runs a bash command in the workspace. If it still runs after yield_time_ms, the result has status "running", a session_id and a cursor: continue with ProcessWait(session_id, cursor), always with the latest cursor, or stop it with ProcessStop(session_id). Never start the same command again; never wait with sleep (a leading "sleep N" with N >= 2 is refused).
Statuses: completed, failed (non-zero exit or could not start), cancelled (not an error), timed_out.
- stdout and stderr share a 1 MiB buffer; a result returns at most 64 KiB. output_truncated: older output was dropped unread; has_more: more is already buffered.
- session_duration_ms counts from the first Bash start; never add it up.
- A bare "&" job is refused unless it redirects both stdout and stderr; run servers with ManagedProcess.`;

/** The resumable Bash tool of the chat scope. */
export function createBashSessionTool(runtime: ShellRuntime): ToolDefinition {
  const tool = defineTool<typeof bashSessionInputSchema, ShellSessionResponse>({
    name: "Bash",
    description: DESCRIPTION,
    inputSchema: bashSessionInputSchema,
    metadata: EXECUTE_METADATA,
    scopes: ["chat"],
    handlesAbort: true,
    loopKey: (input) => input.command,
    async execute(input, context) {
      const cwd = await resolveCommandCwd(context, input.cwd, "Bash cwd");
      await checkCommand(runtime, "Bash", input.command, cwd, input.cwd, "resumable");
      const choice = chooseCommandRunner(context, "Bash", runtime.durable ? [runtime.durable.dir] : []);
      const yieldMs = clampInteger(input.yield_time_ms, SESSION_YIELD.minMs, SESSION_YIELD.maxMs, SESSION_YIELD.defaultMs);
      const id = `bash-${randomUUID()}`;
      const timeoutMs = resolveSessionTimeout(input.timeout_ms);
      // Durable when the host asked for it and the command runs on this machine (a remote workspace's process cannot be supervised here).
      const session: ResumableSession =
        runtime.durable && choice.workspace === undefined
          ? await runtime.durable.start({
              id,
              command: input.command,
              cwd,
              shell: runtime.info.shell,
              env: commandEnvironment(runtime),
              ...(timeoutMs === undefined ? {} : { timeoutMs }),
              sandbox: choice.sandbox,
              ...(choice.confine === undefined ? {} : { confine: choice.confine }),
              workdir: context.workdir,
              writableRoots: writableRootsOf(context),
            })
          : runtime.sessions.start({
              id,
              command: input.command,
              cwd,
              shell: runtime.info.shell,
              runner: choice.runner,
              sandbox: choice.sandbox,
              ...(choice.workspace === undefined ? {} : { workspace: choice.workspace }),
              timeoutMs,
              env: commandEnvironment(runtime),
            });
      const { response, page } = await respondForSession(session, runtime, context, { cursor: 0, cwd, yieldMs });
      return sessionOutput(response, session.isTerminal && !page.hasMore);
    },
  });
  // A command may have done anything: after a crash a started Bash call is never run again (the ledger reports outcome_unknown).
  return { ...tool, effects: "unsafe" };
}
