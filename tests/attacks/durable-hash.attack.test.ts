/**
 * Attacks on the identity of a durable call (run id, call id, tool name, arguments hash):
 * a model controls the call id and the arguments, and tries to get one call answered with
 * another call's recorded result, or to lose a completed result.
 */
import { callIdentityHash } from "@agent-tools/core/internal";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolDefinition, createToolRegistry, defineTool } from "@agent-tools/core";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-hash-")));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text ?? "").join("");

function registryWith(tools: ToolDefinition[], ledger: InMemoryCallLedger) {
  return createToolRegistry({ workdir: work, ledger, bundles: [{ id: "attack", trusted: true, listTools: () => tools }] });
}

describe("durable call identity", () => {
  it("a __proto__ member is part of the arguments: a call id reused with it is a conflict, not the other call's result", async () => {
    const runs: string[] = [];
    const tool = defineTool({
      name: "Post",
      description: "Posts a JSON payload.",
      inputSchema: z.object({ payload: z.record(z.string(), z.unknown()) }),
      effects: "unsafe",
      execute: () => {
        runs.push("run");
        return { content: `posted run ${runs.length}` };
      },
    });
    const ledger = new InMemoryCallLedger();
    const first = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Post", arguments: '{"payload":{"a":1}}' }, { durable: { runId: "r" } });
    const second = await registryWith([tool], ledger).executeToolCall(
      { id: "c1", name: "Post", arguments: '{"payload":{"a":1,"__proto__":{"admin":true}}}' },
      { durable: { runId: "r" } },
    );
    expect(textOf(first)).toBe("posted run 1");
    expect(second.error?.code).toBe("conflict");
    expect(textOf(second)).not.toContain("posted run 1");
  });

  it("a primitive __proto__ member is part of the arguments too", async () => {
    const tool = defineTool({
      name: "Post",
      description: "Posts.",
      inputSchema: z.object({ payload: z.record(z.string(), z.unknown()) }),
      effects: "unsafe",
      execute: () => ({ content: "posted" }),
    });
    const ledger = new InMemoryCallLedger();
    await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Post", arguments: '{"payload":{}}' }, { durable: { runId: "r" } });
    const second = await registryWith([tool], ledger).executeToolCall(
      { id: "c1", name: "Post", arguments: '{"payload":{"__proto__":"x"}}' },
      { durable: { runId: "r" } },
    );
    expect(second.error?.code).toBe("conflict");
  });

  it("a completed call whose details JSON cannot write (a BigInt) keeps its completion: not reported outcome_unknown after a restart", async () => {
    const runs: string[] = [];
    const tool = defineTool({
      name: "Stat",
      description: "Stats.",
      inputSchema: z.object({ path: z.string() }),
      effects: "unsafe",
      execute: () => {
        runs.push("run");
        return { content: "size 5", details: { size: 5n } };
      },
    });
    const ledger = new InMemoryCallLedger();
    const first = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Stat", arguments: { path: "a" } }, { durable: { runId: "r" } });
    const again = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Stat", arguments: { path: "a" } }, { durable: { runId: "r" } });
    expect(first.isError).toBe(false);
    expect(runs).toEqual(["run"]);
    expect(again.error?.code).not.toBe("outcome_unknown");
    expect(again.isError).toBe(false);
    expect(textOf(again)).toBe("size 5");
  });
});

describe("durable results JSON cannot write", () => {
  it("a completed call whose details hold a cycle keeps its completion (recorded without the details)", async () => {
    const runs: string[] = [];
    const tool = defineTool({
      name: "Graph",
      description: "Graph.",
      inputSchema: z.object({ node: z.string() }),
      effects: "unsafe",
      execute: () => {
        runs.push("run");
        const node: Record<string, unknown> = { name: "a" };
        node.self = node;
        return { content: "graph built", details: { node } };
      },
    });
    const ledger = new InMemoryCallLedger();
    await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Graph", arguments: { node: "a" } }, { durable: { runId: "r" } });
    const again = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Graph", arguments: { node: "a" } }, { durable: { runId: "r" } });
    expect(runs).toEqual(["run"]);
    expect(again.isError).toBe(false);
    expect(textOf(again)).toBe("graph built");
  });

  it("an interrupted idempotent call whose resume answers done with a BigInt in its details is recorded done, not unavailable", async () => {
    const runs: string[] = [];
    const tool = defineTool({
      name: "Put",
      description: "Put.",
      inputSchema: z.object({ key: z.string() }),
      effects: "idempotent",
      resume: () => ({ action: "done", output: { content: "already there", details: { version: 7n } } }),
      execute: () => {
        runs.push("run");
        return { content: "put" };
      },
    });
    const ledger = new InMemoryCallLedger();
    // The executor's hash: SHA-256 of the registry's workdir and the arguments as canonical JSON.
    const argumentsHash = await callIdentityHash(work, { key: "k" });
    await ledger.start({ runId: "r", callId: "c1", toolName: "Put", argumentsHash, effects: "idempotent" }, 0);
    const resumed = await registryWith([tool], ledger).executeToolCall({ id: "c1", name: "Put", arguments: { key: "k" } }, { durable: { runId: "r" } });
    expect(runs).toEqual([]);
    expect(resumed.error?.code).toBeUndefined();
    expect(textOf(resumed)).toBe("already there");
    expect((await ledger.get({ runId: "r", callId: "c1" }))?.state).toBe("completed");
  });
});

describe("canonical JSON of the arguments", () => {
  it("tells apart what the tool would see differently, and only that", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "Echo",
      description: "Echoes.",
      inputSchema: z.object({ value: z.unknown() }),
      effects: "unsafe",
      execute: ({ value }) => {
        seen.push(value);
        return { content: `echo ${JSON.stringify(value)}` };
      },
    });
    // [first arguments, second arguments with the same call id, same call?]
    const pairs: [string, string, boolean][] = [
      ['{"value":1}', '{"value":1.0}', true],
      ['{"value":1}', '{"value":"1"}', false],
      ['{"value":"caf\\u00e9"}', '{"value":"cafe\\u0301"}', false],
      ['{"value":{"a":1,"b":2}}', '{"value":{"b":2,"a":1}}', true],
      ['{"value":{"a":1}}', '{"value":{"a":2,"a":1}}', true],
      ['{"value":[1,2]}', '{"value":[2,1]}', false],
      ['{"value":null}', '{"value":{}}', false],
      ['{"value":"\\ud800"}', '{"value":"\\ufffd"}', false],
    ];
    for (const [index, [left, right, same]] of pairs.entries()) {
      const ledger = new InMemoryCallLedger();
      const id = `c${index}`;
      const first = await registryWith([tool], ledger).executeToolCall({ id, name: "Echo", arguments: left }, { durable: { runId: "r" } });
      const second = await registryWith([tool], ledger).executeToolCall({ id, name: "Echo", arguments: right }, { durable: { runId: "r" } });
      if (same) expect(second, `${left} ${right}`).toEqual(first);
      else expect(second.error?.code, `${left} ${right}`).toBe("conflict");
    }
  });
});
