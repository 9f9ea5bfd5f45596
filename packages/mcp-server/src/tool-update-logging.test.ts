import path from "node:path";
import { defineTool } from "@agent-tools/core";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { logLevelAllows } from "./log-level.js";
import { type HttpServedRegistry, connectHttp, serveRegistryOverHttp, tempWorkdir, textOf, waitUntil } from "./testing-helpers.js";

// A tool's streamed updates reach a client that set a log level (logging/setLevel) as
// notifications/message, with or without a progress token; a client that set none gets none.

const Stages = defineTool({
  name: "Stages",
  description: "Reports three stages as updates, then answers done.",
  inputSchema: z.object({}),
  metadata: { isReadOnly: true },
  execute: (_input, context) => {
    for (const stage of ["started", "processing", "completed"]) context.onUpdate({ text: `stage ${stage}` });
    return { content: "done" };
  },
});

describe("tool updates as MCP log messages", () => {
  const work = tempWorkdir("mcp-server-logging-");
  let served: HttpServedRegistry;
  beforeAll(async () => {
    served = await serveRegistryOverHttp({ workdir: work.dir, dataDir: path.join(work.dir, ".data"), tools: [Stages] }, { port: 0 });
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    work.cleanup();
  });

  async function callStages(level: "debug" | "info" | "warning" | undefined, withProgress = false) {
    const connection = await connectHttp(served.listener.url);
    try {
      const logs: Array<{ level: string; logger?: string; data: unknown }> = [];
      connection.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params));
      if (level !== undefined) expect(await connection.client.setLoggingLevel(level)).toEqual({});
      const progress: string[] = [];
      const result = await connection.client.callTool(
        { name: "Stages", arguments: {} },
        undefined,
        withProgress ? { onprogress: (event) => void progress.push(event.message ?? "") } : {},
      );
      expect(textOf(result)).toBe("done");
      return { logs, progress, capabilities: connection.client.getServerCapabilities() };
    } finally {
      await connection.close();
    }
  }

  it("declares the logging capability", async () => {
    const { capabilities } = await callStages(undefined);
    expect(capabilities?.logging).toEqual({});
  });

  it("sends each update as an info message from the tool once the client set debug or info", async () => {
    for (const level of ["debug", "info"] as const) {
      const { logs } = await callStages(level);
      await waitUntil(() => logs.length >= 3, "three log messages");
      expect(logs).toEqual([
        { level: "info", logger: "Stages", data: "stage started" },
        { level: "info", logger: "Stages", data: "stage processing" },
        { level: "info", logger: "Stages", data: "stage completed" },
      ]);
    }
  });

  it("sends none to a client that set no level or a level above info", async () => {
    expect((await callStages(undefined)).logs).toEqual([]);
    expect((await callStages("warning")).logs).toEqual([]);
  });

  it("sends progress and log messages side by side when the call has a progress token", async () => {
    const { logs, progress } = await callStages("debug", true);
    await waitUntil(() => logs.length >= 3 && progress.length >= 3, "three of each");
    expect(progress).toEqual(["stage started", "stage processing", "stage completed"]);
    expect(logs.map((log) => log.data)).toEqual(progress);
  });

  it("orders the levels by severity", () => {
    expect(logLevelAllows("debug", "info")).toBe(true);
    expect(logLevelAllows("info", "info")).toBe(true);
    expect(logLevelAllows("notice", "info")).toBe(false);
    expect(logLevelAllows("emergency", "alert")).toBe(false);
    expect(logLevelAllows(undefined, "emergency")).toBe(false);
  });
});
