/**
 * MCP tools interrupted by a crash, on a real stdio MCP server that logs
 * every call it gets: a tool its server marks idempotent runs again on the
 * resumed run; an unmarked one is reported outcome_unknown and the server
 * never sees it a second time; a third run answers both from the ledger.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ToolCall, type ToolResult, toolResultText } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { FinishFailingLedger } from "./__fixtures__/finish-failing-ledger.js";

const ANNOTATED_SERVER = fileURLToPath(new URL("./__fixtures__/annotated-mcp-server.mjs", import.meta.url));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-durable-mcp-")));
const workdir = path.join(temporary, "work");
fs.mkdirSync(workdir);
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const server = { id: "annotated", enabled: true, transport: "stdio", command: process.execPath, args: [ANNOTATED_SERVER, temporary], timeoutMs: 20_000 };

/** One host's life: a registry on the server, the calls run durably in order, closed. */
async function runHost(ledger: CallLedger, calls: readonly ToolCall[]): Promise<ToolResult[]> {
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, "data"),
    memory: false,
    ledger,
    mcp: { getSettings: () => ({ servers: [server], selected: [] }) as never, toolSearch: false },
  });
  try {
    const results: ToolResult[] = [];
    for (const call of calls) results.push(await registry.executeToolCall(call, { durable: { runId: "run-mcp" } }));
    return results;
  } finally {
    await registry.close();
  }
}

function serverCalls(): string[] {
  const log = path.join(temporary, "calls.log");
  return fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n") : [];
}

describe("MCP tool calls resumed after a crash", () => {
  it("runs an idempotent-marked tool again and never repeats an unmarked one", async () => {
    const ledger = new InMemoryCallLedger();
    const calls: ToolCall[] = [
      { id: "call_upsert", name: "mcp_annotated_upsert", arguments: {} },
      { id: "call_send", name: "mcp_annotated_send_email", arguments: {} },
    ];
    const first = await runHost(new FinishFailingLedger(ledger), calls);
    expect(first.map((result) => result.isError)).toEqual([false, false]);
    expect(serverCalls()).toEqual(["upsert", "send_email"]);

    const [upsert, send] = await runHost(ledger, calls);
    expect(upsert?.isError, toolResultText(upsert as ToolResult, "")).toBe(false);
    expect(send?.error?.code).toBe("outcome_unknown");
    expect(serverCalls()).toEqual(["upsert", "send_email", "upsert"]);
    expect(await ledger.get({ runId: "run-mcp", callId: "call_upsert" })).toMatchObject({ state: "completed", attempts: 2, effects: "idempotent" });
    expect(await ledger.get({ runId: "run-mcp", callId: "call_send" })).toMatchObject({ state: "failed", attempts: 1, effects: "unsafe" });

    const third = await runHost(ledger, calls);
    expect(third).toEqual([upsert, send]);
    expect(serverCalls()).toEqual(["upsert", "send_email", "upsert"]);
  });
});
