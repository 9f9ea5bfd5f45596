import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import type { ToolBundle, ToolDefinition, ToolEffects, ToolResumeDecision } from "../types.js";
import { FixtureCallLedger } from "./__fixtures__/memory-call-ledger.js";
import { createToolRegistry } from "./create-tool-registry.js";
import { defineTool } from "./define-tool.js";
import { callIdentityHash, canonicalJson } from "./durable-effects.js";
import type { ToolRegistryOptions } from "./tool-registry.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-durable-gate-")));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

const bundleOf = (tools: ToolDefinition[]): ToolBundle => ({ id: "test", trusted: true, listTools: () => tools });

/** A tool counting its runs; effects and resume as given. */
function counted(name: string, options: { effects?: ToolEffects; resume?: () => ToolResumeDecision; readOnly?: boolean; fail?: boolean } = {}) {
  const runs: string[] = [];
  const tool = defineTool({
    name,
    description: `${name}.`,
    inputSchema: z.object({ text: z.string() }),
    metadata: { isReadOnly: options.readOnly === true },
    ...(options.effects === undefined ? {} : { effects: options.effects }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
    execute: ({ text }) => {
      runs.push(text);
      if (options.fail) return { content: `failed ${text}`, isError: true };
      return { content: `${name} ran ${text} (run ${runs.length})` };
    },
  });
  return { tool, runs };
}

function registryWith(tools: ToolDefinition[], ledger: FixtureCallLedger | undefined, extra: Partial<ToolRegistryOptions> = {}) {
  return createToolRegistry({ workdir: work, bundles: [bundleOf(tools)], ...(ledger === undefined ? {} : { ledger }), ...extra });
}

const durable = (runId = "run-1") => ({ durable: { runId } });
const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text ?? "").join("");

