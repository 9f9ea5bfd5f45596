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
import type { CallLedger } from "@agent-tools/core/durable";
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

/** A call ledger the host opened, and how to release it. */
export interface HostLedger {
  readonly ledger: CallLedger;
  close(): Promise<void>;
}

/** Opens the host's call ledger on the database at `ledgerUrl` (e.g. `KyselyCallLedger` of `@agent-tools/durable` on `openPostgresStorage`). */
export type OpenHostLedger = (ledgerUrl: string) => Promise<HostLedger>;

/** What {@link runDbosToolHost} needs besides its config. */
export interface DbosToolHostEnvironment {
  readonly openLedger: OpenHostLedger;
  /** Receives the progress lines (`launched`, `run <call id>`, `holding <call id>`, `finished`). */
  readonly announce: (line: string) => void;
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

/** Runs the host to the end of its workflow, in this process (DBOS's singleton: one host per process). */
export async function runDbosToolHost(config: DbosToolHostConfig, environment: DbosToolHostEnvironment): Promise<DbosToolHostResult[]> {
  const { announce } = environment;
  const tools = createHostTools(announce);
  const hostLedger = await environment.openLedger(config.ledgerUrl);
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

/**
 * The body of a host script: reads the config (JSON) from `process.argv[2]`,
 * runs {@link runDbosToolHost} with progress lines on stdout as `host <line>`,
 * and exits 0 when the workflow finished, 1 on an error (stack on stderr).
 *
 * @example
 * // dbos-tool-host-main.ts, started by startDbosToolHost(config, { hostScript })
 * await runDbosToolHostProcess(async (ledgerUrl) => {
 *   const storage = await openPostgresStorage({ connectionString: ledgerUrl });
 *   return { ledger: await openCallLedger(storage), close: () => storage.close() };
 * });
 */
export async function runDbosToolHostProcess(openLedger: OpenHostLedger): Promise<never> {
  try {
    const config = JSON.parse(process.argv[2] ?? "") as DbosToolHostConfig;
    await runDbosToolHost(config, { openLedger, announce: (line) => process.stdout.write(`host ${line}\n`) });
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}
