/**
 * Inflates one zip entry in bounded, yielding steps, counting the bytes it
 * really produces against the caps as they arrive.
 *
 * Invariants:
 * - compressed input is fed {@link INPUT_STEP} bytes at a time, so one
 *   synchronous step produces at most ~1032 times that (Deflate's ceiling);
 * - between steps the event loop gets a turn once {@link SLICE_MS} have
 *   passed, so the host's other tool calls keep running while an archive
 *   (or a bomb) is being inflated;
 * - every cap is checked after every step, before more input is fed: an
 *   entry past its declared size, the per-file cap, the archive's total or
 *   the compression-ratio cap is refused at once;
 * - the declared size and CRC-32 are checked at the end (a damaged entry is
 *   refused), never used to size anything up front.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { ToolError } from "@agent-tools/core";
import { Inflate } from "fflate";
import type { ZipEntry } from "./zip-directory.js";

/** The caps an extraction applies to the bytes it produces. */
export interface InflateCaps {
  /** All entries together, uncompressed. */
  readonly totalBytes: number;
  /** One entry, uncompressed. */
  readonly entryBytes: number;
  /** Largest uncompressed/compressed ratio of an entry once past {@link InflateCaps.ratioFloor}. */
  readonly ratio: number;
  /** Uncompressed bytes an entry may reach before the ratio cap applies (small, very compressible files are fine). */
  readonly ratioFloor: number;
}

/** Bytes produced so far by one extraction (shared by its entries; one object per extraction). */
export interface InflateTally {
  produced: number;
}

/** Compressed bytes fed to the inflater per synchronous step. */
const INPUT_STEP = 2048;
/** Longest run of synchronous steps before the event loop gets a turn, in milliseconds. */
const SLICE_MS = 4;

/** The CRC-32 lookup table (a constant computed once). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    let value = index;
    for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[index] = value >>> 0;
  }
  return table;
})();

/** Continues a CRC-32 (the zip polynomial; start with 0) over `data`. */
export function crc32(data: Uint8Array, previous = 0): number {
  let crc = (previous ^ 0xffffffff) >>> 0;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const tooLarge = (message: string, details: Record<string, unknown>) => new ToolError("too_large", message, { details });

/** A yielder: gives the event loop a turn once a slice has passed, and honours the signal. */
function slicer(signal: AbortSignal | undefined): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await nextTurn();
    signal?.throwIfAborted();
    sliceStart = performance.now();
  };
}

/**
 * Inflates `entry`, whose compressed data is `bytes[start, end)`, and
 * returns its bytes. Throws `too_large` naming the cap an entry goes past
 * (its declared size, `caps.entryBytes`, `caps.totalBytes`, `caps.ratio`),
 * `invalid_arguments` for an encrypted entry, an unknown method, a broken
 * Deflate stream or a size/CRC that does not match the directory.
 *
 * @example
 * const data = await inflateZipEntry(bytes, entry, zipEntryData(bytes, entry), caps, { produced: 0 });
 */
export async function inflateZipEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  range: { readonly start: number; readonly end: number },
  caps: InflateCaps,
  tally: InflateTally,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const details = { entry: entry.name };
  if (entry.flags & 1)
    throw new ToolError("invalid_arguments", `The archive entry ${entry.name} is encrypted; encrypted archives are not supported.`, { details });
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ToolError(
      "invalid_arguments",
      `The archive entry ${entry.name} uses compression method ${entry.method}; only stored and Deflate entries are supported.`,
      {
        details,
      },
    );
  }
  if (entry.declaredSize > caps.entryBytes) {
    throw tooLarge(
      `The archive entry ${entry.name} declares ${entry.declaredSize} bytes; a skill file may be at most ${caps.entryBytes} bytes (the per-file cap).`,
      {
        ...details,
        cap: caps.entryBytes,
      },
    );
  }
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let crc = 0;
  let consumed = 0;
  const accept = (chunk: Uint8Array) => {
    produced += chunk.length;
    tally.produced += chunk.length;
    if (produced > entry.declaredSize) {
      throw tooLarge(
        `The archive entry ${entry.name} inflates past its declared size of ${entry.declaredSize} bytes (its size cap): the archive understates its sizes, as zip bombs do, and is refused.`,
        { ...details, cap: entry.declaredSize },
      );
    }
    if (tally.produced > caps.totalBytes) {
      throw tooLarge(`The archive unpacks to more than ${caps.totalBytes} bytes (the total cap); a skill may be at most ${caps.totalBytes} bytes.`, {
        ...details,
        cap: caps.totalBytes,
      });
    }
    if (produced > caps.ratioFloor && produced > caps.ratio * Math.max(consumed, 1)) {
      throw tooLarge(
        `The archive entry ${entry.name} inflates more than ${caps.ratio} times its compressed size (the compression-ratio cap), as zip bombs do; the archive is refused.`,
        { ...details, cap: caps.ratio },
      );
    }
    crc = crc32(chunk, crc);
    chunks.push(chunk);
  };
  const step = slicer(signal);
  if (entry.method === 0) {
    for (let offset = range.start; offset < range.end; offset += INPUT_STEP * 64) {
      consumed = Math.min(range.end, offset + INPUT_STEP * 64) - range.start;
      accept(bytes.subarray(offset, range.start + consumed));
      await step();
    }
  } else {
    const inflater = new Inflate((chunk) => accept(chunk));
    try {
      for (let offset = range.start; ; ) {
        const stop = Math.min(range.end, offset + INPUT_STEP);
        consumed = stop - range.start;
        inflater.push(bytes.subarray(offset, stop), stop === range.end);
        if (stop === range.end) break;
        offset = stop;
        await step();
      }
    } catch (error) {
      if (error instanceof ToolError || (error as Error).name === "AbortError") throw error;
      throw new ToolError("invalid_arguments", `The archive entry ${entry.name} cannot be inflated (${(error as Error).message}); the archive is damaged.`, {
        details,
      });
    }
  }
  if (produced !== entry.declaredSize || crc !== entry.crc) {
    throw new ToolError("invalid_arguments", `The archive entry ${entry.name} does not match its declared size and checksum; the archive is damaged.`, {
      details,
    });
  }
  return concat(chunks, produced);
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
