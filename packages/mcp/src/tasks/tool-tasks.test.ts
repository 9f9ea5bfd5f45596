import type { ToolUpdate } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type McpTestSetup, setupMcp, textOf } from "../__fixtures__/test-servers.js";
import { type TaskServer, startTaskServer } from "./__fixtures__/task-server.js";
import { TASK_POLL_CAP_MS, TASK_POLL_FLOOR_MS, taskPollDelay } from "./await-tool-task.js";
import { callsAsTask, readTaskSupport } from "./task-support.js";

describe("MCP tools the server runs as tasks (real SDK task server over HTTP)", () => {
  let server: TaskServer;
  let setup: McpTestSetup;
  beforeAll(async () => {
    server = await startTaskServer();
    setup = await setupMcp([{ id: "jobs", transport: "http", url: server.url, timeoutMs: 20_000 }]);
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });

  const taskCalls = (tool: string) => server.received().filter((entry) => entry.method === "tools/call" && entry.tool === tool);
  const taskUpdates = (updates: ToolUpdate[]) =>
    updates.map((update) => update.data as { kind: string; taskId: string; status: string; statusMessage?: string }).filter((data) => data.kind === "mcp_task");

  it("keeps each tool's execution.taskSupport from the listing", () => {
    const entries = setup.mcp.tools.entries();
    expect(entries.find((entry) => entry.toolName === "stepped")?.remote.taskSupport).toBe("required");
    expect(entries.find((entry) => entry.toolName === "failing")?.remote.taskSupport).toBe("optional");
    expect(entries.find((entry) => entry.toolName === "quick")?.remote.taskSupport).toBe("forbidden");
  });

  it("polls a task to its end, reports each status message and its progress as mcp_task updates and returns tasks/result", async () => {
    const updates: ToolUpdate[] = [];
    const result = await setup.registry.executeToolCall(
      { id: "t1", name: "mcp_jobs_stepped", arguments: { label: "alpha" } },
      { onUpdate: (event) => updates.push(event.update) },
    );
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("done alpha");
    const seen = taskUpdates(updates);
    expect(seen.map((update) => update.statusMessage)).toEqual(expect.arrayContaining(["step 1 of 2", "step 2 of 2"]));
    expect(seen.at(-1)?.status).toBe("completed");
    expect(seen).toContainEqual(expect.objectContaining({ status: "working", progress: 1, total: 2, message: "half way" }));
    expect(updates.map((update) => update.text)).toContain("half way");
    const taskId = seen[0]!.taskId;
    const methods = server
      .received()
      .filter((entry) => entry.taskId === taskId)
      .map((entry) => entry.method);
    expect(methods.filter((method) => method === "tasks/get").length).toBe(3);
    expect(methods.at(-1)).toBe("tasks/result");
  });

  it("maps a failed task to an isError result that carries the server's message (an optional tool runs as a task when the server declares tasks)", async () => {
    const result = await setup.registry.executeToolCall({ id: "t2", name: "mcp_jobs_failing", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/MCP task \S+ failed/);
    expect(textOf(result)).toContain("disk full");
    expect(server.received().some((entry) => entry.method === "tasks/get")).toBe(true);
    expect(taskCalls("failing").length).toBe(1);
  });

  it("sends tasks/cancel when the call is aborted mid-task and ends the call as an aborted call", async () => {
    const controller = new AbortController();
    let taskId = "";
    const result = await setup.registry.executeToolCall(
      { id: "t3", name: "mcp_jobs_forever", arguments: {} },
      {
        signal: controller.signal,
        onUpdate: (event) => {
          const data = event.update.data as { kind?: string; taskId?: string };
          if (data?.kind !== "mcp_task" || taskId) return;
          taskId = data.taskId ?? "";
          controller.abort();
        },
      },
    );
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
    await vi.waitFor(() => expect(server.cancelled()).toContain(taskId), { timeout: 10_000 });
  });

  it("lets a plain call to the same server finish while a task is still running (polling does not hold the call queue)", async () => {
    const running = setup.registry.executeToolCall({ id: "t4", name: "mcp_jobs_gated", arguments: {} });
    await vi.waitFor(() => expect(server.received().some((entry) => entry.method === "tasks/get")).toBe(true), { timeout: 10_000 });
    await vi.waitFor(() => expect(server.gatedRunning()).toBe(true), { timeout: 10_000 });
    const quick = await setup.registry.executeToolCall({ id: "t5", name: "mcp_jobs_quick", arguments: {} });
    expect(textOf(quick)).toBe("quick done");
    expect(server.gatedRunning()).toBe(true);
    await server.release();
    const done = await running;
    expect(done.isError).toBe(false);
    expect(textOf(done)).toBe("released");
  });

  it("ends with unavailable after three tasks/get failures in a row (the task vanished from the server)", async () => {
    const result = await setup.registry.executeToolCall({ id: "t6", name: "mcp_jobs_vanishing", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "unavailable" });
    expect(textOf(result)).toContain("3 times in a row");
  });
});

describe("closing the registry while a task runs", () => {
  it("sends tasks/cancel for the running task and ends its call", async () => {
    const server = await startTaskServer();
    const setup = await setupMcp([{ id: "jobs", transport: "http", url: server.url, timeoutMs: 20_000 }]);
    try {
      const running = setup.registry.executeToolCall({ id: "c1", name: "mcp_jobs_forever", arguments: {} });
      await vi.waitFor(() => expect(server.received().some((entry) => entry.method === "tasks/get")).toBe(true), { timeout: 10_000 });
      await setup.close();
      const result = await running;
      expect(result.isError).toBe(true);
      expect(server.cancelled().length).toBe(1);
    } finally {
      await setup.close();
      await server.stop();
    }
  });
});

describe("task decisions", () => {
  it("calls as a task only when the tool allows it and the server declared task-augmented tools/call", () => {
    const declared = { tasks: { requests: { tools: { call: {} } } } };
    expect(callsAsTask("required", declared)).toBe(true);
    expect(callsAsTask("optional", declared)).toBe(true);
    expect(callsAsTask("forbidden", declared)).toBe(false);
    expect(callsAsTask(undefined, declared)).toBe(false);
    expect(callsAsTask("required", {})).toBe(false);
    expect(callsAsTask("required", { tasks: {} })).toBe(false);
  });

  it("reads execution.taskSupport only, ignoring unknown values", () => {
    expect(readTaskSupport({ execution: { taskSupport: "optional" } })).toBe("optional");
    expect(readTaskSupport({ execution: { taskSupport: "always" } })).toBeUndefined();
    expect(readTaskSupport({ taskSupport: "required" })).toBeUndefined();
    expect(readTaskSupport(null)).toBeUndefined();
  });

  it("clamps the server's pollInterval to 250 ms .. 5 s (1 s when absent)", () => {
    expect(taskPollDelay(10)).toBe(TASK_POLL_FLOOR_MS);
    expect(taskPollDelay(60_000)).toBe(TASK_POLL_CAP_MS);
    expect(taskPollDelay(700)).toBe(700);
    expect(taskPollDelay(undefined)).toBe(1_000);
    expect(taskPollDelay(Number.NaN)).toBe(1_000);
  });
});
