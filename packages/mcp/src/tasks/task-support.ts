/**
 * Whether a tool call goes out as an MCP task (Tasks extension, protocol
 * 2025-11-25): the tool's listing says `execution.taskSupport` `required` or
 * `optional`, and the server declared `tasks.requests.tools.call`. Without
 * that capability a client must not ask for a task, whatever the tool says.
 */
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";

/** A tool's `execution.taskSupport` as listed. */
export type McpTaskSupport = "required" | "optional" | "forbidden";

/** The `execution.taskSupport` of a raw `tools/list` entry, or undefined when it names none (or an unknown value). */
export function readTaskSupport(raw: unknown): McpTaskSupport | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const execution = (raw as { execution?: unknown }).execution;
  if (typeof execution !== "object" || execution === null) return undefined;
  const support = (execution as { taskSupport?: unknown }).taskSupport;
  return support === "required" || support === "optional" || support === "forbidden" ? support : undefined;
}

/** True when the server declared task-augmented `tools/call`. */
export function serverRunsToolTasks(capabilities: ServerCapabilities | undefined): boolean {
  const call = capabilities?.tasks?.requests?.tools?.call;
  return typeof call === "object" && call !== null;
}

/** True when a call to a tool with `taskSupport` on a server with `capabilities` is made as a task. */
export function callsAsTask(taskSupport: McpTaskSupport | undefined, capabilities: ServerCapabilities | undefined): boolean {
  return (taskSupport === "required" || taskSupport === "optional") && serverRunsToolTasks(capabilities);
}
