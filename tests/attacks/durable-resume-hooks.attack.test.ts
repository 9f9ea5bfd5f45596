/**
 * A tool's `resume` is host code the executor calls before an interrupted call runs again: one that
 * never answers must not hold the call past the host's abort, and one that answers nonsense must
 * settle the call (outcome_unknown), not throw out of the executor and leave it unsettled forever.
 */
import { callIdentityHash } from "@agent-tools/core/internal";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolDefinition, type ToolResumeDecision, createToolRegistry, defineTool } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-resume-")));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** An idempotent tool with `resume`, whose call c1 of run r was started and never finished. */
async function interrupted(resume: () => unknown) {
  const runs: string[] = [];
  const tool = defineTool({
    name: "Put",
    description: "Puts.",
    inputSchema: z.object({ key: z.string() }),
    effects: "idempotent",
    resume: resume as () => ToolResumeDecision,
    execute: ({ key }) => {
      runs.push(key);
      return { content: `put ${key}` };
    },
  });
  const ledger = new InMemoryCallLedger();
  const argumentsHash = await callIdentityHash(work, { key: "k" });
  await ledger.start({ runId: "r", callId: "c1", toolName: "Put", argumentsHash, effects: "idempotent" }, 0);
  const registry = createToolRegistry({ workdir: work, ledger, bundles: [{ id: "t", trusted: true, listTools: () => [tool as ToolDefinition] }] });
  return { registry, ledger, runs };
}

describe("a tool's resume", () => {
  it("that never answers does not hold the call past the host's abort", async () => {
    const { registry, runs } = await interrupted(() => new Promise(() => undefined));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await registry.executeToolCall({ id: "c1", name: "Put", arguments: { key: "k" } }, { durable: { runId: "r" }, signal: controller.signal });
    expect(result.error?.code).toBe("cancelled");
    expect(runs).toEqual([]);
  }, 10_000);

  for (const [label, decision] of [
    ["done without an output", { action: "done" }],
    ["done with a null output", { action: "done", output: null }],
  ] as const) {
    it(`that answers ${label} settles the call outcome_unknown, recorded`, async () => {
      const { registry, ledger, runs } = await interrupted(() => decision);
      const result = await registry.executeToolCall({ id: "c1", name: "Put", arguments: { key: "k" } }, { durable: { runId: "r" } });
      expect(result.error?.code).toBe("outcome_unknown");
      expect(runs).toEqual([]);
      expect((await ledger.get({ runId: "r", callId: "c1" }))?.state).toBe("failed");
    });
  }
});

describe("a ledger that stops answering", () => {
  it("does not hold a durable call past the host's abort, and the tool does not run", async () => {
    const runs: string[] = [];
    const tool = defineTool({
      name: "Send",
      description: "Sends.",
      inputSchema: z.object({ text: z.string() }),
      effects: "unsafe",
      execute: ({ text }) => {
        runs.push(text);
        return { content: "sent" };
      },
    });
    const real = new InMemoryCallLedger();
    const hanging: CallLedger = {
      get: () => new Promise(() => undefined),
      approve: (call) => real.approve(call),
      start: (call, expected) => real.start(call, expected),
      finish: (key, attempt, outcome) => real.finish(key, attempt, outcome),
      list: (runId, options) => real.list(runId, options),
      deleteRun: (runId) => real.deleteRun(runId),
    };
    const registry = createToolRegistry({
      workdir: work,
      ledger: hanging,
      bundles: [{ id: "t", trusted: true, listTools: () => [tool as ToolDefinition] }],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, { durable: { runId: "r" }, signal: controller.signal });
    expect(result.error?.code).toBe("cancelled");
    expect(runs).toEqual([]);
  }, 10_000);

  it("still records a cancelled call's result after the abort", async () => {
    const ledger = new InMemoryCallLedger();
    const controller = new AbortController();
    const tool = defineTool({
      name: "Slow",
      description: "Slow.",
      inputSchema: z.object({ text: z.string() }),
      effects: "unsafe",
      execute: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const registry = createToolRegistry({ workdir: work, ledger, bundles: [{ id: "t", trusted: true, listTools: () => [tool as ToolDefinition] }] });
    const result = await registry.executeToolCall({ id: "c1", name: "Slow", arguments: { text: "a" } }, { durable: { runId: "r" }, signal: controller.signal });
    expect(result.error?.code).toBe("cancelled");
    expect(await ledger.get({ runId: "r", callId: "c1" })).toMatchObject({ state: "failed", result: { error: { code: "cancelled" } } });
  });
});

describe("a ledger that stops answering after the tool ran", () => {
  it("does not hold the call's result past the host's abort (the call stays started, as after a crash)", async () => {
    const runs: string[] = [];
    const tool = defineTool({
      name: "Send",
      description: "Sends.",
      inputSchema: z.object({ text: z.string() }),
      effects: "unsafe",
      execute: ({ text }) => {
        runs.push(text);
        return { content: "sent" };
      },
    });
    const real = new InMemoryCallLedger();
    const silentOnFinish: CallLedger = {
      get: (key) => real.get(key),
      approve: (call) => real.approve(call),
      start: (call, expected) => real.start(call, expected),
      finish: () => new Promise(() => undefined),
      list: (runId, options) => real.list(runId, options),
      deleteRun: (runId) => real.deleteRun(runId),
    };
    const registry = createToolRegistry({
      workdir: work,
      ledger: silentOnFinish,
      bundles: [{ id: "t", trusted: true, listTools: () => [tool as ToolDefinition] }],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, { durable: { runId: "r" }, signal: controller.signal });
    expect(runs).toEqual(["a"]);
    expect(result.isError).toBe(false);
    expect((await real.get({ runId: "r", callId: "c1" }))?.state).toBe("started");
  }, 10_000);
});
