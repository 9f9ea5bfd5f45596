// A process that creates new memory entries at once when told to: the quota test's writer in its own process.
// Usage: node <bundle> <dataDir> <workdir> <sqliteFile> <entriesPerScope> <name> <count>
// Prints "ready", waits for a line on stdin, writes `<name>-0` .. `<name>-<count-1>` at once (global scope) and
// prints one JSON line: how many were created and the error codes of the refused ones.
import { openSqliteStorage } from "@agent-tools/storage";
import { KyselyMemoryIndexStore } from "../../stores/kysely-memory-index-store.js";
import { openMemoryService } from "../memory-service.js";

const [dataDir, workdir, filename, quotaText, name, countText] = process.argv.slice(2) as [string, string, string, string, string, string];
const storage = await openSqliteStorage({ filename });
const memory = await openMemoryService({
  dataDir,
  workdir,
  store: await KyselyMemoryIndexStore.open(storage),
  entriesPerScope: Number(quotaText),
  skipReconcile: true,
});
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const results = await Promise.all(
  Array.from({ length: Number(countText) }, (_, index) =>
    memory.write({ slug: `${name}-${index}`, scope: "global", type: "reference", description: `Entry ${name} ${index}`, body: `body ${index}` }),
  ),
);
process.stdout.write(
  `${JSON.stringify({ created: results.filter((result) => result.ok).length, refused: results.flatMap((result) => (result.ok ? [] : [result.error.error])) })}\n`,
);
await storage.close();
process.exit(0);
