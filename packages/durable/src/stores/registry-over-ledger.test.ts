import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolCall, createToolRegistry, defineTool } from "@agent-tools/core";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { usePostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { KyselyCallLedger } from "../index.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-ledger-registry-")));
const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A host "process": a storage, a ledger on it and a registry of one unsafe tool that counts its runs in a file. */
async function host(open: () => Promise<Storage>, sent: string) {
  const storage = await open();
  const ledger = await KyselyCallLedger.open(storage);
  const send = defineTool({
    name: "Send",
    description: "Sends a message.",
    inputSchema: z.object({ text: z.string() }),
    effects: "unsafe",
    execute: ({ text }) => {
      fs.appendFileSync(sent, `${text}\n`);
      return { content: `sent ${text} ✓`, details: { text, at: "now" } };
    },
  });
  const registry = createToolRegistry({ workdir: temporary, ledger, bundles: [{ id: "test", trusted: true, listTools: () => [send] }] });
  return {
    ledger,
    run: (call: ToolCall, runId: string) => registry.executeToolCall(call, { durable: { runId } }),
    close: async () => {
      await registry.close();
      await storage.close();
    },
  };
}

describe.each([
  ["SQLite", () => openSqliteStorage({ dataDir: path.join(temporary, "sqlite") })],
  ["PostgreSQL", async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("ledger_registry")) })],
] as const)("executeToolCall over KyselyCallLedger on %s", (label, open) => {
  it("replays a completed call after a reopen without running it, and reports an interrupted unsafe call outcome_unknown", async () => {
    const sent = path.join(temporary, `sent-${label}.txt`);
    const runId = `turn-${label}-${Date.now()}`;
    const call: ToolCall = { id: "call_1", name: "Send", arguments: { text: "hello" } };
    const first = await host(open, sent);
    const original = await first.run(call, runId);
    expect(original.isError).toBe(false);
    expect(await first.ledger.get({ runId, callId: "call_1" })).toMatchObject({ state: "completed", attempts: 1, effects: "unsafe", result: original });
    // A host that died between start and finish: the entry is started, the effect may or may not have happened.
    const interrupted = (await first.ledger.start({ ...(await first.ledger.get({ runId, callId: "call_1" }))!, callId: "call_2" }, 0)).entry;
    expect(interrupted.state).toBe("started");
    await first.close();

    const second = await host(open, sent);
    expect(await second.run(call, runId)).toEqual(original);
    const unknown = await second.run({ id: "call_2", name: "Send", arguments: { text: "hello" } }, runId);
    expect(unknown.isError).toBe(true);
    expect(unknown.error?.code).toBe("outcome_unknown");
    expect(await second.ledger.get({ runId, callId: "call_2" })).toMatchObject({ state: "failed", result: unknown });
    // The same call id with other arguments is a conflict, not a run.
    const conflict = await second.run({ id: "call_1", name: "Send", arguments: { text: "other" } }, runId);
    expect(conflict.isError).toBe(true);
    await second.close();
    expect(fs.readFileSync(sent, "utf8")).toBe("hello\n");
  });
});
