import { existsSync } from "node:fs";
import path from "node:path";
import type { ToolResult } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoopScenario, append, write } from "./__fixtures__/restate-loop-harness.js";
import type { ToolLoopOutput } from "./__fixtures__/tool-loop-endpoint.js";
import { type RestateServer, invokeHandler, startRestateServer, waitUntil } from "./testing/index.js";

// Each endpoint child loads core, durable, storage and the Restate SDK (seconds on a loaded machine), so
// every test shares one endpoint and one folder (call ids differ per test), and the kills use spares
// loaded up front: 2 for the mid-call kills, 5 for the random ones.
const SPARES = 7;
const KILL_TEST_TIMEOUT_MS = 240_000;

let server: RestateServer;
let loop: LoopScenario;

beforeAll(async () => {
  server = await startRestateServer();
  loop = new LoopScenario(server);
  await loop.start({ spares: SPARES });
}, KILL_TEST_TIMEOUT_MS);

afterAll(async () => {
  await loop?.close();
  await server?.close();
});

/** The lines of a file the calls of one test (ids starting with `prefix`) wrote. */
function linesOf(name: "lines.txt" | "runs.txt", prefix: string): string[] {
  return loop.lines(name).filter((line) => line.startsWith(prefix));
}

async function runLoop(calls: ReturnType<typeof append>[], runId?: string, extra: { ledger?: boolean } = {}): Promise<ToolLoopOutput> {
  const outcome = await invokeHandler(server.ingressUrl, { service: "ToolLoop", handler: "run", input: { calls, runId, ...extra } });
  if (!outcome.ok) throw new Error(`invocation failed: HTTP ${outcome.status} ${outcome.body}`);
  return outcome.output as ToolLoopOutput;
}

function text(result: ToolResult): string {
  return typeof result.content === "string" ? result.content : result.content.map((part) => ("text" in part ? part.text : "")).join("");
}

