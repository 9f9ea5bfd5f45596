// Runs one check of the SQLite drivers in this process's Node and prints its result as one JSON line.
//   node --import tsx --conditions=@agent-tools/source sqlite-driver-child.mjs <mode> <directory>
// Modes: open-<driver> (open with that driver, cause a UNIQUE violation), busy (two node:sqlite connections),
// warnings (what reaches process "warning" listeners around the load of node:sqlite).
import path from "node:path";
import { openSqliteStorage } from "@agent-tools/storage";
import { sql } from "kysely";

const [mode, directory] = process.argv.slice(2);
const errorFields = (error) => ({ name: error?.name, code: error?.code, errcode: error?.errcode, message: error?.message, details: error?.details });

async function openAndViolate(driver) {
  let storage;
  try {
    storage = await openSqliteStorage({ dataDir: path.join(directory, driver), driver });
  } catch (error) {
    return { opened: false, error: errorFields(error) };
  }
  try {
    await sql`create table if not exists t (x text unique, b blob)`.execute(storage.db);
    await storage.db
      .insertInto("t")
      .values({ x: "a", b: Buffer.from([0, 255]) })
      .execute();
    const rows = await storage.db.selectFrom("t").selectAll().execute();
    // An empty blob over a zero-length ArrayBuffer (Node 22's node:sqlite binds it as NULL unless the adapter steps in).
    await sql`create table if not exists e (b blob not null)`.execute(storage.db);
    await storage.db
      .insertInto("e")
      .values({ b: Buffer.from(new ArrayBuffer(0)) })
      .execute();
    const empty = await sql`select typeof(b) as type, length(b) as length from e`.execute(storage.db);
    const journal = await sql`pragma journal_mode`.execute(storage.db);
    const foreignKeys = await sql`pragma foreign_keys`.execute(storage.db);
    const violation = await storage.db
      .insertInto("t")
      .values({ x: "a" })
      .execute()
      .then(() => undefined, errorFields);
    return {
      opened: true,
      blobIsBuffer: Buffer.isBuffer(rows[0].b),
      rowPrototypeIsObject: Object.getPrototypeOf(rows[0]) === Object.prototype,
      emptyBlob: empty.rows[0],
      journal: journal.rows[0],
      foreignKeys: foreignKeys.rows[0],
      violation,
    };
  } finally {
    await storage.close();
    await storage.close();
  }
}

async function busy() {
  const dataDir = path.join(directory, "busy");
  const holder = await openSqliteStorage({ dataDir, driver: "node:sqlite" });
  const waiter = await openSqliteStorage({ dataDir, driver: "node:sqlite", busyTimeoutMs: 0 });
  await sql`create table t (x integer)`.execute(holder.db);
  let error;
  await holder.db.transaction().execute(async (trx) => {
    await trx.insertInto("t").values({ x: 1 }).execute();
    error = await waiter.db
      .insertInto("t")
      .values({ x: 2 })
      .execute()
      .then(
        () => undefined,
        (caught) => caught,
      );
  });
  const { classifyDatabaseError } = await import("../open-sqlite-storage.ts");
  await waiter.close();
  await holder.close();
  return { error: errorFields(error), classified: error === undefined ? undefined : classifyDatabaseError(error) };
}

async function warnings() {
  const seen = [];
  process.on("warning", (warning) => seen.push(`${warning.name}: ${warning.message}`));
  const emitWarning = process.emitWarning;
  const storage = await openSqliteStorage({ filename: ":memory:", driver: "node:sqlite" });
  await storage.close();
  const restored = process.emitWarning === emitWarning;
  process.emitWarning("a warning of the host's own", "ExperimentalWarning");
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { restored, seen };
}

const checks = { busy, warnings };
const result = mode.startsWith("open-") ? await openAndViolate(mode.slice(5)) : await checks[mode]();
console.log(JSON.stringify({ node: process.version, ...result }));
