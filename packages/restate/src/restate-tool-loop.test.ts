import { existsSync } from "node:fs";
import path from "node:path";
import type { ToolResult } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoopScenario, append, write } from "./__fixtures__/restate-loop-harness.js";
import type { ToolLoopOutput } from "./__fixtures__/tool-loop-endpoint.js";
import { type RestateServer, invokeHandler, startRestateServer, waitUntil } from "./testing/index.js";

let server: RestateServer;
const scenarios: LoopScenario[] = [];

beforeAll(async () => {
  server = await startRestateServer();
});

afterAll(async () => {
  for (const scenario of scenarios) await scenario.close();
  await server?.close();
});

function scenario(): LoopScenario {
  const made = new LoopScenario(server);
  scenarios.push(made);
  return made;
}

async function runLoop(calls: ReturnType<typeof append>[], runId?: string): Promise<ToolLoopOutput> {
  const outcome = await invokeHandler(server.ingressUrl, { service: "ToolLoop", handler: "run", input: { calls, runId } });
  if (!outcome.ok) throw new Error(`invocation failed: HTTP ${outcome.status} ${outcome.body}`);
  return outcome.output as ToolLoopOutput;
}

function text(result: ToolResult): string {
  return typeof result.content === "string" ? result.content : result.content.map((part) => ("text" in part ? part.text : "")).join("");
}

describe("executeToolCallInRestate on a real restate-server", () => {
  it("runs the calls as journaled steps and records each in the ledger under the invocation id", async () => {
    const loop = scenario();
    await loop.start();
    const output = await runLoop([append("a1"), write("w1"), append("a2")]);
    expect(output.results.map((result) => [result.isError ?? false, text(result)])).toEqual([
      [false, "appended a1"],
      [false, "wrote w1 (13 characters)"],
      [false, "appended a2"],
    ]);
    expect(output.runId).toMatch(/^inv_/);
    expect(loop.lines("lines.txt")).toEqual(["a1", "a2"]);
    const entries = await loop.ledgerEntries(output.runId);
    expect(entries.map((entry) => [entry.callId, entry.state, entry.effects, entry.attempts])).toEqual([
      ["a1", "completed", "unsafe", 1],
      ["w1", "completed", "idempotent", 1],
      ["a2", "completed", "unsafe", 1],
    ]);
    expect(entries.map((entry) => entry.result)).toEqual(output.results);
  });

  it("after SIGKILLs mid-call: the unsafe call is outcome_unknown and not run again, journaled calls are not run again, the idempotent call runs again", async () => {
    const loop = scenario();
    await loop.start();
    const calls = [append("b1"), write("v1"), append("b2", { hold: true }), write("v2", { hold: true }), append("b3")];
    const invocation = runLoop(calls, "run-kill-twice");
    for (const held of ["b2", "v2"]) {
      await waitUntil(async () => existsSync(path.join(loop.dir, `held-${held}`)), `${held} to hold`, 30_000);
      await loop.endpoint?.kill();
      await loop.start();
    }
    const output = await invocation;
    expect(output.results.map((result) => result.error?.code ?? "ok")).toEqual(["ok", "ok", "outcome_unknown", "ok", "ok"]);
    expect(loop.lines("lines.txt")).toEqual(["b1", "b2", "b3"]);
    expect(loop.lines("runs.txt")).toEqual(["v1", "v2", "v2"]);
    const entries = await loop.ledgerEntries("run-kill-twice");
    expect(entries.map((entry) => [entry.callId, entry.state, entry.attempts])).toEqual([
      ["b1", "completed", 1],
      ["v1", "completed", 1],
      ["b2", "failed", 1],
      ["v2", "completed", 2],
      ["b3", "completed", 1],
    ]);
    expect(entries.map((entry) => entry.result)).toEqual(output.results);
  });
});
