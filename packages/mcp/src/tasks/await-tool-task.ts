/**
 * The second half of a tool call made as a task: poll `tasks/get` at the
 * server's pollInterval until the task ends, tell the host each new status,
 * then fetch `tasks/result`. Runs outside the per-server queue.
 *
 * Invariants:
 * - The call's signal (or the connection's lifetime) ending sends
 *   `tasks/cancel` once, best effort, and the call rejects as an aborted
 *   call does (the signal's reason; ToolError `unavailable` when the
 *   connection was closed).
 * - A server that never ends its task is bounded by the signal only.
 * - Three `tasks/get` failures in a row end the call with ToolError
 *   `unavailable`; one success resets the count.
 * - `failed` and `cancelled` end as an `isError` result carrying the
 *   server's status message.
 */
import { ToolError } from "@agent-tools/core";
import { type CallToolResult, CallToolResultSchema, type GetTaskResult, type Task } from "@modelcontextprotocol/sdk/types.js";
import type { StartedToolTask } from "./start-tool-call.js";

/** What the host hears while a task runs (`context.onUpdate` data of kind `mcp_task`). */
export interface McpTaskUpdate {
  taskId: string;
  status: Task["status"];
  statusMessage?: string;
  /** Present for a progress notification of the task's call. */
  progress?: number;
  total?: number;
  message?: string;
}

/** Options of {@link awaitToolTask}. */
export interface AwaitToolTaskOptions {
  serverId: string;
  /** The call's signal. */
  signal?: AbortSignal;
  /** Aborted when the connection closes (registry close, server stop). */
  lifetime: AbortSignal;
  /** Per-request timeout of `tasks/get`, `tasks/result` and `tasks/cancel`. */
  timeout?: number;
  onUpdate?(update: McpTaskUpdate): void;
}

/** Poll interval bounds (ms): the server's pollInterval is clamped to them; 1 s when it names none. */
export const TASK_POLL_FLOOR_MS = 250;
export const TASK_POLL_CAP_MS = 5_000;
const TASK_POLL_DEFAULT_MS = 1_000;
/** Consecutive `tasks/get` failures that end the call. */
export const TASK_POLL_FAILURE_LIMIT = 3;
/** The longest `tasks/cancel` is waited for after an abort. */
const CANCEL_WAIT_MS = 2_000;

/** The delay before the next `tasks/get`. */
export function taskPollDelay(pollInterval: number | undefined): number {
  if (typeof pollInterval !== "number" || !Number.isFinite(pollInterval)) return TASK_POLL_DEFAULT_MS;
  return Math.min(TASK_POLL_CAP_MS, Math.max(TASK_POLL_FLOOR_MS, pollInterval));
}

const isTerminal = (status: Task["status"]) => status === "completed" || status === "failed" || status === "cancelled";

/**
 * Waits for a started task and returns the call's result (see the module
 * comment for aborts, failures and the poll bounds).
 */
export async function awaitToolTask(started: StartedToolTask, options: AwaitToolTaskOptions): Promise<CallToolResult> {
  const { client, task: created } = started;
  const taskId = created.taskId;
  const stop = options.signal ? AbortSignal.any([options.signal, options.lifetime]) : options.lifetime;
  let last = "";
  const report = (task: Pick<Task, "status" | "statusMessage">) => {
    const key = `${task.status}\u0000${task.statusMessage ?? ""}`;
    if (key === last) return;
    last = key;
    options.onUpdate?.({ taskId, status: task.status, ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}) });
  };
  const request = { timeout: options.timeout, signal: stop };
  try {
    let task: Pick<Task, "status" | "statusMessage" | "pollInterval"> = created;
    let failures = 0;
    report(task);
    while (!isTerminal(task.status)) {
      // input_required: tasks/result delivers the server's queued requests (elicitation, sampling) and blocks until the end.
      if (task.status === "input_required") return await fetchResult(started, task, request);
      await sleep(taskPollDelay(task.pollInterval), stop);
      try {
        task = (await client.experimental.tasks.getTask(taskId, request)) as GetTaskResult;
        failures = 0;
        report(task);
      } catch (error) {
        if (stop.aborted) throw error;
        failures += 1;
        if (failures >= TASK_POLL_FAILURE_LIMIT) {
          throw new ToolError(
            "unavailable",
            `MCP server ${options.serverId} did not report task ${taskId} (${started.toolName}) ${failures} times in a row: ${(error as Error)?.message ?? String(error)}`,
            { details: { serverId: options.serverId, taskId } },
          );
        }
      }
    }
    return await fetchResult(started, task, request);
  } catch (error) {
    if (!stop.aborted) throw error;
    await cancelTask(started, options.timeout);
    if (options.signal?.aborted) throw abortReason(options.signal);
    throw new ToolError("unavailable", `MCP server ${options.serverId} was stopped while task ${taskId} (${started.toolName}) ran; the task was cancelled.`, {
      details: { serverId: options.serverId, taskId },
    });
  } finally {
    started.ended = true;
  }
}

async function fetchResult(
  started: StartedToolTask,
  task: Pick<Task, "status" | "statusMessage">,
  request: { timeout?: number; signal: AbortSignal },
): Promise<CallToolResult> {
  const { taskId } = started.task;
  if (task.status === "cancelled") return failedResult(`The MCP server cancelled task ${taskId}`, task.statusMessage, undefined);
  let result: CallToolResult;
  try {
    result = (await started.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, request)) as CallToolResult;
  } catch (error) {
    if (task.status !== "failed" || request.signal.aborted) throw error;
    return failedResult(`MCP task ${taskId} failed`, task.statusMessage, undefined);
  }
  return task.status === "failed" ? failedResult(`MCP task ${taskId} failed`, task.statusMessage, result) : result;
}

/** An `isError` result led by the status message, keeping what content the server returned. */
function failedResult(headline: string, statusMessage: string | undefined, result: CallToolResult | undefined): CallToolResult {
  const content = Array.isArray(result?.content) ? result.content : [];
  const text = statusMessage ? `${headline}: ${statusMessage}` : `${headline}.`;
  const repeated = content.some((block) => block.type === "text" && statusMessage !== undefined && block.text === statusMessage);
  return { ...result, isError: true, content: repeated ? content : [{ type: "text", text }, ...content] };
}

/** Sends `tasks/cancel`, waiting at most a short while; a failure is ignored (the call ends anyway). */
async function cancelTask(started: StartedToolTask, timeout: number | undefined): Promise<void> {
  await started.client.experimental.tasks
    .cancelTask(started.task.taskId, { timeout: Math.min(timeout ?? CANCEL_WAIT_MS, CANCEL_WAIT_MS) })
    .catch(() => undefined);
}

/** What an aborted MCP request rejects with: the signal's reason (as the SDK does). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted.", "AbortError");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
