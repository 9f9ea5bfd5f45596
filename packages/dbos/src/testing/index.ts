/**
 * `@agent-tools/dbos/testing`: a DBOS tool host process (a workflow of tool
 * calls through `executeToolCallAsDbosStep`, its call ledger on PostgreSQL)
 * and the harness that starts, kills and restarts it and counts its tools'
 * effects, for crash tests and fault-injection benches.
 *
 * @packageDocumentation
 */
export { startDbosToolHost, runDbosToolHostToEnd, readDbosToolHostEffects, readDbosToolHostResults } from "./dbos-host-harness.js";
export type { DbosToolHostEffects, DbosToolHostProcess, DbosToolHostStartOptions } from "./dbos-host-harness.js";
export { runDbosToolHost, RESULTS_FILE } from "./dbos-tool-host.js";
export type { DbosToolHostConfig, DbosToolHostResult } from "./dbos-tool-host.js";
export { createHostTools, APPENDED_FILE, RUNS_FILE, VALUES_FOLDER } from "./host-tools.js";
export { mixedDbosToolCalls, seededRandom, runDbosToolHostUnderKills, countDbosKillAnomalies } from "./dbos-fault-injection.js";
export type { DbosKillOptions, DbosKillRun, DbosKillAnomalies } from "./dbos-fault-injection.js";
