/**
 * The tests' DBOS tool host process: `node --import tsx --conditions=@agent-tools/source
 * dbos-tool-host-main.ts '<config JSON>'`, its ledger on PostgreSQL.
 */
import { runDbosToolHostProcess } from "../testing/index.js";
import { openHostLedger } from "./open-postgres-ledger.js";

await runDbosToolHostProcess(openHostLedger);
