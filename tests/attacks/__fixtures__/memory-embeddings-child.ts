// A second process on the parent's SQLite memory index: writes `count` entries into its project with an embedder of
// the given model id, waits for the vectors, prints its embedding status as one JSON line and exits.
// Usage: node --import tsx --conditions=@agent-tools/source memory-embeddings-child.ts <dataDir> <workdir> <sqliteFile> <modelId> <count>
import { KyselyMemoryIndexStore, openMemoryService } from "@agent-tools/memory";
import { openSqliteStorage } from "@agent-tools/storage";
import { conceptEmbedder } from "../memory-embeddings-harness.js";

const [dataDir, workdir, filename, modelId, countText] = process.argv.slice(2) as [string, string, string, string, string];
const storage = await openSqliteStorage({ filename });
const store = await KyselyMemoryIndexStore.open(storage);
const memory = await openMemoryService({ dataDir, workdir, store, embedder: conceptEmbedder({ modelId, maxBatchSize: 8 }) });
let failed = 0;
for (let index = 0; index < Number(countText); index += 1) {
  const written = await memory.write({
    slug: `child-${index}`,
    scope: "project",
    type: "reference",
    description: `Child ${index}`,
    body: "The terrier barks.",
  });
  if (!written.ok) failed += 1;
}
await memory.embeddingsSettled();
process.stdout.write(`${JSON.stringify({ failed, status: memory.embeddingStatus(), workdirHash: memory.workdirHash })}\n`);
await memory.close();
await storage.close();
