import { SdkError } from "@agent-tools/core";
import type { Storage } from "@agent-tools/storage";
import type { Kysely } from "kysely";
import { CRON_STORAGE_MIGRATIONS, CRON_STORAGE_NAMESPACE } from "./cron-migrations.js";
import { CRON_SCHEDULER_LOCK_TABLE, type CronDatabase } from "./cron-rows.js";

/** The single row's id in the lock table. */
const LOCK_ID = "scheduler";

/** Default of {@link SqliteSchedulerLockOptions.staleMs}: a holder silent this long is taken to be dead (2 minutes). */
export const DEFAULT_SCHEDULER_LOCK_STALE_MS = 2 * 60 * 1000;

/** Options of {@link acquireSqliteSchedulerLock}. */
export interface SqliteSchedulerLockOptions {
  /** The clock (epoch ms), or the time of the acquisition; default `Date.now`. `heartbeat()` without an argument reads it too. */
  readonly now?: number | (() => number);
  /** A holder whose last heartbeat is older than this is taken over; default {@link DEFAULT_SCHEDULER_LOCK_STALE_MS}. Heartbeat well within it. */
  readonly staleMs?: number;
}

/** The lock one scheduler holds on a SQLite database. */
export interface SqliteSchedulerLock {
  /** Who holds it (the `owner` given). */
  readonly owner: string;
  /** Records that the holder is alive; false when it lost the lock (another scheduler took it over after a missed heartbeat): stop scheduling then. */
  heartbeat(now?: number): Promise<boolean>;
  /** Gives the lock up (only while this owner holds it). Idempotent. */
  release(): Promise<void>;
}

/**
 * Takes the "one scheduler per database" lock of an embedded SQLite store:
 * a row (owner, heartbeat_at) in the cron namespace's lock table. Another
 * owner whose heartbeat is younger than `staleMs` keeps it, and this call
 * refuses with `SdkError("unsupported")` naming that holder and its last
 * heartbeat; a stale holder (its process died) is taken over. The same
 * owner may acquire again (a restart under the same name). Applies the cron
 * migrations first. PostgreSQL needs no such lock: any number of schedulers
 * share it (the claims decide).
 *
 * @example
 * const lock = await acquireSqliteSchedulerLock(storage, "host-1", { staleMs: 60_000 });
 * const timer = setInterval(() => void lock.heartbeat(), 15_000);
 * // ... on shutdown:
 * clearInterval(timer);
 * await lock.release();
 */
export async function acquireSqliteSchedulerLock(storage: Storage, owner: string, options: SqliteSchedulerLockOptions = {}): Promise<SqliteSchedulerLock> {
  const clock = typeof options.now === "function" ? options.now : () => Date.now();
  const acquiredAt = typeof options.now === "number" ? options.now : clock();
  const staleMs = options.staleMs ?? DEFAULT_SCHEDULER_LOCK_STALE_MS;
  await storage.migrate(CRON_STORAGE_NAMESPACE, CRON_STORAGE_MIGRATIONS);
  const db = storage.db as Kysely<CronDatabase>;
  // One statement: insert the row, or take it over when it is ours or its heartbeat is stale.
  const taken = await db
    .insertInto(CRON_SCHEDULER_LOCK_TABLE)
    .values({ id: LOCK_ID, owner, heartbeat_at: acquiredAt, acquired_at: acquiredAt })
    .onConflict((conflict) =>
      conflict
        .column("id")
        .doUpdateSet((update) => ({
          owner: update.ref("excluded.owner"),
          heartbeat_at: update.ref("excluded.heartbeat_at"),
          acquired_at: update.ref("excluded.acquired_at"),
        }))
        .where((where) =>
          where.or([where(`${CRON_SCHEDULER_LOCK_TABLE}.owner`, "=", owner), where(`${CRON_SCHEDULER_LOCK_TABLE}.heartbeat_at`, "<", acquiredAt - staleMs)]),
        ),
    )
    .returning("owner")
    .executeTakeFirst();
  if (taken === undefined) {
    const holder = await db.selectFrom(CRON_SCHEDULER_LOCK_TABLE).selectAll().where("id", "=", LOCK_ID).executeTakeFirst();
    const heartbeatAt = holder === undefined ? undefined : Number(holder.heartbeat_at);
    const heartbeatText = heartbeatAt === undefined ? "unknown" : `${new Date(heartbeatAt).toISOString()} (${Math.max(0, acquiredAt - heartbeatAt)} ms ago)`;
    throw new SdkError(
      "unsupported",
      `Another cron scheduler ("${holder?.owner ?? "unknown"}", last heartbeat ${heartbeatText}) already runs on this SQLite database; only one scheduler may run per data directory. Stop the other host, wait until its heartbeat is older than ${staleMs} ms, or use PostgreSQL to run several schedulers.`,
      { holder: holder?.owner, heartbeatAt, staleMs },
    );
  }
  let released = false;
  return {
    owner,
    async heartbeat(now?: number): Promise<boolean> {
      if (released) return false;
      const result = await db
        .updateTable(CRON_SCHEDULER_LOCK_TABLE)
        .set({ heartbeat_at: now ?? clock() })
        .where("id", "=", LOCK_ID)
        .where("owner", "=", owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(): Promise<void> {
      if (released) return;
      released = true;
      await db.deleteFrom(CRON_SCHEDULER_LOCK_TABLE).where("id", "=", LOCK_ID).where("owner", "=", owner).execute();
    },
  };
}
