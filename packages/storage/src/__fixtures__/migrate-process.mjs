// Opens the SQLite storage under <dataDir> and migrates the "race" namespace,
// racing other copies of this script. Prints what it applied as one JSON line.
//   node --import tsx --conditions=@agent-tools/source migrate-process.mjs <dataDir> <startAtEpochMs>
// Every copy waits until startAt, so their migrations really overlap.
import { openSqliteStorage } from "@agent-tools/storage";

const storage = await openSqliteStorage({ dataDir: process.argv[2] });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.argv[3] ?? 0) - Date.now())));
const insertRow = (name) => ({
  name,
  async up(db) {
    await db.insertInto("race_rows").values({ migration: name, pid: process.pid }).execute();
  },
});
try {
  const result = await storage.migrate("race", [
    {
      name: "0001-create",
      async up(db) {
        await db.schema
          .createTable("race_rows")
          .addColumn("migration", "text", (column) => column.notNull())
          .addColumn("pid", "integer")
          .execute();
        // Hold the transaction open across an await, as real migrations do, so racers collide.
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
    },
    insertRow("0002-first-row"),
    insertRow("0003-second-row"),
  ]);
  process.stdout.write(`${JSON.stringify({ pid: process.pid, applied: result.applied })}\n`);
} finally {
  await storage.close();
}
