/**
 * Fault injection of durable tool calls (issue 36): a host process runs a
 * scripted agent loop of 31 mixed tool calls (Write, Edit, Bash appending the
 * call id to effects.log, the counting MCP tool of a real MCP stdio server,
 * Read, Glob) through the SDK's registry with a call ledger, each call as
 * `executeToolCall(call, { durable: { runId } })`. The harness SIGKILLs the
 * host's whole process tree at drawn points (start-up, inside a call, right
 * after a result, anywhere) and restarts it with the same run id until a run
 * finishes the loop, for `--kills` kills per backend. Then it counts:
 * duplicate side effects (a Bash line or an MCP count seen twice for one call),
 * lost completed results (a result that changed across restarts, a call with
 * no result in the finishing run, a ledger outcome that differs from the one
 * returned), and outcome_unknown results (with how many of those calls had
 * in fact run). `--backend=none` is the control: no ledger, so a restart
 * repeats side effects and the counters must see it.
 *
 * Each host start loads the SDK from its TypeScript sources through tsx
 * (about 3-5 s on a loaded 2-core machine): 200 kills take 15-25 minutes per
 * backend.
 *
 * `--engine=restate` runs the loop inside a Restate handler (each call a
 * journaled `ctx.run` step through `executeToolCallInRestate`, a real
 * restate-server from npm retrying the invocation after each kill);
 * `--engine=dbos` inside a DBOS workflow (each call a step through
 * `executeToolCallAsDbosStep`, DBOS's system database on the PostgreSQL
 * cluster, recovery at the host's launch). Every engine runs on every
 * `--backend` given (the ledger's store).
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/durable/fault-injection.ts [--kills=200] [--backend=sqlite,postgres] [--engine=none,restate,dbos] [--seed=N] [--groups=6] [--keep]
 * PostgreSQL (the postgres backend, DBOS): a throwaway cluster (`startPostgresTestCluster`), or the server at `AGENT_TOOLS_PG_URL` (a database URL; DBOS gets a database of its own name on it).
 * Exits 1 when any duplicate or lost result is found.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { type FaultInjectionReport, runFaultInjection } from "./fault/harness.js";
import type { FaultEngine } from "./fault/engine-driver.js";
import type { LedgerBackend } from "./fault/host-config.js";

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length);
}

function row(report: FaultInjectionReport): string {
  const errors =
    Object.entries(report.otherErrors)
      .map(([code, count]) => `${code} ${count}`)
      .join(", ") || "none";
  return [
    `${report.engine === "none" ? "plain" : report.engine}/${report.backend}`.padEnd(16),
    String(report.kills).padStart(5),
    String(report.episodes).padStart(8),
    String(report.duplicates).padStart(10),
    String(report.lost).padStart(5),
    `${report.outcomeUnknown} (${report.unknownThatRan} had run)`.padStart(22),
    `${(report.runtimeMs / 1000).toFixed(0)} s`.padStart(8),
    ` ${errors}`,
  ].join(" ");
}

async function databaseUrl(prefix: string, cluster: () => Promise<PostgresTestCluster>): Promise<string> {
  const given = process.env.AGENT_TOOLS_PG_URL;
  if (given === undefined) return (await cluster()).createDatabase(prefix);
  // DBOS creates the database its URL names; the ledger shares the given one.
  if (prefix !== "dbos") return given;
  const url = new URL(given);
  url.pathname = `/fault_dbos_${Date.now()}`;
  return url.toString();
}

async function main(): Promise<void> {
  const kills = Number(flag("kills") ?? 200);
  const backends = (flag("backend") ?? "sqlite,postgres").split(",") as LedgerBackend[];
  const engines = (flag("engine") ?? "none").split(",") as FaultEngine[];
  const seed = flag("seed") === undefined ? undefined : Number(flag("seed"));
  const groups = Number(flag("groups") ?? 6);
  let cluster: PostgresTestCluster | undefined;
  const startCluster = async (): Promise<PostgresTestCluster> => {
    cluster ??= await startPostgresTestCluster();
    return cluster;
  };
  const reports: FaultInjectionReport[] = [];
  try {
    for (const engine of engines) {
      if (!["none", "restate", "dbos"].includes(engine)) throw new Error(`unknown engine ${engine} (none, restate, dbos)`);
      for (const backend of backends) {
        if (!["sqlite", "postgres", "none"].includes(backend)) throw new Error(`unknown backend ${backend} (sqlite, postgres, none)`);
        const label = `${engine === "none" ? "plain" : engine}/${backend}`;
        const directory = mkdtempSync(path.join(os.tmpdir(), `fault-${engine}-${backend}-`));
        const report = await runFaultInjection({
          backend,
          engine,
          kills,
          directory,
          connectionString: backend === "postgres" ? await databaseUrl("fault", startCluster) : undefined,
          systemDatabaseUrl: engine === "dbos" ? await databaseUrl("dbos", startCluster) : undefined,
          seed,
          groups,
          keepEpisodes: process.argv.includes("--keep"),
          log: (line) => process.stderr.write(`[${label}] ${line}\n`),
        });
        reports.push(report);
        for (const finding of report.findings.slice(0, 20)) process.stderr.write(`[${label}] finding: ${finding}\n`);
        process.stderr.write(
          `[${label}] seed ${report.seed}, ${report.starts} host starts, kills by kind ${JSON.stringify(report.killsByKind)}, episodes in ${directory}\n`,
        );
      }
    }
  } finally {
    await cluster?.stop();
  }
  console.log("engine/backend   kills episodes duplicates  lost        outcome_unknown  runtime  other error results");
  for (const report of reports) console.log(row(report));
  const failed = reports.some((report) => report.backend !== "none" && (report.duplicates > 0 || report.lost > 0));
  process.exitCode = failed ? 1 : 0;
}

await main();
