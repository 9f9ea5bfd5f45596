import { type ToolDefinition, ToolError, defineTool } from "@agent-tools/core";
import { z } from "zod";
import type { LogPage, ManagedProcessState } from "./managed-process-manager.js";
import { chooseCommandRunner, writableRootsOf } from "./command-sandbox-runner.js";
import { resolveCommandCwd } from "./shell-environment.js";
import { EXECUTE_METADATA, type ShellRuntime, checkCommand, commandEnvironment } from "./shell-runtime.js";
import { WAIT_YIELD, clampInteger } from "./timeout-policy.js";

/** Input of ManagedProcess. */
export const managedProcessInputSchema = z.object({
  action: z.enum(["start", "status", "read_log", "wait", "stop"]),
  command: z.string().optional().describe("start: runs in the foreground (no trailing &)."),
  cwd: z.string().optional().describe("start: working directory (default: the workspace root): workspace-relative, skill://..., or absolute."),
  label: z.string().optional(),
  isolated: z.boolean().optional().describe("start: true lets it outlive the host application (default false)."),
  process_id: z.string().optional().describe("From start; required except for status, where it filters."),
  cursor: z.number().min(0).optional().describe("read_log/wait: byte offset in the log (default 0); results give the next one."),
  yield_time_ms: z.number().optional().describe("wait: longest wait in ms (default 30000, 5000..300000)."),
  max_bytes: z.number().optional().describe("read_log/wait: bytes to return (default 65536, 1..524288)."),
});

/** `details` of ManagedProcess. */
export type ManagedProcessDetails =
  | { action: "start"; process: ManagedProcessState }
  | { action: "status"; processes: ManagedProcessState[] }
  | { action: "read_log" | "wait"; process: ManagedProcessState; log: LogPage }
  | { action: "stop"; process_id: string; stopped: boolean; not_found: boolean; process?: ManagedProcessState };

const DESCRIPTION = `Runs long-running processes (dev servers, watchers) with their output in a log file. Actions: start (in its own process group; returns a process_id), status (one or all: running, exited, stopped), read_log (log bytes from cursor), wait (until the process exits, max_bytes of new log arrive, or yield_time_ms passes), stop (kills the whole process tree).
ProcessWait and ProcessStop take Bash session ids, never a process_id.`;

function describeState(state: ManagedProcessState): string {
  return [
    `process_id: ${state.process_id}`,
    state.label ? `label: ${state.label}` : undefined,
    `status: ${state.status}`,
    state.exit_code !== null ? `exit_code: ${state.exit_code}` : undefined,
    `pid: ${state.pid}`,
    `isolated: ${state.isolated}`,
    `sandbox: ${state.sandbox ?? "none"}`,
    state.workspace ? `workspace: ${state.workspace}` : undefined,
    `command: ${state.command}`,
    `log_path: ${state.log_path}`,
    `log_bytes: ${state.log_bytes}`,
  ]
    .filter(Boolean)
    .join("\n");
}

function requireId(processId: string | undefined, action: string): string {
  if (!processId) throw new ToolError("invalid_arguments", `ManagedProcess action="${action}" needs process_id (from action="start" or action="status").`);
  return processId;
}

