// An in-process MCP server over Streamable HTTP on 127.0.0.1, built with the
// MCP SDK's experimental Tasks API (InMemoryTaskStore, registerToolTask). It
// records every JSON-RPC method it receives (tasks/get, tasks/cancel, ...)
// and moves its tasks on by the polls it sees, never by the clock, so the
// tests assert no timings.
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { serveStreamableHttp } from "../../__fixtures__/serve-streamable-http.js";

/** One JSON-RPC request the server received. */
export interface ReceivedRequest {
  method: string;
  taskId?: string;
  tool?: string;
}

/** A running task server. */
export interface TaskServer {
  url: string;
  /** Every request received so far, in order. */
  received(): ReceivedRequest[];
  /** Ids of the tasks a `tasks/cancel` named. */
  cancelled(): string[];
  /** Lets every `gated` task finish (completed, text "released"). */
  release(): Promise<void>;
  /** Whether any `gated` task is still running. */
  gatedRunning(): boolean;
  stop(): Promise<void>;
}

/** Starts the server: tools `stepped`, `failing`, `forever`, `gated`, `vanishing` (tasks) and `quick` (plain). */
export async function startTaskServer(): Promise<TaskServer> {
  const received: ReceivedRequest[] = [];
  const servers = new Set<McpServer>();
  const stores = new Set<InMemoryTaskStore>();
  const gated = new Map<string, InMemoryTaskStore>();
  /** Per task: what to do on its n-th tasks/get (before the request is answered). */
  const onPoll = new Map<string, (count: number) => Promise<void>>();
  const polls = new Map<string, number>();

  const createServer = () => {
    const taskStore = new InMemoryTaskStore();
    stores.add(taskStore);
    const server = new McpServer(
      { name: "task-server", version: "1.0.0" },
      { capabilities: { tasks: { requests: { tools: { call: {} } }, cancel: {}, list: {} } }, taskStore },
    );
    servers.add(server);
    const register = (
      name: string,
      support: "required" | "optional",
      start: (taskId: string, label: string, progressToken: string | number | undefined) => Promise<void>,
    ) =>
      server.experimental.tasks.registerToolTask(
        name,
        { inputSchema: { label: z.string().optional() }, execution: { taskSupport: support } },
        {
          async createTask({ label }, extra) {
            const task = await extra.taskStore.createTask({ ttl: name === "vanishing" ? 1 : 60_000, pollInterval: 10 });
            await start(task.taskId, label ?? "", extra._meta?.progressToken);
            return { task: (await taskStore.getTask(task.taskId)) ?? task };
          },
          getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
          getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
        },
      );
    // Status "step 1 of 2" at once, progress 1/2 on the first poll (on the standalone SSE stream), "step 2 of 2" on the second, completed on the third.
    register("stepped", "required", async (taskId, label, progressToken) => {
      await taskStore.updateTaskStatus(taskId, "working", "step 1 of 2");
      onPoll.set(taskId, async (count) => {
        if (count === 1 && progressToken !== undefined)
          await server.server.notification({ method: "notifications/progress", params: { progressToken, progress: 1, total: 2, message: "half way" } });
        if (count === 2) await taskStore.updateTaskStatus(taskId, "working", "step 2 of 2");
        if (count === 3) await taskStore.storeTaskResult(taskId, "completed", { content: [{ type: "text", text: `done ${label}` }] });
      });
    });
    register("failing", "optional", async (taskId) => {
      onPoll.set(taskId, async (count) => {
        if (count === 1) await taskStore.storeTaskResult(taskId, "failed", { content: [{ type: "text", text: "disk full" }], isError: true });
      });
    });
    register("forever", "required", async () => undefined);
    register("vanishing", "required", async () => undefined);
    register("gated", "required", async (taskId) => {
      gated.set(taskId, taskStore);
    });
    server.registerTool("quick", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "quick done" }] }));
    return server;
  };

  const record = async (body: unknown) => {
    for (const message of Array.isArray(body) ? body : [body]) {
      const { method, params } = (message ?? {}) as { method?: string; params?: { taskId?: string; name?: string } };
      if (typeof method !== "string") continue;
      received.push({ method, taskId: params?.taskId, tool: method === "tools/call" ? params?.name : undefined });
      if (method === "tasks/get" && params?.taskId) {
        const count = (polls.get(params.taskId) ?? 0) + 1;
        polls.set(params.taskId, count);
        await onPoll.get(params.taskId)?.(count);
      }
    }
  };
  const host = await serveStreamableHttp({ createServer, onBody: record });
  return {
    url: host.url,
    received: () => [...received],
    cancelled: () => received.filter((entry) => entry.method === "tasks/cancel").map((entry) => entry.taskId ?? ""),
    async release() {
      for (const [taskId, store] of gated) {
        const task = await store.getTask(taskId);
        if (task?.status === "working") await store.storeTaskResult(taskId, "completed", { content: [{ type: "text", text: "released" }] });
      }
      gated.clear();
    },
    gatedRunning: () => gated.size > 0,
    async stop() {
      for (const store of stores) store.cleanup();
      await Promise.allSettled([...servers].map((server) => server.close()));
      await host.close();
    },
  };
}
