// The second process of the vector-cache staleness attacks: opens the SQLite file or PostgreSQL database, then
// runs one write command per stdin line (JSON) and answers each with one JSON line.
// Usage: node --import tsx --conditions=@agent-tools/source memory-vector-cache-child.ts <sqlite|postgres> <location>
import readline from "node:readline";
import { KyselyMemoryIndexStore } from "@agent-tools/memory";
import { openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";

const [dialect, location] = process.argv.slice(2) as ["sqlite" | "postgres", string];
const storage = dialect === "sqlite" ? await openSqliteStorage({ filename: location }) : await openPostgresStorage({ connectionString: location });
const store = await KyselyMemoryIndexStore.open(storage);
const vectors = (rows: { vector: number[] }[]) => rows.map((row) => ({ ...row, vector: Float32Array.from(row.vector) }));
process.stdout.write('{"ready":true}\n');

for await (const line of readline.createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { op: string; changes?: never[]; rows?: { vector: number[] }[]; keep?: string };
  if (command.op === "exit") break;
  try {
    let result: unknown;
    if (command.op === "batch") result = await store.applyBatch(command.changes ?? [], []);
    else if (command.op === "vectors") result = await store.putVectors(vectors(command.rows ?? []) as never);
    else if (command.op === "prune") result = await store.pruneVectors({ keepModelId: command.keep ?? "" });
    process.stdout.write(`${JSON.stringify({ result })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  }
}
await storage.close();
