/**
 * The DBOS tool host: one process that launches DBOS on a PostgreSQL system
 * database, registers a workflow running a fixed list of tool calls through
 * {@link executeToolCallAsDbosStep} (registry with a call ledger on
 * PostgreSQL), starts it under a fixed workflow id and writes the results.
 * Started again after a kill, DBOS recovers the pending workflow on launch
 * and the start with the same id joins it.
 */
import { writeFileSync, renameSync } from "node:fs";
import path from "node:path";
import { type ToolCall, type ToolResult, createToolRegistry } from "@agent-tools/core";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { executeToolCallAsDbosStep } from "../execute-tool-call-as-dbos-step.js";
import { openHostLedger } from "./host-ledger.js";
import { createHostTools } from "./host-tools.js";

/** What the host runs; passed to the host process as JSON. */
export interface DbosToolHostConfig {
  /** DBOS's system database (PostgreSQL URL). */
  readonly systemDatabaseUrl: string;
  /** The call ledger's database (PostgreSQL URL); may be the system database. */
  readonly ledgerUrl: string;
  /** The registry's workdir: the tools' files live here. */
  readonly workdir: string;
  /** The workflow id (also the ledger's run id). */
  readonly workflowId: string;
  /** The calls the workflow makes, in order. */
  readonly calls: readonly ToolCall[];
}

/** One call's result as the workflow returned it. */
export interface DbosToolHostResult {
  readonly callId: string;
  readonly result: ToolResult;
}

/** The file the host writes the workflow's results to, in its workdir. */
export const RESULTS_FILE = "results.json";
/** DBOS's application name and version for the host: a restarted host must match both to recover the workflow. */
const APPLICATION = { name: "agent-tools-dbos-host", version: "agent-tools-dbos-host-1" };

/** Runs the host to the end of its workflow; `announce` receives progress lines. */
export async function runDbosToolHost(config: DbosToolHostConfig, announce: (line: string) => void): Promise<DbosToolHostResult[]> {
  const tools = createHostTools(announce);
  const hostLedger = await openHostLedger(config.ledgerUrl);
  const registry = createToolRegistry({
    workdir: config.workdir,
    bundles: [{ id: "dbos-host", trusted: true, listTools: () => tools }],
    ledger: hostLedger.ledger,
    logger: { debug() {}, info() {}, warn: (message) => announce(`warn ${message}`), error: (message) => announce(`error ${message}`) },
  });
  try {
    const turn = DBOS.registerWorkflow(
      async (calls: readonly ToolCall[]): Promise<DbosToolHostResult[]> => {
        const results: DbosToolHostResult[] = [];
        for (const call of calls) results.push({ callId: call.id, result: await executeToolCallAsDbosStep(registry, call) });
        return results;
      },
      { name: "agentToolsHostTurn" },
    );
    DBOS.setConfig({ name: APPLICATION.name, applicationVersion: APPLICATION.version, systemDatabaseUrl: config.systemDatabaseUrl, logLevel: "error" });
    await DBOS.launch();
    announce("launched");
    try {
      // A workflow DBOS recovered at launch is already running: the start with its id joins it.
      const handle = await DBOS.startWorkflow(turn, { workflowID: config.workflowId })(config.calls);
      const results = await handle.getResult();
      const file = path.join(config.workdir, RESULTS_FILE);
      writeFileSync(`${file}.tmp`, JSON.stringify(results));
      renameSync(`${file}.tmp`, file);
      announce("finished");
      return results;
    } finally {
      await DBOS.shutdown({ deregister: true });
    }
  } finally {
    await registry.close();
    await hostLedger.close();
  }
}
