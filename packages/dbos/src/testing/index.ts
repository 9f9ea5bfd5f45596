/**
 * `@agent-tools/dbos/testing`: a DBOS tool host (a workflow of tool calls
 * through `executeToolCallAsDbosStep`; the host script brings its call
 * ledger) and the harness that starts, kills and restarts its process and
 * counts its tools' effects, for crash tests and fault-injection benches.
 *
 * @packageDocumentation
 */
export { startDbosToolHost, runDbosToolHostToEnd, readDbosToolHostEffects, readDbosToolHostResults } from "./dbos-host-harness.js";
export type { DbosToolHostEffects, DbosToolHostProcess, DbosToolHostStartOptions } from "./dbos-host-harness.js";
export { runDbosToolHost, runDbosToolHostProcess, RESULTS_FILE } from "./dbos-tool-host.js";
export type { DbosToolHostConfig, DbosToolHostEnvironment, DbosToolHostResult, HostLedger, OpenHostLedger } from "./dbos-tool-host.js";
export { createHostTools, APPENDED_FILE, RUNS_FILE, VALUES_FOLDER } from "./host-tools.js";
export { mixedDbosToolCalls, seededRandom, runDbosToolHostUnderKills, countDbosKillAnomalies } from "./dbos-fault-injection.js";
export type { DbosKillOptions, DbosKillRun, DbosKillAnomalies } from "./dbos-fault-injection.js";
