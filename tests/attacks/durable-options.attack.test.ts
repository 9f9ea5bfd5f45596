/**
 * Bad configuration of durable calls must fail closed and loudly: the host's `durable.runId` that no
 * ledger can store is the host's error (SdkError), never a silent "ledger unavailable, try again later"
 * answered to the model; a call id the ledger cannot store is recorded under its digest.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, createToolRegistry, defineTool } from "@agent-tools/core";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-options-")));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function setup() {
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
  const registry = createToolRegistry({ workdir: work, ledger: new InMemoryCallLedger(), bundles: [{ id: "t", trusted: true, listTools: () => [tool] }] });
  return { registry, runs };
}

describe("durable options no ledger can hold", () => {
  for (const [label, runId] of [
    ["a NUL", "run\u0000a"],
    ["a lone surrogate", "run-\ud800"],
  ] as const) {
    it(`a runId with ${label} is the host's SdkError("invalid_options"), and nothing runs`, async () => {
      const { registry, runs } = setup();
      const error = await registry.executeToolCall({ id: "c1", name: "Send", arguments: { text: "a" } }, { durable: { runId } }).then(
        (result) => result,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe("invalid_options");
      expect(runs).toEqual([]);
    });
  }

  it("a call id the ledger cannot store (NUL, lone surrogate, 300 characters) is recorded under its digest: it runs once, replays, and never crashes the loop", async () => {
    const { registry, runs } = setup();
    for (const [index, id] of ["c\u00001", "c\uD8001", "x".repeat(300)].entries()) {
      const first = await registry.executeToolCall({ id, name: "Send", arguments: { text: `a${index}` } }, { durable: { runId: "r" } });
      const again = await registry.executeToolCall({ id, name: "Send", arguments: { text: `a${index}` } }, { durable: { runId: "r" } });
      expect(first.isError).toBe(false);
      expect(again).toEqual(first);
    }
    expect(runs).toEqual(["a0", "a1", "a2"]);
  });
});
