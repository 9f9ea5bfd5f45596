import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, type ToolCall, type ToolRegistry, type ToolResult, createToolRegistry } from "@agent-tools/core";
import { usePostgresTestCluster } from "@agent-tools/storage/testing";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbosToolStepName } from "./execute-tool-call-as-dbos-step.js";
import { type DbosToolCallOptions, executeToolCallAsDbosStep } from "./index.js";
import { openHostLedger } from "./__fixtures__/open-postgres-ledger.js";
import { type HostLedger, createHostTools } from "./testing/index.js";

const workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-dbos-step-")));
const cluster = usePostgresTestCluster();
const tools = createHostTools(() => {});
let hostLedger: HostLedger;
let registry: ToolRegistry;
let registryWithoutLedger: ToolRegistry;

// DBOS keeps one instance per process (its own design): the workflows are registered once, before launch.
const runCalls = DBOS.registerWorkflow(
  async (calls: ToolCall[], options?: DbosToolCallOptions): Promise<ToolResult[]> => {
    const results: ToolResult[] = [];
    for (const call of calls) results.push(await executeToolCallAsDbosStep(registry, call, options));
    return results;
  },
  { name: "stepTestRunCalls" },
);
const callWithoutLedger = DBOS.registerWorkflow(async (call: ToolCall) => executeToolCallAsDbosStep(registryWithoutLedger, call), {
  name: "stepTestWithoutLedger",
});
const callFromStep = DBOS.registerWorkflow(async (call: ToolCall) => DBOS.runStep(() => executeToolCallAsDbosStep(registry, call), { name: "outer" }), {
  name: "stepTestFromStep",
});

beforeAll(async () => {
  hostLedger = await openHostLedger(await cluster().createDatabase("ledger"));
  registry = createToolRegistry({ workdir, bundles: [{ id: "test", trusted: true, listTools: () => tools }], ledger: hostLedger.ledger });
  registryWithoutLedger = createToolRegistry({ workdir, bundles: [{ id: "test", trusted: true, listTools: () => tools }] });
  DBOS.setConfig({ name: "agent-tools-dbos-step-test", systemDatabaseUrl: await cluster().createDatabase("dbos"), logLevel: "error" });
  await DBOS.launch();
});
afterAll(async () => {
  await DBOS.shutdown({ deregister: true });
  await registry?.close();
  await registryWithoutLedger?.close();
  await hostLedger?.close();
  rmSync(workdir, { recursive: true, force: true });
});

const append: ToolCall = { id: "call-1", name: "AppendLine", arguments: { text: "one" } };

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

describe("executeToolCallAsDbosStep", () => {
  it("records each call as a step named after the call, its output the result the ledger holds under the workflow id", async () => {
    const calls: ToolCall[] = [append, { id: "call-2", name: "SetValue", arguments: { key: "k", value: "v" } }, { id: "call-3", name: "Nope", arguments: {} }];
    const handle = await DBOS.startWorkflow(runCalls, { workflowID: "workflow-steps" })(calls);
    const results = await handle.getResult();
    expect(results.map((result) => result.isError)).toEqual([false, false, true]);
    const steps = await DBOS.listWorkflowSteps("workflow-steps");
    expect(steps?.map((step) => step.name)).toEqual(["tool AppendLine call-1", "tool SetValue call-2", "tool Nope call-3"]);
    expect(steps?.map((step) => step.output)).toEqual(results);
    const entries = await hostLedger.ledger.list("workflow-steps");
    expect(entries.map((entry) => [entry.callId, entry.state, entry.effects])).toEqual([
      ["call-1", "completed", "unsafe"],
      ["call-2", "completed", "idempotent"],
    ]);
    expect(entries.map((entry) => entry.result)).toEqual(results.slice(0, 2));
    expect(dbosToolStepName(append)).toBe("tool AppendLine call-1");
  });

  it("records the calls under options.runId when given", async () => {
    const handle = await DBOS.startWorkflow(runCalls, { workflowID: "workflow-own-run" })([append], { runId: "turn-7" });
    await handle.getResult();
    expect((await hostLedger.ledger.list("turn-7")).map((entry) => entry.callId)).toEqual(["call-1"]);
    expect(await hostLedger.ledger.list("workflow-own-run")).toEqual([]);
  });

  it("throws SdkError outside a workflow and from inside a step", async () => {
    expect((await rejection(executeToolCallAsDbosStep(registry, append))).code).toBe("unsupported");
    const handle = await DBOS.startWorkflow(callFromStep, { workflowID: "workflow-from-step" })(append);
    const error = await handle.getResult().then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toMatch(/inside a DBOS step/);
  });

  it("refuses a workflow id longer than a ledger run id unless runId names a shorter run, before any step", async () => {
    const longId = `w${"x".repeat(220)}`;
    const handle = await DBOS.startWorkflow(runCalls, { workflowID: longId })([append]);
    const error = await handle.getResult().then(
      () => undefined,
      (thrown: unknown) => thrown as SdkError,
    );
    expect(error).toMatchObject({ code: "invalid_options" });
    expect(await DBOS.listWorkflowSteps(longId)).toEqual([]);
  });

  it("rejects with the registry's SdkError when the registry has no ledger, running nothing", async () => {
    const handle = await DBOS.startWorkflow(callWithoutLedger, { workflowID: "workflow-no-ledger" })({
      id: "call-9",
      name: "AppendLine",
      arguments: { text: "x" },
    });
    const error = await handle.getResult().then(
      () => undefined,
      (thrown: unknown) => thrown as SdkError,
    );
    expect(error).toMatchObject({ code: "invalid_options" });
    expect(await hostLedger.ledger.get({ runId: "workflow-no-ledger", callId: "call-9" })).toBeUndefined();
  });

  it("refuses bad calls and options before touching DBOS", async () => {
    const cases: Array<[unknown, unknown, string]> = [
      [null, {}, "invalid_tool_call"],
      [{ name: "AppendLine" }, {}, "invalid_tool_call"],
      [{ id: "x", name: "" }, {}, "invalid_tool_call"],
      [append, { runId: "" }, "invalid_options"],
      [append, { runId: "r".repeat(201) }, "invalid_options"],
      [append, { durable: { runId: "x" } }, "invalid_options"],
      [append, "fast", "invalid_options"],
      [append, { runid: "turn-1" }, "invalid_options"],
    ];
    for (const [call, options, code] of cases) {
      const error = await rejection(executeToolCallAsDbosStep(registry, call as ToolCall, options as DbosToolCallOptions));
      expect(error.code, JSON.stringify([call, options])).toBe(code);
    }
    expect((await rejection(executeToolCallAsDbosStep({} as ToolRegistry, append))).code).toBe("invalid_options");
    expect((await rejection(executeToolCallAsDbosStep(registry, append, { runid: "turn-1" } as DbosToolCallOptions))).message).toMatch(/did you mean `runId`/);
  });
});
