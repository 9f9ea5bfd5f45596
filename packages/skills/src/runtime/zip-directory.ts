/**
 * The central directory of a zip archive, read without inflating anything.
 * Every number in it is a claim of the archive's author: the sizes are
 * used to refuse early, never to bound the work (the inflater counts the
 * bytes it really produces), and the data ranges are checked against the
 * archive's length and against each other.
 */
import { ToolError } from "@agent-tools/core";

/** One entry of a zip's central directory, as extraction needs it. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflate; anything else is refused when inflated. */
  readonly method: number;
  /** General purpose flags (bit 0: encrypted). */
  readonly flags: number;
  /** The uncompressed size the directory declares (a claim, not a bound). */
  readonly declaredSize: number;
  readonly compressedSize: number;
  /** CRC-32 of the uncompressed data. */
  readonly crc: number;
  /** Unix mode from the external attributes (0 when the archive carries none). */
  readonly mode: number;
  /** Offset of the entry's local header. */
  readonly localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const UNKNOWN_32 = 0xffffffff;

const invalid = (message: string, details: Record<string, unknown> = {}) => new ToolError("invalid_arguments", message, { details });

/**
 * Reads the central directory (zip64 sizes, offsets and counts included).
 * Refuses an archive without one, a damaged one, and more than
 * `maxEntries` entries before reading them.
 *
 * @example
 * const entries = readZipDirectory(bytes, 4_000);
 */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 22 - 65_535); offset -= 1) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end === -1) throw invalid("The archive is not a zip file (no central directory found). Give a .zip or .skill archive.");
  let count = view.getUint16(end + 10, true);
  let directoryOffset = view.getUint32(end + 16, true);
  if ((count === 0xffff || directoryOffset === UNKNOWN_32) && end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR) {
    const zip64End = Number(view.getBigUint64(end - 12, true));
    if (zip64End + 56 > bytes.length || view.getUint32(zip64End, true) !== ZIP64_END) throw invalid("The archive's zip64 directory is damaged.");
    count = Number(view.getBigUint64(zip64End + 32, true));
    directoryOffset = Number(view.getBigUint64(zip64End + 48, true));
  }
  if (count > maxEntries) {
    throw new ToolError("too_large", `The archive holds ${count} entries; at most ${maxEntries} are accepted.`, {
      details: { entries: count, cap: maxEntries },
    });
  }
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== DIRECTORY_HEADER) throw invalid("The archive's central directory is damaged.");
    const madeBy = view.getUint16(offset + 4, true) >> 8;
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const external = view.getUint32(offset + 38, true);
    if (offset + 46 + nameLength + extraLength > bytes.length) throw invalid("The archive's central directory is damaged.");
    const sizes = zip64Fields(view, offset + 46 + nameLength, extraLength, {
      declaredSize: view.getUint32(offset + 24, true),
      compressedSize: view.getUint32(offset + 20, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    });
    // Unix (3) and macOS (19) archivers keep the mode in the high 16 bits; others may too.
    const mode = madeBy === 3 || madeBy === 19 || external >>> 16 !== 0 ? external >>> 16 : 0;
    entries.push({
      name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      method: view.getUint16(offset + 10, true),
      flags: view.getUint16(offset + 8, true),
      crc: view.getUint32(offset + 16, true),
      mode,
      ...sizes,
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

type EntrySizes = Pick<ZipEntry, "declaredSize" | "compressedSize" | "localHeaderOffset">;

/** Replaces the 32-bit fields marked unknown (0xffffffff) by the zip64 extra field's values, which come in this order. */
function zip64Fields(view: DataView, start: number, length: number, sizes: EntrySizes): EntrySizes {
  const wanted = (["declaredSize", "compressedSize", "localHeaderOffset"] as const).filter((field) => sizes[field] === UNKNOWN_32);
  if (wanted.length === 0) return sizes;
  const result = { ...sizes };
  let extra = start;
  while (extra + 4 <= start + length) {
    const id = view.getUint16(extra, true);
    const size = view.getUint16(extra + 2, true);
    if (id === 0x0001) {
      wanted.forEach((field, index) => {
        if (size >= (index + 1) * 8) result[field] = Number(view.getBigUint64(extra + 4 + index * 8, true));
      });
      break;
    }
    extra += 4 + size;
  }
  return result;
}

/**
 * Where an entry's compressed data lies: after its local header, within
 * the archive. Refuses a missing local header and data past the end.
 */
export function zipEntryData(bytes: Uint8Array, entry: ZipEntry): { readonly start: number; readonly end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.localHeaderOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_HEADER) {
    throw invalid(`The archive entry ${entry.name} has no local header where the directory says; the archive is damaged.`, { entry: entry.name });
  }
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw invalid(`The archive entry ${entry.name} runs past the end of the archive; the archive is damaged.`, { entry: entry.name });
  return { start, end };
}

/**
 * Refuses entries whose data ranges overlap (a zip bomb that makes many
 * entries inflate the same compressed bytes). `ranges` are in any order.
 */
export function assertNoOverlap(ranges: readonly { readonly name: string; readonly header: number; readonly end: number }[]): void {
  const sorted = [...ranges].sort((left, right) => left.header - right.header);
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1] as (typeof sorted)[number];
    const current = sorted[index] as (typeof sorted)[number];
    if (current.header < previous.end) {
      throw invalid(`The archive entries ${previous.name} and ${current.name} share their data (overlapping entries, a zip bomb); the archive is refused.`, {
        entries: [previous.name, current.name],
      });
    }
  }
}
