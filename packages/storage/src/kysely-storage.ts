import type { Kysely } from "kysely";
import { SdkError } from "@agent-tools/core";
import { runMigrations } from "./migrate.js";
import type { Storage, StorageDialect, StorageMigration, StorageMigrationResult } from "./storage.js";

/**
 * Wraps an open Kysely instance as a {@link Storage}. `openSqliteStorage` and
 * `openPostgresStorage` use it; hosts with a Kysely instance of their own can
 * too (`close` then destroys that instance).
 *
 * @example
 * const storage = createKyselyStorage(new Kysely({ dialect }), "postgres");
 */
export function createKyselyStorage(db: Kysely<any>, dialect: StorageDialect, onClose?: () => Promise<void>): Storage {
  const running = new Map<string, Promise<StorageMigrationResult>>();
  let closed = false;
  let closing: Promise<void> | undefined;
  return {
    dialect,
    db,
    get closed() {
      return closed;
    },
    migrate(namespace: string, migrations: readonly StorageMigration[]): Promise<StorageMigrationResult> {
      if (closed) return Promise.reject(new SdkError("closed", "The storage is closed."));
      // Calls of one namespace run one after the other; a later call finds the steps applied and does nothing.
      const previous = running.get(namespace) ?? Promise.resolve({ applied: [] });
      const run = previous.catch(() => undefined).then(() => runMigrations(db, dialect, namespace, migrations));
      running.set(namespace, run);
      void run
        .catch(() => undefined)
        .then(() => {
          if (running.get(namespace) === run) running.delete(namespace);
        });
      return run;
    },
    close(): Promise<void> {
      closed = true;
      closing ??= (async () => {
        await Promise.allSettled(running.values());
        await db.destroy();
        await onClose?.();
      })();
      return closing;
    },
  };
}
