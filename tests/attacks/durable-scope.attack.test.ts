/**
 * One call ledger shared by two registries (two projects, two tenants) whose host numbers its runs
 * per conversation ("turn-1"): the ledger's key is (runId, callId) and a call's identity is its tool
 * and arguments, so a call of project B with a call id project A used (providers that number their
 * ids "call_0", or a model that picks them) is answered with A's recorded result: A's file content in
 * B, B's own file never read, B's deny rule never asked. Fixed: a durable call's identity hashes the
 * registry's workdir with its arguments, so B's call meets A's entry as a `conflict` and nothing of A's
 * reaches B (run ids should still be unique across everything that shares a ledger).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-scope-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function project(name: string, notes: string): string {
  const workdir = path.join(temporary, name);
  fs.mkdirSync(workdir);
  fs.writeFileSync(path.join(workdir, "notes.txt"), notes);
  return workdir;
}

describe("a ledger shared by two projects", () => {
  it("does not answer project B's Read with project A's recorded result: B's call is a conflict, and runs under its own run id", async () => {
    const ledger = new InMemoryCallLedger();
    const a = await buildBuiltinToolRegistry({ workdir: project("a", "tenant A secret\n"), ledger });
    const b = await buildBuiltinToolRegistry({ workdir: project("b", "tenant B notes\n"), ledger });
    try {
      const call = { id: "call_0", name: "Read", arguments: { path: "notes.txt" } };
      const inA = await a.executeToolCall(call, { durable: { runId: "turn-1" } });
      expect(toolResultText(inA, "")).toContain("tenant A secret");
      const inB = await b.executeToolCall(call, { durable: { runId: "turn-1" } });
      expect(toolResultText(inB, "")).not.toContain("tenant A secret");
      expect(inB.isError).toBe(true);
      expect((inB as { error?: { code: string } }).error?.code).toBe("conflict");
      const ownRun = await b.executeToolCall(call, { durable: { runId: "b/turn-1" } });
      expect(toolResultText(ownRun, "")).toContain("tenant B notes");
    } finally {
      await a.close();
      await b.close();
    }
  });
});