/** ManagedProcess (chat scope). */
export function createManagedProcessTool(runtime: ShellRuntime): ToolDefinition {
  const tool = defineTool<typeof managedProcessInputSchema, ManagedProcessDetails>({
    name: "ManagedProcess",
    description: DESCRIPTION,
    inputSchema: managedProcessInputSchema,
    metadata: { ...EXECUTE_METADATA, kind: "process" },
    scopes: ["chat"],
    loopKey: (input) => `${input.action}:${input.process_id ?? input.command ?? ""}`,
    async execute(input, context) {
      const manager = runtime.managed;
      const dataDir = context.dataDir;
      manager.prepare(dataDir);
      const maxBytes = clampInteger(input.max_bytes, 1, 524_288, 65_536);
      switch (input.action) {
        case "start": {
          const command = input.command ?? "";
          const cwd = await resolveCommandCwd(context, input.cwd, "ManagedProcess cwd");
          await checkCommand(runtime, "ManagedProcess", command, cwd, input.cwd, "managed");
          if (/&\s*$/.test(command.trim()) && !/&&\s*$/.test(command.trim())) {
            throw new ToolError("invalid_arguments", 'ManagedProcess runs the command in the foreground and manages it itself; remove the trailing "&".');
          }
          const choice = chooseCommandRunner(context, "ManagedProcess", runtime.durable ? [runtime.durable.dir] : []);
          if (choice.workspace !== undefined && input.isolated === true) {
            throw new ToolError(
              "unsupported_target",
              `ManagedProcess cannot start an isolated process on ${choice.workspace}: its output streams to this host's log, so it cannot outlive the host. Start it without isolated.`,
              { details: { workspace: choice.workspace } },
            );
          }
          if (choice.workspace === undefined) runtime.durable?.refuseInside(writableRootsOf(context), "ManagedProcess");
          const record = await manager.startDurable({
            command,
            cwd,
            shell: runtime.info.shell,
            label: input.label,
            isolated: input.isolated ?? false,
            runner: choice.runner,
            sandbox: choice.sandbox,
            ...(choice.workspace === undefined ? {} : { workspace: choice.workspace }),
            ...(choice.confine === undefined ? {} : { confine: choice.confine }),
            dataDir,
            env: commandEnvironment(runtime),
          });
          if (context.signal.aborted) await manager.stop(dataDir, record.process_id);
          else await manager.learnPid(dataDir, record.process_id);
          const state = manager.require(dataDir, record.process_id);
          const text = `# ManagedProcess started\n${describeState(state)}\n\nFollow it with ManagedProcess(action="wait" or "read_log", process_id="${state.process_id}", cursor=...) and end it with ManagedProcess(action="stop", process_id="${state.process_id}"). Do not use ProcessWait or ProcessStop with this id.`;
          return { content: text, details: { action: "start", process: state } };
        }
        case "status": {
          const processes = manager.status(dataDir, input.process_id);
          if (input.process_id && processes.length === 0) manager.require(dataDir, input.process_id);
          const text =
            processes.length === 0 ? "# ManagedProcess status\nNo managed processes." : `# ManagedProcess status\n${processes.map(describeState).join("\n\n")}`;
          return { content: text, details: { action: "status", processes } };
        }
        case "read_log":
        case "wait": {
          const processId = requireId(input.process_id, input.action);
          const cursor = Math.floor(input.cursor ?? 0);
          const state =
            input.action === "wait"
              ? await manager.wait(
                  dataDir,
                  processId,
                  cursor,
                  clampInteger(input.yield_time_ms, WAIT_YIELD.minMs, WAIT_YIELD.maxMs, WAIT_YIELD.defaultMs),
                  maxBytes,
                  context.signal,
                )
              : manager.require(dataDir, processId);
          const log = manager.readLog(state, cursor, maxBytes);
          let text = `# ManagedProcess ${input.action}\n${describeState(state)}\ncursor: ${log.cursor}\n`;
          if (log.has_more) text += "has_more: true\n";
          text += `\nlog:\n${log.output === "" ? "(no new output)\n" : log.output.endsWith("\n") ? log.output : `${log.output}\n`}`;
          if (state.status === "running" || log.has_more)
            text += `\nContinue with ManagedProcess(action="wait", process_id="${processId}", cursor=${log.cursor}).\n`;
          return { content: text, details: { action: input.action, process: state, log } };
        }
        case "stop": {
          const processId = requireId(input.process_id, "stop");
          const state = await manager.stop(dataDir, processId);
          if (!state) {
            return {
              content: `managed process not found: ${processId}; nothing was stopped. Call ManagedProcess(action="status") to list known processes.`,
              details: { action: "stop", process_id: processId, stopped: false, not_found: true },
              isError: true,
            };
          }
          return {
            content: `# ManagedProcess stopped\n${describeState(state)}`,
            details: { action: "stop", process_id: processId, stopped: true, not_found: false, process: state },
          };
        }
      }
    },
  });
  // start runs a command (never again after a crash); stop is harmless twice; status, read_log and wait only read.
  return { ...tool, effects: (input) => (input.action === "start" ? "unsafe" : input.action === "stop" ? "idempotent" : "none") };
}
