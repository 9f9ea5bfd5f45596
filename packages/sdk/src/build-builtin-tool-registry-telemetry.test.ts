import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import type { TelemetryAttributeValue, TelemetrySpan, TelemetryTracer } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const work = mkdtempSync(path.join(os.tmpdir(), "sdk-telemetry-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tracer that records what it is given (structural, as the registry types it). */
function recordingTracer() {
  const spans: Array<{ name: string; attributes: Record<string, TelemetryAttributeValue>; ended: boolean }> = [];
  const tracer: TelemetryTracer = {
    startSpan(name, options) {
      const record = { name, attributes: { ...(options?.attributes ?? {}) }, ended: false };
      spans.push(record);
      const span: TelemetrySpan = {
        setAttribute: (key, value) => {
          record.attributes[key] = value;
        },
        setStatus: () => undefined,
        end: () => {
          record.ended = true;
        },
      };
      return span;
    },
  };
  return { tracer, spans };
}

it("passes the telemetry option of buildBuiltinToolRegistry to every call", async () => {
  writeFileSync(path.join(work, "notes.txt"), "one\ntwo\n");
  const { tracer, spans } = recordingTracer();
  const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir: path.join(work, ".data"), telemetry: { tracer } });
  try {
    const result = await registry.executeToolCall({ id: "read_1", name: "Read", arguments: { path: "notes.txt" } });
    expect(result.isError).toBe(false);
    expect(spans).toEqual([
      expect.objectContaining({
        name: "execute_tool Read",
        ended: true,
        attributes: expect.objectContaining({ "gen_ai.tool.call.id": "read_1", "agent_tools.status": "ok" }),
      }),
    ]);
  } finally {
    await registry.close();
  }
});
