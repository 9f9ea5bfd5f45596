// A Restate endpoint (the "host" the tests SIGKILL): service ToolLoop, handler run({ calls }) runs each call
// through executeToolCallInRestate on a registry whose ledger is a KyselyCallLedger on a SQLite file.
// Usage: startEndpointProcess({ entry: <this file>, env: { LOOP_DIR: <dir>, LEDGER_FILE: <sqlite file> } });
// input.ledger false: a registry without a ledger (no LEDGER_FILE: always).
import { type ToolCall, type ToolResult, createToolRegistry } from "@agent-tools/core";
import { openCallLedger } from "@agent-tools/durable";
import { openSqliteStorage } from "@agent-tools/storage";
import * as restate from "@restatedev/restate-sdk";
import { type RestateToolCallOptions, executeToolCallInRestate } from "../execute-tool-call-in-restate.js";
import { endpointPort } from "../testing/index.js";
import { loopTools } from "./loop-tools.js";

const dir = process.env.LOOP_DIR;
const ledgerFile = process.env.LEDGER_FILE;
if (dir === undefined) throw new Error("LOOP_DIR is required");

const storage = ledgerFile === undefined ? undefined : await openSqliteStorage({ filename: ledgerFile });
const ledger = storage === undefined ? undefined : await openCallLedger(storage);
const tools = loopTools(dir);
const bundles = [{ id: "loop", trusted: true, listTools: () => tools }];
const registry = createToolRegistry({ workdir: dir, bundles, ledger });
const registryWithoutLedger = createToolRegistry({ workdir: dir, bundles });

/** What run answers: the run id the ledger used and each call's result, in order. */
export interface ToolLoopOutput {
  readonly runId: string;
  readonly results: ToolResult[];
}

const toolLoop = restate.service({
  name: "ToolLoop",
  handlers: {
    // options: passed as they are (the misuse tests send wrong ones).
    run: async (
      ctx: restate.Context,
      input: { calls: ToolCall[]; runId?: string; options?: RestateToolCallOptions; ledger?: boolean },
    ): Promise<ToolLoopOutput> => {
      const options = input.options ?? (input.runId === undefined ? undefined : { runId: input.runId });
      const results: ToolResult[] = [];
      const chosen = input.ledger === false ? registryWithoutLedger : registry;
      for (const call of input.calls) results.push(await executeToolCallInRestate(ctx, chosen, call, options));
      return { runId: input.runId ?? String(ctx.request().id), results };
    },
  },
});

await restate
  .endpoint()
  .bind(toolLoop)
  .listen(await endpointPort());
