// One side of the cross-process append race: opens the SQLite file, waits for "go" on stdin, then
// appends <count> messages to <conversation> at once and prints the seqs it got, as JSON.
// Usage: node --import tsx --conditions=@agent-tools/source subagent-append-race-child.ts <sqliteFile> <conversation> <count> <writer>
import { openSqliteStorage } from "@agent-tools/storage";
import { KyselySubagentStore } from "../kysely-subagent-store.js";

const [filename, conversation, countText, writer] = process.argv.slice(2) as [string, string, string, string];
const storage = await openSqliteStorage({ filename });
const store = await KyselySubagentStore.open(storage);
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const appended = await Promise.all(
  Array.from({ length: Number(countText) }, (_, index) =>
    store.appendMessage(conversation, { senderId: `writer-${writer}`, recipientId: "*", channel: "shared", body: `writer ${writer} message ${index}` }),
  ),
);
await storage.close();
process.stdout.write(`${JSON.stringify(appended.map((message) => message.seq))}\n`);
