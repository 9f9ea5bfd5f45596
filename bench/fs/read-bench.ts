/** The Read figures of the file-tools benchmark (see fs-bench.ts). */
import { link, open, rm } from "node:fs/promises";
import path from "node:path";
import { TARGETS } from "./bench-targets.js";
import { type FsBenchSettings, call, format, interleaved, ratio, registryFor, row } from "./bench-util.js";
import { ensureTextFile } from "./source-text.js";

/** The files read: name, size in bytes, the target their first page is held to. */
const SIZES = [
  { name: "text-5mb.txt", label: "5 MB", bytes: 5 * 1024 * 1024, target: TARGETS.read5m },
  { name: "text-50mb.txt", label: "50 MB", bytes: 50 * 1024 * 1024, target: undefined },
  { name: "text-1gb.txt", label: "1 GB", bytes: 1024 * 1024 * 1024, target: TARGETS.read1g },
] as const;

/** Lines on Read's first page (its default limit). */
const PAGE_LINES = 200;
const CHUNK = 64 * 1024;

/** Reads `file` to its end once (through 1 MiB reads), so its pages are cached. */
async function warm(file: string): Promise<void> {
  const handle = await open(file, "r");
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  try {
    while ((await handle.read(buffer, 0, buffer.length, null)).bytesRead > 0);
  } finally {
    await handle.close();
  }
}

/** `count` hard links of `file` beside it, under names no registry has read: `<name>.run-<n>`. */
async function freshNames(file: string, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = `${path.basename(file)}.run-${index}`;
    await rm(path.join(path.dirname(file), name), { force: true });
    await link(file, path.join(path.dirname(file), name));
    names.push(name);
  }
  return names;
}

/**
 * The floor of a first page: open the file, read 64 KiB chunks until
 * 200 newlines have come, decode those lines into a string, close.
 */
async function firstLines(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const chunks: Buffer[] = [];
    let lines = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      let at = -1;
      while (lines < PAGE_LINES && (at = chunk.indexOf(0x0a, at + 1)) !== -1 && at < bytesRead) lines += 1;
      if (lines === PAGE_LINES) {
        chunks.push(chunk.subarray(0, at + 1));
        break;
      }
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * Warms the Read path (its code compiled by the JIT, its lazily loaded
 * modules) with a few Reads of the smallest file through throwaway
 * registries, so the first row does not carry the process's warm-up: a
 * single warm-up round left the 5 MB row (the first) at 12-16 ms where the
 * same Reads take 1.5-4 ms once warm.
 */
async function warmReadPath(repository: string, directory: string): Promise<void> {
  const file = ensureTextFile(repository, directory, SIZES[0].name, SIZES[0].bytes);
  for (let index = 0; index < 10; index += 1) {
    const registry = registryFor(directory);
    try {
      await call(registry, "Read", { path: path.basename(file) });
    } finally {
      await registry.close();
    }
  }
}

/**
 * Read's first page (default limit, 200 lines) of a 5 MB, a 50 MB and a
 * 1 GB text file (`repository`'s sources repeated, written once under
 * `directory`), warm page cache, through one long-lived registry (as in a
 * host) reading a hard link of the file it has not read yet each run (so
 * earlier runs' background hashes run beside it, as they would); beside the floor
 * of streaming the first 200 lines. Interleaved run by run.
 */
export async function benchRead(repository: string, directory: string, settings: FsBenchSettings): Promise<void> {
  await warmReadPath(repository, directory);
  for (const size of SIZES) {
    if (settings.quick && size.bytes > 50 * 1024 * 1024) continue;
    const file = ensureTextFile(repository, directory, size.name, size.bytes);
    await warm(file);
    // One long-lived registry, as in a host, reading a name it has not read yet each run (a hard link of the file).
    const links = await freshNames(file, settings.runs + 1);
    const registry = registryFor(directory);
    let next = 0;
    let shown = 0;
    try {
      const [tool, floor] = (await interleaved(settings.runs, [
        async () => {
          const result = await call(registry, "Read", { path: links[next++]! });
          const text = result.content.map((part) => ("text" in part ? String(part.text) : "")).join("");
          shown = text.split("\n").length;
        },
        () => firstLines(file),
      ])) as [number, number];
      if (size.target) settings.targets.add(size.target, tool, `Read first page, ${size.label}`);
      row(
        `${size.label} file`,
        `Read first page (limit ${PAGE_LINES}; ${shown} lines in the answer)`,
        `tool ${format(tool)}`,
        `floor (stream 200 lines) ${format(floor)} ${ratio(tool, floor)}`,
      );
    } finally {
      await registry.close();
      for (const link of links) await rm(path.join(directory, link), { force: true });
    }
  }
}
