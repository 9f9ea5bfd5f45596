/**
 * The contract every {@link Storage} meets, as a vitest suite a host can run
 * against its own database, plus a hook that gives a test file one
 * throwaway PostgreSQL cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SdkError } from "@agent-tools/core";
import type { Storage, StorageMigration } from "../index.js";
import { type PostgresTestCluster, type PostgresTestClusterOptions, startPostgresTestCluster } from "./postgres-test-cluster.js";

/**
 * Starts one cluster before the file's tests and stops it (removing its
 * directory) after them, even when tests fail. Call at the top of a file or
 * `describe`; the returned getter gives the running cluster inside tests.
 *
 * @example
 * const cluster = usePostgresTestCluster();
 * runStorageContract("postgres", async () => openPostgresStorage({ connectionString: await cluster().createDatabase() }));
 */
export function usePostgresTestCluster(options: PostgresTestClusterOptions = {}): () => PostgresTestCluster {
  let cluster: PostgresTestCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgresTestCluster(options);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);
  return () => {
    if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running (beforeAll failed or has not run).");
    return cluster;
  };
}

/** How {@link runStorageContract} reaches the backend under test. */
export interface StorageContractTarget {
  /**
   * Opens a new {@link Storage} on the same database every time it is called
   * (so reopening sees earlier writes). The suite closes what it opens.
   */
  open(): Promise<Storage>;
  /**
   * True when two open storages of one process may migrate at the same
   * moment: PostgreSQL pools, and `openSqliteStorage`, whose migration lock
   * is retried asynchronously instead of in better-sqlite3's synchronous
   * busy wait. Leave it off for a backend that waits for locks by blocking
   * the thread that would release them.
   */
  concurrentInstances?: boolean;
}

