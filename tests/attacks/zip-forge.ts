/**
 * Builds zip archives byte by byte, saying whatever the attack needs: sizes
 * that understate the data, entries that share their data, any name, any
 * Unix mode. Only what the skills install attacks use.
 */
import { deflateRawSync } from "node:zlib";

/** One entry as it is written, claims included. */
export interface ForgedEntry {
  readonly name: string;
  /** The entry's data as stored (already deflated when `method` is 8). */
  readonly data: Uint8Array;
  /** 0 stored, 8 deflate (default 8). */
  readonly method?: number;
  /** The uncompressed size the archive claims. */
  readonly declaredSize: number;
  /** The CRC-32 the archive claims (default: the CRC-32 of `data` for stored entries, else 0). */
  readonly crc?: number;
  /** Unix mode for the external attributes (default regular file 0644). */
  readonly mode?: number;
  /** Point this entry's directory record at the local header of entry number `sharesDataOf` (an overlapping entry). */
  readonly sharesDataOf?: number;
}

/** CRC-32 (the zip polynomial) of `data`. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Raw Deflate of `length` zero bytes (about 1000:1). */
export function deflatedZeros(length: number): Uint8Array {
  return deflateRawSync(Buffer.alloc(length), { level: 9 });
}

/** A zip archive of `entries`, with exactly the claims they carry. */
export function forgeZip(entries: readonly ForgedEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const locals: Buffer[] = [];
  const records: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(encoder.encode(entry.name));
    const method = entry.method ?? 8;
    const crc = entry.crc ?? (method === 0 ? crc32(entry.data) : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    if (entry.sharesDataOf === undefined) {
      locals.push(local, name, Buffer.from(entry.data));
      offset += local.length + name.length + entry.data.length;
    }
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE((3 << 8) | 20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(method, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.declaredSize, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    record.writeUInt32LE(entry.sharesDataOf === undefined ? (offsets.at(-1) as number) : (offsets[entry.sharesDataOf] as number), 42);
    records.push(record, name);
  }
  const directory = Buffer.concat(records);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
