// Rewinds one checkpoint from a SQLite file and prints a line per finished path, then "finished"; the parent kills it at chosen moments.
// Usage: node --import tsx --conditions=@agent-tools/source rewind-child.ts <sqliteFile> <checkpointId>
import { openSqliteStorage } from "@agent-tools/storage";
import { KyselyCheckpointStore } from "../../stores/kysely-checkpoint-store.js";
import { createFileCheckpoints } from "../create-file-checkpoints.js";

const [filename, checkpointId] = process.argv.slice(2) as [string, string];
const storage = await openSqliteStorage({ filename, busyTimeoutMs: 30_000 });
const checkpoints = createFileCheckpoints({ store: await KyselyCheckpointStore.open(storage) });
process.stdout.write("ready\n");
const report = await checkpoints.rewindCheckpoint(checkpointId, {
  onProgress: (progress) => process.stdout.write(`${progress.outcome} ${progress.path}\n`),
});
await storage.close();
process.stdout.write(`finished ${JSON.stringify({ conflicts: report.conflicts.length })}\n`);
