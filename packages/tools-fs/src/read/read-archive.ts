import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import { ToolError } from "@agent-tools/core";

/** Entries listed at most per archive. */
export const ARCHIVE_ENTRY_LIMIT = 200;

/** One archive member. */
export interface ArchiveEntry {
  name: string;
  size: number;
  directory: boolean;
}

/** A listing: the first entries and whether more exist. */
export interface ArchiveListing {
  format: "zip" | "tar" | "tar.gz";
  entries: ArchiveEntry[];
  hasMore: boolean;
}

/** Archive kinds Read recognises by file name. */
export function archiveKind(fileName: string): "zip" | "tar" | "tar.gz" | "gz" | "unsupported" | undefined {
  const lower = fileName.toLowerCase();
  if (/\.(zip|jar|war|apk|nupkg|whl)$/.test(lower)) return "zip";
  if (lower.endsWith(".tar")) return "tar";
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (/\.(rar|7z|bz2|xz|txz|tbz|tbz2|zst|lz|lzma)$/.test(lower) || /\.tar\.[a-z0-9]+$/.test(lower)) return "unsupported";
  if (lower.endsWith(".gz")) return "gz";
  return undefined;
}

/** Lists a zip archive from its central directory, reading only the tail of the file. */
export async function listZip(absolutePath: string, limit = ARCHIVE_ENTRY_LIMIT): Promise<ArchiveListing> {
  const handle = await open(absolutePath, "r");
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let index = tailLength - 22; index >= 0; index -= 1) {
      if (tail.readUInt32LE(index) === 0x06054b50) {
        eocd = index;
        break;
      }
    }
    if (eocd === -1)
      throw new ToolError(
        "unsupported_target",
        "This file is not a readable zip archive (no end-of-central-directory record). Inspect it with Bash (unzip -l).",
      );
    const total = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
      throw new ToolError("unsupported_target", "This is a ZIP64 archive, which Read does not list. Use Bash (unzip -l) instead.");
    }
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const entries: ArchiveEntry[] = [];
    let position = 0;
    let seen = 0;
    while (position + 46 <= directory.length && directory.readUInt32LE(position) === 0x02014b50) {
      const nameLength = directory.readUInt16LE(position + 28);
      const extraLength = directory.readUInt16LE(position + 30);
      const commentLength = directory.readUInt16LE(position + 32);
      const name = directory.subarray(position + 46, position + 46 + nameLength).toString("utf8");
      seen += 1;
      if (entries.length < limit) entries.push({ name, size: directory.readUInt32LE(position + 24), directory: name.endsWith("/") });
      position += 46 + nameLength + extraLength + commentLength;
    }
    return { format: "zip", entries, hasMore: Math.max(total, seen) > entries.length };
  } finally {
    await handle.close();
  }
}

/** Lists a tar (optionally gzip-compressed) archive by streaming its headers. */
export async function listTar(absolutePath: string, gzip: boolean, limit = ARCHIVE_ENTRY_LIMIT, signal?: AbortSignal): Promise<ArchiveListing> {
  const entries: ArchiveEntry[] = [];
  let hasMore = false;
  const source = createReadStream(absolutePath, { signal });
  const stream = gzip ? source.pipe(createGunzip()) : source;
  let pending: Buffer = Buffer.alloc(0);
  let skip = 0; // data bytes still to skip
  let longName: string | undefined;
  let collectLongName = 0;
  let longNameBytes: Buffer[] = [];
  try {
    outer: for await (const chunk of stream as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (skip > 0) {
          const take = Math.min(skip, pending.length);
          if (collectLongName > 0) {
            const keep = Math.min(collectLongName, take);
            longNameBytes.push(pending.subarray(0, keep));
            collectLongName -= keep;
          }
          pending = pending.subarray(take);
          skip -= take;
          if (skip > 0) break;
          if (longNameBytes.length) {
            const raw = Buffer.concat(longNameBytes).toString("utf8");
            const pax = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(raw);
            longName = pax ? pax[1] : raw.replace(/\0.*$/s, "");
            longNameBytes = [];
          }
        }
        if (pending.length < 512) break;
        const header = pending.subarray(0, 512);
        pending = pending.subarray(512);
        if (header.every((byte) => byte === 0)) break outer;
        const field = (start: number, length: number) =>
          header
            .subarray(start, start + length)
            .toString("utf8")
            .replace(/\0.*$/s, "");
        const size = Number.parseInt(field(124, 12).trim() || "0", 8) || 0;
        const type = String.fromCharCode(header[156]!);
        skip = Math.ceil(size / 512) * 512;
        if (type === "L" || type === "x") {
          collectLongName = size;
          continue;
        }
        if (type === "g") continue;
        const prefix = field(345, 155);
        const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
        longName = undefined;
        if (entries.length >= limit) {
          hasMore = true;
          break outer;
        }
        entries.push({ name, size, directory: type === "5" || name.endsWith("/") });
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === "Z_DATA_ERROR") {
      throw new ToolError("unsupported_target", "The archive's gzip data is corrupt; Read cannot list it.");
    }
    throw error;
  } finally {
    source.destroy();
  }
  return { format: gzip ? "tar.gz" : "tar", entries, hasMore };
}

/** Renders a listing for the model. */
export function renderListing(listing: ArchiveListing): string {
  const lines = listing.entries.map((entry) => (entry.directory ? `[DIR]  ${entry.name}` : `[FILE] ${entry.name} (${entry.size} bytes)`));
  if (listing.hasMore) lines.push(`...more entries omitted (only the first ${listing.entries.length} are listed)...`);
  if (lines.length === 0) lines.push("(empty archive)");
  return lines.join("\n");
}
