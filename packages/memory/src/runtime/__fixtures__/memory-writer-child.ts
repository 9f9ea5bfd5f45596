// A process that changes memory entries in a loop until it is killed: the crash test's writer.
// Usage: node --import tsx --conditions=@agent-tools/source memory-writer-child.ts <dataDir> <workdir> <sqliteFile> <seed>
// Every body it writes checks itself: its last line is `sum:<first 8 hex of the SHA-256 of the lines before>`,
// and every journal line is `- HH:MM item-<n>-<first 8 hex of the SHA-256 of n>`; a torn or mixed file fails the check.
import { createHash } from "node:crypto";
import { openSqliteStorage } from "@agent-tools/storage";
import { KyselyMemoryIndexStore } from "../../stores/kysely-memory-index-store.js";
import { openMemoryService } from "../memory-service.js";

const [dataDir, workdir, filename, seedText] = process.argv.slice(2) as [string, string, string, string];
let seed = Number(seedText) >>> 0 || 1;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) >>> 0;
  return seed / 2 ** 32;
};
const hash8 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8);

/** A self-checking body of random length (up to ~6 KB, under the 8 KB limit). */
export function checkedBody(round: number): string {
  const filler = "abcdefghijklmnopqrstuvwxyz".repeat(Math.ceil(random() * 230));
  const text = `round ${round} ${seedText}\n${filler}`;
  return `${text}\nsum:${hash8(text)}`;
}

const SLUGS = ["crash-alpha", "crash-beta", "crash-gamma", "crash-delta"];

const storage = await openSqliteStorage({ filename });
const store = await KyselyMemoryIndexStore.open(storage);
const memory = await openMemoryService({ dataDir, workdir, store });
process.stdout.write("ready\n");
for (let round = 0; ; round += 1) {
  const slug = SLUGS[Math.floor(random() * SLUGS.length)]!;
  const scope = random() < 0.3 ? "project" : "global";
  const pick = random();
  if (pick < 0.45) {
    await memory.write({ slug, scope, type: random() < 0.5 ? "user" : "reference", description: `Crash ${round}`, body: checkedBody(round) });
  } else if (pick < 0.65) {
    await memory.update({ slug, scope, body: checkedBody(round), mode: "replace" });
  } else if (pick < 0.75) {
    await memory.delete({ slug, scope });
  } else if (pick < 0.85) {
    await memory.applyBatch(
      [
        { action: "write", slug: `${slug}-batch`, scope: "global", type: "reference", description: `Batch ${round}`, body: checkedBody(round), mode: "merge" },
        { action: "update", slug, scope, body: checkedBody(round), mode: "replace" },
      ],
      { actor: "extractor" },
    );
  } else {
    await memory.appendDaily(`item-${round}-${hash8(String(round))}`);
  }
}
