// One side of the cross-process race: opens the SQLite file, waits for "go" on stdin, then creates
// every key with expectedUpdatedAt null (must not exist) and prints which of its batches won, as JSON.
// Usage: node --import tsx --conditions=@agent-tools/source memory-index-race-child.ts <sqliteFile> <keys> <writer>
import { openSqliteStorage } from "@agent-tools/storage";
import { memoryRecord } from "../../testing/memory-record-builder.js";
import { KyselyMemoryIndexStore } from "../kysely-memory-index-store.js";

const [filename, keysText, writerText] = process.argv.slice(2) as [string, string, string];
const writer = Number(writerText);
const storage = await openSqliteStorage({ filename });
const store = await KyselyMemoryIndexStore.open(storage);
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));

const won: boolean[] = [];
for (let index = 0; index < Number(keysText); index += 1) {
  const record = memoryRecord({
    slug: `race-${index}`,
    description: `Written by ${writer}`,
    body: `writer${writer} wrote key ${index}`,
    bodyHash: "h",
    updatedAt: 1000 + writer,
  });
  const result = await store.applyBatch(
    [{ kind: "upsert", record, expectedUpdatedAt: null }],
    [{ at: 1, op: "write", actor: "tool", scope: "global", workdirHash: "", slug: record.slug, detail: { writer } }],
  );
  won.push(result.ok);
}
await storage.close();
process.stdout.write(`${JSON.stringify(won)}\n`);
