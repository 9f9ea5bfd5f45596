/**
 * Write throughput and full reindex of the memory on SQLite: writes N entries
 * (default 10,000; half global, half in one project; bodies of 200-2,000
 * characters from a Zipf vocabulary) through MemoryService.write — each an
 * atomic Markdown file write under the entry's cross-process lock plus one
 * index batch — first half one after the other, second half from 8
 * concurrent writers. Then closes the service, deletes the SQLite index
 * database and times the next open, whose reconcile reads and indexes every
 * file again (files/s); and, for comparison, an open over an index that is
 * already up to date (the reconcile finds nothing to do).
 *
 * The per-scope quota (500 entries) is raised for the run: it is a limit on
 * what the model may keep, not on what the index can hold.
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/memory/reindex-and-writes.ts [files=10000] [--writers=8]
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type MemoryService, openMemoryService } from "@agent-tools/memory";
import { openSqliteStorage, type Storage } from "@agent-tools/storage";
import { DEFAULT_SQLITE_FILE_NAME } from "@agent-tools/storage/internal";
import { ZipfVocabulary, loadKyselyStore, logUniformInt, machineLine, ms, printTable, seededRandom } from "./bench-util.js";

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

interface Entry {
  readonly slug: string;
  readonly scope: "global" | "project";
  readonly description: string;
  readonly body: string;
}

function makeEntries(count: number): Entry[] {
  const random = seededRandom(5);
  const vocabulary = new ZipfVocabulary(seededRandom(1), 4_000);
  const sentence = (chars: number) => {
    const words: string[] = [];
    let length = 0;
    while (length < chars) {
      const word = vocabulary.draw(random);
      words.push(word);
      length += word.length + 1;
    }
    return words.join(" ").slice(0, chars);
  };
  return Array.from({ length: count }, (_, index) => ({
    slug: `${vocabulary.draw(random)}-${vocabulary.draw(random)}-${index}`,
    scope: index % 2 === 0 ? "global" : "project",
    description: sentence(logUniformInt(random, 30, 110)),
    body: sentence(logUniformInt(random, 200, 2_000)),
  }));
}

async function main(): Promise<void> {
  const files = Number(process.argv.slice(2).find((argument) => /^\d+$/.test(argument)) ?? 10_000);
  const writers = Number(option("writers", "8"));
  console.log(machineLine());
  const Store = await loadKyselyStore();
  if (typeof Store === "string") {
    console.log(`(skipped: ${Store})`);
    return;
  }
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "memory-bench-reindex-"));
  const dataDir = path.join(root, "data");
  const workdir = path.join(root, "work");
  await fs.mkdir(workdir, { recursive: true });
  const entries = makeEntries(files);

  let storage: Storage = await openSqliteStorage({ dataDir });
  const open = async (): Promise<MemoryService> =>
    openMemoryService({ dataDir, workdir, store: await Store.open(storage), closeStore: true, entriesPerScope: files + 1 });
  let service = await open();

  const write = async (entry: Entry) => {
    const result = await service.write({ ...entry, type: "reference" });
    if (!result.ok) throw new Error(`write refused: ${JSON.stringify(result.error)}`);
  };
  const half = Math.floor(files / 2);
  let start = performance.now();
  for (const entry of entries.slice(0, half)) await write(entry);
  const sequentialMs = performance.now() - start;

  const queue = entries.slice(half);
  start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) await write(entry);
    }),
  );
  const concurrentMs = performance.now() - start;
  await service.close();
  await storage.close();

  // Open over an index that is up to date: the reconcile compares and writes nothing.
  storage = await openSqliteStorage({ dataDir });
  start = performance.now();
  service = await open();
  const upToDateMs = performance.now() - start;
  await service.close();
  await storage.close();

  // Delete the index database: the next open reindexes every file.
  for (const suffix of ["", "-wal", "-shm"]) await fs.rm(path.join(dataDir, `${DEFAULT_SQLITE_FILE_NAME}${suffix}`), { force: true });
  storage = await openSqliteStorage({ dataDir });
  start = performance.now();
  service = await open();
  const reindexMs = performance.now() - start;
  const globalCount = (await service.list({ scope: "global", limit: 1 })).total;
  const projectCount = (await service.list({ scope: "project", limit: 1 })).total;
  await service.close();
  await storage.close();
  await fs.rm(root, { recursive: true, force: true });

  console.log(`files: ${files.toLocaleString("en")} (${globalCount} global + ${projectCount} project indexed after the reindex)\n`);
  printTable([
    ["phase", "entries", "total s", "per entry ms", "entries/s"],
    ["write, sequential", String(half), (sequentialMs / 1000).toFixed(1), ms(sequentialMs / half), String(Math.round(half / (sequentialMs / 1000)))],
    [
      `write, ${writers} concurrent writers`,
      String(files - half),
      (concurrentMs / 1000).toFixed(1),
      ms(concurrentMs / (files - half)),
      String(Math.round((files - half) / (concurrentMs / 1000))),
    ],
    ["open, index up to date", String(files), (upToDateMs / 1000).toFixed(1), ms(upToDateMs / files), String(Math.round(files / (upToDateMs / 1000)))],
    [
      "open after deleting the index (full reindex)",
      String(files),
      (reindexMs / 1000).toFixed(1),
      ms(reindexMs / files),
      String(Math.round(files / (reindexMs / 1000))),
    ],
  ]);
  if (globalCount + projectCount !== files) console.log(`\nWARNING: the reindex found ${globalCount + projectCount} entries, not ${files}`);
  console.log(
    `\nload at the end: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" / ")}`,
  );
}

await main();