describe("executeToolCall with durable (the call ledger)", () => {
  it("returns a completed call's recorded result without running the tool again", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const first = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    // A new registry: another host process after a restart.
    const second = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(runs).toEqual(["a"]);
    expect(second).toEqual(first);
    expect(ledger.writes).toEqual(["start c1 1", "finish c1 completed"]);
  });

  it("records a failed result and answers it again, as the host first got it", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe", fail: true });
    const first = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    const again = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(first.isError).toBe(true);
    expect(again).toEqual(first);
    expect(runs).toEqual(["a"]);
  });

  it("reports an unsafe call that started and never finished as outcome_unknown, never runs it, and answers the same afterwards", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const hash = await callIdentityHash(work, { text: "a" });
    await ledger.start({ runId: "run-1", callId: "c1", toolName: "Send", argumentsHash: hash, effects: "unsafe" }, 0);
    const asked: string[] = [];
    const registry = registryWith([tool], ledger, { approval: { policies: { Send: "ask" }, onAsk: ({ toolName }) => asked.push(toolName) > 0 } });
    const result = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("outcome_unknown");
    expect(result.error?.recoverable).toBe(false);
    expect(textOf(result)).toMatch(/may or may not have taken effect/);
    expect(runs).toEqual([]);
    // Decided before approval: nobody is asked about a call that will not run.
    expect(asked).toEqual([]);
    expect(ledger.entries.get(JSON.stringify(["run-1", "c1"]))?.state).toBe("failed");
    const again = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(again).toEqual(result);
  });

  it("runs an interrupted idempotent or read-only call again, as the next attempt", async () => {
    const ledger = new FixtureCallLedger();
    const write = counted("Put", { effects: "idempotent" });
    const look = counted("Look", { readOnly: true });
    for (const [name, effects] of [
      ["Put", "idempotent"],
      ["Look", "none"],
    ] as const) {
      await ledger.start({ runId: "run-1", callId: name, toolName: name, argumentsHash: await callIdentityHash(work, { text: "x" }), effects }, 0);
    }
    const registry = registryWith([write.tool, look.tool], ledger);
    const put = await registry.executeToolCall({ id: "Put", name: "Put", arguments: { text: "x" } }, durable());
    const seen = await registry.executeToolCall({ id: "Look", name: "Look", arguments: { text: "x" } }, durable());
    expect([put.isError, seen.isError]).toEqual([false, false]);
    expect(write.runs).toEqual(["x"]);
    expect(look.runs).toEqual(["x"]);
    expect(ledger.entries.get(JSON.stringify(["run-1", "Put"]))).toMatchObject({ state: "completed", attempts: 2 });
  });

  it("asks an idempotent tool's resume: done is recorded without running, unknown is reported", async () => {
    const ledger = new FixtureCallLedger();
    const done = counted("Fix", { effects: "idempotent", resume: () => ({ action: "done", output: { content: "already applied" } }) });
    const unsure = counted("Tweak", { effects: "idempotent", resume: () => ({ action: "unknown", note: "the file changed since" }) });
    for (const name of ["Fix", "Tweak"]) {
      await ledger.start(
        { runId: "run-1", callId: name, toolName: name, argumentsHash: await callIdentityHash(work, { text: "y" }), effects: "idempotent" },
        0,
      );
    }
    const registry = registryWith([done.tool, unsure.tool], ledger);
    const fixed = await registry.executeToolCall({ id: "Fix", name: "Fix", arguments: { text: "y" } }, durable());
    const tweaked = await registry.executeToolCall({ id: "Tweak", name: "Tweak", arguments: { text: "y" } }, durable());
    expect(textOf(fixed)).toBe("already applied");
    expect(fixed.isError).toBe(false);
    expect(tweaked.error?.code).toBe("outcome_unknown");
    expect(textOf(tweaked)).toMatch(/the file changed since/);
    expect(done.runs).toEqual([]);
    expect(unsure.runs).toEqual([]);
  });

  it("refuses a call id reused in the run for other arguments or another tool: not run, not answered with the other's result", async () => {
    const ledger = new FixtureCallLedger();
    const a = counted("Send", { effects: "unsafe" });
    const b = counted("Other", { effects: "unsafe" });
    const registry = registryWith([a.tool, b.tool], ledger);
    await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    const otherArgs = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "b" } }, durable());
    const otherTool = await registry.executeToolCall({ id: "c1", name: "Other", arguments: { text: "a" } }, durable());
    expect(otherArgs.error?.code).toBe("conflict");
    expect(otherTool.error?.code).toBe("conflict");
    expect(textOf(otherTool)).toMatch(/a Send call/);
    expect(a.runs).toEqual(["a"]);
    expect(b.runs).toEqual([]);
    // Another run is another key.
    const elsewhere = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "b" } }, durable("run-2"));
    expect(elsewhere.isError).toBe(false);
  });

  it("hashes arguments as canonical JSON: key order does not make another call", async () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const registry = registryWith([tool], ledger);
    await registry.executeToolCall({ id: "c1", name: "Send", arguments: '{"text":"a"}' }, durable());
    const again = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(again.isError).toBe(false);
    expect(runs).toEqual(["a"]);
  });

  it("records an approval so a resumed run does not ask again", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const asked: string[] = [];
    const approval = { policies: { Send: "ask" as const }, onAsk: ({ callId }: { callId: string }) => asked.push(callId) > 0 };
    // The host dies after the approval and before the call starts: here, the ledger refuses the start once.
    ledger.failNext.set("start", new Error("disk full"));
    const first = await registryWith([tool], ledger, { approval }).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(first.error?.code).toBe("unavailable");
    expect(runs).toEqual([]);
    const second = await registryWith([tool], ledger, { approval }).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(second.isError).toBe(false);
    expect(asked).toEqual(["c1"]);
    expect(runs).toEqual(["a"]);
    expect(ledger.writes).toEqual(["approve c1", "start c1 1", "finish c1 completed"]);
  });

  it("never runs a call it could not record as started, and still answers a run whose outcome it could not record", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    ledger.failNext.set("get", new Error("connection refused"));
    const unread = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    expect(unread.error?.code).toBe("unavailable");
    expect(textOf(unread)).toMatch(/connection refused/);
    expect(runs).toEqual([]);
    ledger.failNext.set("finish", new Error("connection lost"));
    const ran = await registryWith([tool], ledger).executeToolCall({ id: "c2", name: "Send", arguments: { text: "b" } }, durable());
    expect(ran.isError).toBe(false);
    expect(runs).toEqual(["b"]);
    // Left started: the next resume reports it unknown rather than running it twice.
    const resumed = await registryWith([tool], ledger).executeToolCall({ id: "c2", name: "Send", arguments: { text: "b" } }, durable());
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(runs).toEqual(["b"]);
  });

  it("runs a call once when two hosts execute it at the same time: the second answers the recorded result, or outcome_unknown while the first still runs", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const call = { id: "c1", name: "Send", arguments: { text: "a" } };
    const both = await Promise.all([
      registryWith([tool], ledger).executeToolCall(call, durable()),
      registryWith([tool], ledger).executeToolCall(call, durable()),
    ]);
    expect(runs).toEqual(["a"]);
    // Whichever claimed second answers the recorded result, or outcome_unknown when it looked while the first still ran.
    const [winner, loser] = both[0].isError ? [both[1], both[0]] : [both[0], both[1]];
    expect(winner.isError).toBe(false);
    if (loser.isError) expect(loser.error?.code).toBe("outcome_unknown");
    else expect(loser).toEqual(winner);

    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowRuns: string[] = [];
    const slow = defineTool({
      name: "Slow",
      description: "Slow.",
      inputSchema: z.object({ text: z.string() }),
      effects: "unsafe",
      execute: async ({ text }) => {
        slowRuns.push(text);
        await gate;
        return { content: "slow done" };
      },
    });
    const first = registryWith([slow], ledger).executeToolCall({ id: "s1", name: "Slow", arguments: { text: "a" } }, durable());
    while (slowRuns.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    // A started entry is taken for an interrupted one: the second host never runs it again.
    const second = await registryWith([slow], ledger).executeToolCall({ id: "s1", name: "Slow", arguments: { text: "a" } }, durable());
    release();
    expect(second.error?.code).toBe("outcome_unknown");
    expect((await first).isError).toBe(false);
    expect(slowRuns).toEqual(["a"]);
  });

  it("fails closed on host misuse: durable without a ledger, a bad run id or option, a missing call id, a bad ledger or effects", async () => {
    const { tool } = counted("Send", { effects: "unsafe" });
    const call = { id: "c1", name: "Send", arguments: { text: "a" } };
    await expect(registryWith([tool], undefined).executeToolCall(call, durable())).rejects.toThrow(/no call ledger: pass `ledger`/);
    const registry = registryWith([tool], new FixtureCallLedger());
    await expect(registry.executeToolCall(call, durable(""))).rejects.toBeInstanceOf(SdkError);
    await expect(registry.executeToolCall(call, durable("x".repeat(201)))).rejects.toThrow(/1-200 characters/);
    await expect(registry.executeToolCall(call, { durable: { runId: "r", runid: "r" } as never })).rejects.toThrow(/unknown option "runid"/);
    await expect(registry.executeToolCall({ ...call, id: "" }, durable())).rejects.toThrow(/needs the provider's call id/);
    expect(() => createToolRegistry({ workdir: work, bundles: [], ledger: { get: () => undefined } as never })).toThrow(
      /lacks approve, start, finish, list, deleteRun/,
    );
    expect(() =>
      defineTool({ name: "Bad", description: "Bad.", inputSchema: z.object({}), effects: "idempotant" as never, execute: () => ({ content: "" }) }),
    ).toThrow(/did you mean "idempotent"/);
  });

  it("counts a tool that declares nothing as unsafe unless it is read-only, and asks a per-input effects function", async () => {
    const ledger = new FixtureCallLedger();
    const plain = counted("Plain");
    const reader = counted("Reader", { readOnly: true });
    const perInput = defineTool({
      name: "Maybe",
      description: "Maybe.",
      inputSchema: z.object({ text: z.string() }),
      effects: ({ text }) => (text === "safe" ? "idempotent" : "unsafe"),
      execute: ({ text }) => ({ content: text }),
    });
    const registry = registryWith([plain.tool, reader.tool, perInput], ledger);
    for (const [id, name, text] of [
      ["p", "Plain", "a"],
      ["r", "Reader", "a"],
      ["m1", "Maybe", "safe"],
      ["m2", "Maybe", "boom"],
    ] as const) {
      await registry.executeToolCall({ id, name, arguments: { text } }, durable());
    }
    const effects = Object.fromEntries([...ledger.entries.values()].map((entry) => [entry.callId, entry.effects]));
    expect(effects).toEqual({ p: "unsafe", r: "none", m1: "idempotent", m2: "unsafe" });
  });

  it("decides an interrupted call by the stricter of its recorded and current effects, and keeps the recorded identity", async () => {
    const ledger = new FixtureCallLedger();
    // Recorded idempotent, unsafe since (an upgrade found it repeats an effect): not run again.
    const nowUnsafe = counted("Post", { effects: "unsafe" });
    // Recorded unsafe, idempotent since: still not run again (the attempt was made under the stricter word).
    const nowSafe = counted("Put", { effects: "idempotent" });
    await ledger.start(
      { runId: "run-1", callId: "post", toolName: "Post", argumentsHash: await callIdentityHash(work, { text: "a" }), effects: "idempotent" },
      0,
    );
    await ledger.start({ runId: "run-1", callId: "put", toolName: "Put", argumentsHash: await callIdentityHash(work, { text: "a" }), effects: "unsafe" }, 0);
    const registry = registryWith([nowUnsafe.tool, nowSafe.tool], ledger);
    const post = await registry.executeToolCall({ id: "post", name: "Post", arguments: { text: "a" } }, durable());
    const put = await registry.executeToolCall({ id: "put", name: "Put", arguments: { text: "a" } }, durable());
    expect([post.error?.code, put.error?.code]).toEqual(["outcome_unknown", "outcome_unknown"]);
    expect([nowUnsafe.runs, nowSafe.runs]).toEqual([[], []]);
    expect(ledger.entries.get(JSON.stringify(["run-1", "post"]))).toMatchObject({ state: "failed", effects: "idempotent" });
  });

  it("scopes a call's identity to the registry's workdir: another project sharing the ledger meets a conflict, not the recorded result", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const other = realpathSync(mkdtempSync(path.join(work, "other-")));
    await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, durable());
    const elsewhere = await createToolRegistry({ workdir: other, bundles: [bundleOf([tool])], ledger }).executeToolCall(
      { id: "c1", name: "Send", arguments: { text: "a" } },
      durable(),
    );
    expect(elsewhere.error?.code).toBe("conflict");
    expect(runs).toEqual(["a"]);
  });

  it("records a call id the ledger cannot store (too long, NUL) under its digest instead of failing the host", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const registry = registryWith([tool], ledger);
    for (const id of ["x".repeat(201), "a\u0000b"]) {
      const first = await registry.executeToolCall({ id, name: "Send", arguments: { text: id.slice(0, 3) } }, durable());
      expect(await registry.executeToolCall({ id, name: "Send", arguments: { text: id.slice(0, 3) } }, durable())).toEqual(first);
    }
    expect(runs).toHaveLength(2);
    expect([...ledger.entries.values()].map((entry) => entry.callId)).toEqual([
      expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    ]);
  });

  it("leaves calls without durable exactly as before: nothing is written", async () => {
    const ledger = new FixtureCallLedger();
    const { tool, runs } = counted("Send", { effects: "unsafe" });
    const registry = registryWith([tool], ledger);
    await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } });
    await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } });
    expect(runs).toEqual(["a", "a"]);
    expect(ledger.writes).toEqual([]);
  });
});
