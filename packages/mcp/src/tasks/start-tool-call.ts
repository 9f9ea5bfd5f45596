/**
 * The first half of a tool call: `tools/call`, as a task when the tool and
 * the server support it (see task-support.ts). It runs inside the
 * connection's per-server queue; a created task is awaited outside it
 * (await-tool-task.ts), so other calls to the server proceed meanwhile.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema, CreateTaskResultSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpProgress } from "../mcp-remote-types.js";
import { type McpTaskSupport, callsAsTask } from "./task-support.js";

/** A task the server created for a tool call; the call's result comes from `tasks/result`. */
export interface StartedToolTask {
  readonly kind: "mcp_task";
  readonly client: Client;
  readonly toolName: string;
  readonly task: Task;
  /** Set when the call has ended: progress the SDK still routes to it is dropped. */
  ended: boolean;
}

/** Options of {@link startToolCall}. */
export interface StartToolCallOptions {
  signal?: AbortSignal;
  timeout?: number;
  /** The listed tool's `execution.taskSupport`. */
  taskSupport?: McpTaskSupport;
  /** Progress of a plain call (`notifications/progress`). */
  onProgress?(progress: McpProgress): void;
  /** Progress of a call that became a task, with its id. */
  onTaskProgress?(taskId: string, progress: McpProgress): void;
}

// The answer to a task-augmented call is a CreateTaskResult, or (from a server that ignored the request) a plain result.
const TaskOrResultSchema = z.looseObject({ task: z.unknown().optional() });

/** True for what {@link startToolCall} returns when the server created a task. */
export function isStartedToolTask(value: unknown): value is StartedToolTask {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "mcp_task";
}

/**
 * Sends `tools/call`: a plain call returns its result; a call made as a task
 * returns the created task (its progress keeps reaching `onTaskProgress`
 * until the task ends).
 */
export async function startToolCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: StartToolCallOptions,
): Promise<CallToolResult | StartedToolTask> {
  const { signal, timeout } = options;
  if (!callsAsTask(options.taskSupport, client.getServerCapabilities())) {
    const onProgress = options.onProgress;
    return (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
      signal,
      timeout,
      resetTimeoutOnProgress: true,
      onprogress: onProgress ? (progress) => onProgress(progress as McpProgress) : undefined,
    })) as CallToolResult;
  }
  let started: StartedToolTask | undefined;
  const onTaskProgress = options.onTaskProgress;
  const answer = await client.request({ method: "tools/call", params: { name, arguments: args } }, TaskOrResultSchema, {
    signal,
    timeout,
    task: {},
    onprogress: onTaskProgress
      ? (progress) => {
          if (started && !started.ended) onTaskProgress(started.task.taskId, progress as McpProgress);
        }
      : undefined,
  });
  if (answer.task === undefined) return CallToolResultSchema.parse(answer) as CallToolResult;
  const { task } = CreateTaskResultSchema.parse(answer);
  started = { kind: "mcp_task", client, toolName: name, task, ended: false };
  return started;
}
