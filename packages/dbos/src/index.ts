/**
 * `@agent-tools/dbos`: tool calls as DBOS steps inside a workflow, with the
 * registry's call ledger underneath, so a workflow DBOS recovers gets its
 * recorded results back and an `unsafe` call interrupted mid-run is reported
 * `outcome_unknown` instead of running twice.
 *
 * @packageDocumentation
 */
export { executeToolCallAsDbosStep } from "./execute-tool-call-as-dbos-step.js";
export type { DbosToolCallOptions } from "./execute-tool-call-as-dbos-step.js";
