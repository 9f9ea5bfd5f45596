/**
 * Load meters of the cron scheduler benchmark: a store wrapper that counts
 * method calls, a Kysely plugin that counts the SQL statements the store
 * builds, PostgreSQL's own counters (`pg_stat_statements` when the server
 * preloads it, else `pg_stat_database`) and the CPU time of the PostgreSQL
 * server processes (Linux `/proc`).
 */
import fs from "node:fs";
import path from "node:path";
import type { CronStore } from "@agent-tools/cron";
import type { Storage } from "@agent-tools/storage";

// kysely is not a dependency of the bench workspace (the storage package brings it): its types are taken from Storage.
type Kysely = Storage["db"];
type KyselyPlugin = Parameters<Kysely["withPlugin"]>[0];

/** Runs one SQL text without parameters through `db` (no import of kysely's `sql` needed). */
async function raw<Row>(db: Kysely, text: string): Promise<Row[]> {
  const query = { kind: "RawNode", sqlFragments: [text], parameters: [] };
  const result = await db.executeQuery<Row>({ sql: text, parameters: [], query, queryId: { queryId: `bench-${Math.random()}` } } as never);
  return [...result.rows];
}

/** Calls per store method and SQL statements per kind, shared by every store of one run. */
export class LoadCounters {
  readonly calls = new Map<string, number>();
  readonly statements = new Map<string, number>();

  /** Total store calls. */
  callTotal(): number {
    return [...this.calls.values()].reduce((sum, value) => sum + value, 0);
  }

  /** Total SQL statements built (BEGIN / COMMIT not included). */
  statementTotal(): number {
    return [...this.statements.values()].reduce((sum, value) => sum + value, 0);
  }

  /** A copy, to subtract later. */
  snapshot(): { readonly calls: Map<string, number>; readonly statements: Map<string, number> } {
    return { calls: new Map(this.calls), statements: new Map(this.statements) };
  }
}

/** `store` with every method call counted in `counters.calls` (by method name). */
export function countingStore(store: CronStore, counters: LoadCounters): CronStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        counters.calls.set(property, (counters.calls.get(property) ?? 0) + 1);
        // Called on the target: the store keeps its state in private fields.
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A Kysely plugin that counts each statement by its kind (select, insert, update, delete, raw). */
function statementCounter(counters: LoadCounters): KyselyPlugin {
  return {
    transformQuery(args) {
      const kind = args.node.kind.replace(/QueryNode$|Node$/, "").toLowerCase();
      counters.statements.set(kind, (counters.statements.get(kind) ?? 0) + 1);
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
}

/** `storage` whose query builder counts the statements it runs; migrations and close pass through. */
export function countingStorage(storage: Storage, counters: LoadCounters): Storage {
  const db = storage.db.withPlugin(statementCounter(counters));
  return {
    dialect: storage.dialect,
    db,
    get closed() {
      return storage.closed;
    },
    migrate: (namespace, migrations) => storage.migrate(namespace, migrations),
    close: () => storage.close(),
  };
}

/** PostgreSQL's own counters for one database. */
export interface ServerCounters {
  /** `pg_stat_statements` (calls of statements on this database) or `pg_stat_database`. */
  readonly source: "pg_stat_statements" | "pg_stat_database";
  /** Statements executed (pg_stat_statements only). */
  readonly statements?: number;
  readonly commits: number;
  readonly rollbacks: number;
  /** Rows read: returned by scans plus fetched by index. */
  readonly rowsRead: number;
  /** Rows inserted, updated or deleted. */
  readonly rowsWritten: number;
}

/**
 * Whether `pg_stat_statements` can be used on the monitor's database (the
 * extension created, the module preloaded), else a note why not.
 */
export async function enableStatementStats(monitor: Storage): Promise<true | string> {
  try {
    await raw(monitor.db, "create extension if not exists pg_stat_statements");
    await raw(monitor.db, "select pg_stat_statements_reset()");
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Reads the database's counters through `monitor` (a connection of its own, outside the benchmark's pools). */
export async function readServerCounters(monitor: Storage, statementStats: boolean): Promise<ServerCounters> {
  await raw(monitor.db, "select pg_stat_clear_snapshot()");
  const [row] = await raw<Record<string, string>>(
    monitor.db,
    "select xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted from pg_stat_database where datname = current_database()",
  );
  if (row === undefined) throw new Error("pg_stat_database has no row for this database.");
  const value = (name: string) => Number(row[name] ?? 0);
  let statements: number | undefined;
  if (statementStats) {
    const [calls] = await raw<{ calls: string | null }>(
      monitor.db,
      "select sum(calls) as calls from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())",
    );
    statements = Number(calls?.calls ?? 0);
  }
  return {
    source: statementStats ? "pg_stat_statements" : "pg_stat_database",
    statements,
    commits: value("xact_commit"),
    rollbacks: value("xact_rollback"),
    rowsRead: value("tup_returned") + value("tup_fetched"),
    rowsWritten: value("tup_inserted") + value("tup_updated") + value("tup_deleted"),
  };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** Fields of `/proc/<pid>/stat` after the command name (index 0 is field 3, the state). */
function procStat(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/**
 * CPU milliseconds used so far by the PostgreSQL server of the cluster in
 * `clusterDirectory`: the postmaster, its live children, and the children
 * it has reaped (connections that ended). Undefined off Linux.
 */
export function serverCpuMs(clusterDirectory: string): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(path.join(clusterDirectory, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
  const own = procStat(postmaster);
  if (own === undefined) return undefined;
  // utime, stime, cutime, cstime are fields 14-17.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStat(Number(entry));
    if (fields === undefined || Number(fields[1]) !== postmaster) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