let uniqueCounter = 0;
function uniqueName(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${uniqueCounter}`;
}

function createTable(table: string, name = "0001-create"): StorageMigration {
  return {
    name,
    async up(db) {
      await db.schema
        .createTable(table)
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("value", "text", (column) => column.notNull())
        .addColumn("count", "integer", (column) => column.notNull().defaultTo(0))
        .execute();
    },
  };
}

/**
 * The storage contract: dialect, per-package migrations (ordered, recorded,
 * idempotent, independent per namespace, resumed after a reopen, rolled back
 * on failure), round trips of text and integers, transactions, and close.
 * Every test uses its own table and namespace, so one database serves all.
 *
 * @example
 * runStorageContract("sqlite", { open: () => openSqliteStorage({ dataDir }) });
 */
export function runStorageContract(label: string, target: StorageContractTarget): void {
  describe(`Storage contract: ${label}`, () => {
    async function withStorage<T>(body: (storage: Storage) => Promise<T>): Promise<T> {
      const storage = await target.open();
      try {
        return await body(storage);
      } finally {
        await storage.close();
      }
    }

    it("reports its dialect and round-trips rows", async () => {
      const table = uniqueName("contract_rows");
      await withStorage(async (storage) => {
        expect(["sqlite", "postgres"]).toContain(storage.dialect);
        await storage.migrate(uniqueName("ns"), [createTable(table)]);
        const value = "naïve ✓ 'quoted' \"double\" \n line";
        await storage.db.insertInto(table).values({ id: "a", value, count: 2_147_483_647 }).execute();
        const row = await storage.db.selectFrom(table).selectAll().where("id", "=", "a").executeTakeFirstOrThrow();
        expect(row).toEqual({ id: "a", value, count: 2_147_483_647 });
      });
    });

    it("applies a package's migrations in order, once", async () => {
      const namespace = uniqueName("ns");
      const table = uniqueName("contract_order");
      const order: string[] = [];
      const migrations: StorageMigration[] = [
        {
          name: "0001-create",
          up: async (db, dialect) => {
            order.push(`0001:${dialect}`);
            await createTable(table).up(db, dialect);
          },
        },
        {
          name: "0002-add-column",
          up: async (db) => {
            order.push("0002");
            await db.schema.alterTable(table).addColumn("note", "text").execute();
          },
        },
      ];
      await withStorage(async (storage) => {
        expect(await storage.migrate(namespace, migrations)).toEqual({ applied: ["0001-create", "0002-add-column"] });
        expect(await storage.migrate(namespace, migrations)).toEqual({ applied: [] });
        expect(order).toEqual([`0001:${storage.dialect}`, "0002"]);
        await storage.db.insertInto(table).values({ id: "x", value: "v", note: "n" }).execute();
      });
    });

    it("serialises concurrent migrate calls of one namespace", async () => {
      const namespace = uniqueName("ns");
      const table = uniqueName("contract_concurrent");
      let runs = 0;
      const migration: StorageMigration = {
        name: "0001-create",
        up: async (db, dialect) => {
          runs++;
          await createTable(table).up(db, dialect);
        },
      };
      await withStorage(async (storage) => {
        const results = await Promise.all([storage.migrate(namespace, [migration]), storage.migrate(namespace, [migration])]);
        expect(results.map((result) => result.applied.length).sort()).toEqual([0, 1]);
        expect(runs).toBe(1);
      });
    });

    it.runIf(target.concurrentInstances === true)("lets racing storages apply each step exactly once (20 races)", async () => {
      for (let trial = 0; trial < 20; trial += 1) {
        const namespace = uniqueName("ns");
        const table = uniqueName("contract_race");
        const insert = (name: string): StorageMigration => ({
          name,
          up: async (db) => void (await db.insertInto(table).values({ id: name, value: "v" }).execute()),
        });
        // The first step holds its transaction across a timer, as real migrations do, so the racers collide.
        const slowCreate: StorageMigration = {
          name: "0001-create",
          up: async (db, dialect) => {
            await createTable(table).up(db, dialect);
            await new Promise((resolve) => setTimeout(resolve, 10));
          },
        };
        const migrations = [slowCreate, insert("0002-row"), insert("0003-row")];
        const storages = await Promise.all([target.open(), target.open(), target.open()]);
        try {
          const results = await Promise.all(storages.map((storage) => storage.migrate(namespace, migrations)));
          expect(results.flatMap((result) => result.applied).sort()).toEqual(["0001-create", "0002-row", "0003-row"]);
          expect((await storages[0]!.db.selectFrom(table).select("id").orderBy("id").execute()).map((row) => row.id)).toEqual(["0002-row", "0003-row"]);
        } finally {
          await Promise.all(storages.map((storage) => storage.close()));
        }
      }
    });

    it("keeps an independent history per namespace", async () => {
      const first = uniqueName("ns");
      const second = uniqueName("ns");
      const tableA = uniqueName("contract_a");
      const tableB = uniqueName("contract_b");
      await withStorage(async (storage) => {
        expect((await storage.migrate(first, [createTable(tableA)])).applied).toEqual(["0001-create"]);
        // The same migration name in another namespace is another migration.
        expect((await storage.migrate(second, [createTable(tableB)])).applied).toEqual(["0001-create"]);
        await storage.db.insertInto(tableA).values({ id: "1", value: "a" }).execute();
        await storage.db.insertInto(tableB).values({ id: "1", value: "b" }).execute();
      });
    });

    it("remembers applied migrations across a reopen and applies new ones", async () => {
      const namespace = uniqueName("ns");
      const table = uniqueName("contract_reopen");
      await withStorage(async (storage) => {
        await storage.migrate(namespace, [createTable(table)]);
        await storage.db.insertInto(table).values({ id: "kept", value: "v" }).execute();
      });
      const addNote: StorageMigration = { name: "0002-note", up: async (db) => db.schema.alterTable(table).addColumn("note", "text").execute() };
      await withStorage(async (storage) => {
        expect((await storage.migrate(namespace, [createTable(table), addNote])).applied).toEqual(["0002-note"]);
        const rows = await storage.db.selectFrom(table).select(["id", "note"]).execute();
        expect(rows).toEqual([{ id: "kept", note: null }]);
      });
    });

    it("rejects a failing migration with SdkError and keeps the steps before it", async () => {
      const namespace = uniqueName("ns");
      const table = uniqueName("contract_fail");
      const failing: StorageMigration = {
        name: "0002-fails",
        async up(db) {
          await db.schema.createTable(`${table}_partial`).addColumn("id", "text").execute();
          throw new Error("boom");
        },
      };
      await withStorage(async (storage) => {
        const error = await storage.migrate(namespace, [createTable(table), failing]).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SdkError);
        expect((error as SdkError).code).toBe("storage");
        expect((error as SdkError).message).toContain("0002-fails");
        await storage.db.insertInto(table).values({ id: "1", value: "v" }).execute();
        // The failed step ran in a transaction: its table is gone.
        await expect(storage.db.selectFrom(`${table}_partial`).selectAll().execute()).rejects.toThrow();
        const fixed: StorageMigration = { name: "0002-fails", up: async () => undefined };
        expect((await storage.migrate(namespace, [createTable(table), fixed])).applied).toEqual(["0002-fails"]);
      });
    });

    it("refuses invalid namespaces and unordered or duplicate migration names", async () => {
      await withStorage(async (storage) => {
        await expect(storage.migrate("bad name!", [])).rejects.toMatchObject({ code: "invalid_options" });
        const table = uniqueName("contract_invalid");
        await expect(storage.migrate(uniqueName("ns"), [createTable(table, "0002-b"), createTable(table, "0001-a")])).rejects.toMatchObject({
          code: "invalid_options",
        });
        await expect(storage.migrate(uniqueName("ns"), [createTable(table, "0001-a"), createTable(table, "0001-a")])).rejects.toMatchObject({
          code: "invalid_options",
        });
      });
    });

    it("commits and rolls back transactions", async () => {
      const table = uniqueName("contract_tx");
      await withStorage(async (storage) => {
        await storage.migrate(uniqueName("ns"), [createTable(table)]);
        await storage.db.transaction().execute(async (transaction) => {
          await transaction.insertInto(table).values({ id: "committed", value: "v" }).execute();
        });
        await expect(
          storage.db.transaction().execute(async (transaction) => {
            await transaction.insertInto(table).values({ id: "rolled-back", value: "v" }).execute();
            throw new Error("abort the transaction");
          }),
        ).rejects.toThrow("abort the transaction");
        const ids = (await storage.db.selectFrom(table).select("id").execute()).map((row) => row.id);
        expect(ids).toEqual(["committed"]);
      });
    });

    it("closes idempotently and refuses migrations afterwards", async () => {
      const storage = await target.open();
      expect(storage.closed).toBe(false);
      await storage.close();
      await storage.close();
      expect(storage.closed).toBe(true);
      await expect(storage.migrate(uniqueName("ns"), [])).rejects.toMatchObject({ code: "closed" });
    });
  });
}