describe("executeToolCallInRestate on a real restate-server", () => {
  it("runs the calls as journaled steps and records each in the ledger under the invocation id", async () => {
    const output = await runLoop([append("a1"), write("w1"), append("a2")]);
    expect(output.results.map((result) => [result.isError ?? false, text(result)])).toEqual([
      [false, "appended a1"],
      [false, "wrote w1 (13 characters)"],
      [false, "appended a2"],
    ]);
    expect(output.runId).toMatch(/^inv_/);
    expect(linesOf("lines.txt", "a")).toEqual(["a1", "a2"]);
    const entries = await loop.ledgerEntries(output.runId);
    expect(entries.map((entry) => [entry.callId, entry.state, entry.effects, entry.attempts])).toEqual([
      ["a1", "completed", "unsafe", 1],
      ["w1", "completed", "idempotent", 1],
      ["a2", "completed", "unsafe", 1],
    ]);
    expect(entries.map((entry) => entry.result)).toEqual(output.results);
  });

  it(
    "after SIGKILLs mid-call: the unsafe call is outcome_unknown and not run again, journaled calls are not run again, the idempotent call runs again",
    async () => {
      const calls = [append("b1"), write("v1"), append("b2", { hold: true }), write("v2", { hold: true }), append("b3")];
      const invocation = runLoop(calls, "run-kill-twice");
      for (const held of ["b2", "v2"]) {
        await waitUntil(async () => existsSync(path.join(loop.dir, `held-${held}`)), `${held} to hold`, 30_000);
        await loop.restart();
      }
      const output = await invocation;
      expect(output.results.map((result) => result.error?.code ?? "ok")).toEqual(["ok", "ok", "outcome_unknown", "ok", "ok"]);
      expect(linesOf("lines.txt", "b")).toEqual(["b1", "b2", "b3"]);
      expect(linesOf("runs.txt", "v")).toEqual(["v1", "v2", "v2"]);
      const entries = await loop.ledgerEntries("run-kill-twice");
      expect(entries.map((entry) => [entry.callId, entry.state, entry.attempts])).toEqual([
        ["b1", "completed", 1],
        ["v1", "completed", 1],
        ["b2", "failed", 1],
        ["v2", "completed", 2],
        ["b3", "completed", 1],
      ]);
      expect(entries.map((entry) => entry.result)).toEqual(output.results);
    },
    KILL_TEST_TIMEOUT_MS,
  );

  it(
    "random SIGKILLs of the endpoint during a loop of mixed calls: no unsafe effect twice, no completed result lost",
    async () => {
      const random = seededRandom(36);
      const calls = Array.from({ length: 12 }, (_, index) => {
        const delayMs = 100 + Math.floor(random() * 300);
        return index % 3 === 1 ? write(`m${index}`, { delayMs }) : append(`m${index}`, { delayMs });
      });
      await loop.sparesReady(5); // the kills must not wait for a cold start while the loop runs on
      let settled = false;
      const invocation = runLoop(calls, "run-random-kills").finally(() => {
        settled = true;
      });
      let kills = 0;
      while (!settled && kills < 5) {
        await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(random() * 600)));
        if (settled) break;
        await loop.restart();
        kills += 1;
      }
      const output = await invocation;
      expect(kills).toBeGreaterThan(0);
      const appended = loop.counts("lines.txt"); // other tests' ids start with other letters
      const duplicates = [...appended.values()].filter((count) => count > 1).length;
      expect(duplicates).toBe(0);
      const entries = await loop.ledgerEntries("run-random-kills");
      expect(entries.map((entry) => entry.callId)).toEqual(calls.map((call) => call.id));
      const lost = entries.filter((entry, index) => entry.state === "completed" && JSON.stringify(entry.result) !== JSON.stringify(output.results[index]));
      expect(lost).toEqual([]);
      expect(entries.map((entry) => entry.result)).toEqual(output.results);
      calls.forEach((call, index) => {
        const code = output.results[index]?.error?.code ?? "ok";
        if (call.name === "WriteNote") expect(code).toBe("ok");
        if (call.name === "AppendLine" && code === "ok") expect(appended.get(call.id)).toBe(1);
        expect(["ok", "outcome_unknown"]).toContain(code);
      });
      const unknown = output.results.filter((result) => result.error?.code === "outcome_unknown").length;
      console.info(`restate random kills: ${kills} kills, ${duplicates} duplicate appends, ${lost.length} lost results, ${unknown} outcome_unknown`);
    },
    KILL_TEST_TIMEOUT_MS,
  );

  it("host misuse fails the invocation for good (TerminalError) without running the tool", async () => {
    const misuse = async (options: unknown) => {
      const outcome = await invokeHandler(server.ingressUrl, { service: "ToolLoop", handler: "run", input: { calls: [append("x1")], options } });
      return outcome.ok ? "ran" : (JSON.parse(outcome.body) as { code: number; message: string; metadata?: { sdkErrorCode?: string } });
    };
    expect(await misuse({ runId: "" })).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^invalid_options: .*runId must be a string of 1-200 characters/),
      metadata: { sdkErrorCode: "invalid_options" },
    });
    expect(await misuse({ durable: { runId: "r" } })).toMatchObject({ message: expect.stringContaining("pass { runId } instead") });
    expect(await misuse({ runID: "r" })).toMatchObject({ message: expect.stringContaining('option "runID"; did you mean "runId"?') });
    expect(linesOf("lines.txt", "x")).toEqual([]);
  });

  it("a registry without a ledger fails the invocation for good (the executor's SdkError as TerminalError)", async () => {
    const outcome = await invokeHandler(server.ingressUrl, { service: "ToolLoop", handler: "run", input: { calls: [append("y1")], ledger: false } });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.body).toMatch(/invalid_options.*ledger/s);
    expect(linesOf("lines.txt", "y")).toEqual([]);
  });
});

/** A small deterministic generator (mulberry32), so a failing kill pattern can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
