// One side of the cross-process claim race: opens the SQLite file, waits for "go" on stdin, then claims
// occurrences 0..<count>-1 of <taskId> at once and prints the scheduled times it won, as JSON.
// Usage: node --import tsx --conditions=@agent-tools/source cron-claim-race-child.ts <sqliteFile> <taskId> <count> <owner>
import { openSqliteStorage } from "@agent-tools/storage";
import { KyselyCronStore } from "../kysely-cron-store.js";

const [filename, taskId, countText, owner] = process.argv.slice(2) as [string, string, string, string];
const storage = await openSqliteStorage({ filename, busyTimeoutMs: 30_000 });
const store = await KyselyCronStore.open(storage);
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const won: number[] = [];
await Promise.all(
  Array.from({ length: Number(countText) }, async (_, index) => {
    const run = await store.claimOccurrence({ taskId, scheduledAt: index, owner, now: Date.now(), leaseMs: 60_000 });
    if (run !== undefined) won.push(run.scheduledAt);
  }),
);
await storage.close();
process.stdout.write(`${JSON.stringify(won)}\n`);
