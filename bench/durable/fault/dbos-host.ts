/**
 * The host process under DBOS: launches DBOS on the PostgreSQL system
 * database in `DBOS_SYSTEM_DATABASE_URL`, registers a workflow running the
 * scripted loop, each call as a DBOS step through
 * `executeToolCallAsDbosStep` (run id: the workflow id, the episode's run
 * id), and starts it under that id. Started again after a kill, DBOS
 * recovers the pending workflow at launch (recorded steps come back without
 * running; the ledger answers for a step cut mid-run) and the start with the
 * same id joins it. Prints `ready` once DBOS is launched.
 *
 * Run: DBOS_SYSTEM_DATABASE_URL=<url> node --import tsx --conditions=@agent-tools/source dbos-host.ts '<json config>'
 */
import type { ToolCall } from "@agent-tools/core";
import { executeToolCallAsDbosStep } from "@agent-tools/dbos";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { openFaultRegistry } from "./fault-registry.js";
import { parseHostConfig } from "./host-config.js";
import { runScriptedLoop, say } from "./scripted-loop.js";

const config = parseHostConfig(process.argv[2]);
const systemDatabaseUrl = process.env.DBOS_SYSTEM_DATABASE_URL;
if (!systemDatabaseUrl) throw new Error("dbos-host: DBOS_SYSTEM_DATABASE_URL is missing");
const opened = await openFaultRegistry(config);
try {
  const loop = DBOS.registerWorkflow(
    async (): Promise<number> => {
      const results = await runScriptedLoop(config, (call: ToolCall) => executeToolCallAsDbosStep(opened.registry, call));
      return results.length;
    },
    { name: "agentToolsFaultLoop" },
  );
  // A restarted host must match the name and version to recover the workflow.
  DBOS.setConfig({ name: "agent-tools-fault-host", applicationVersion: "agent-tools-fault-host-1", systemDatabaseUrl, logLevel: "error" });
  await DBOS.launch();
  say("ready");
  try {
    const handle = await DBOS.startWorkflow(loop, { workflowID: config.runId })();
    await handle.getResult();
  } finally {
    await DBOS.shutdown({ deregister: true });
  }
} finally {
  await opened.close();
}
