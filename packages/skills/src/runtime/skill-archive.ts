import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { unzipSync, type Zippable, zipSync } from "fflate";
import { SKILL_LIMITS, SKILL_METADATA_FILES } from "../domain/skill-types.js";
import { listSkillFolder } from "./skill-folder-listing.js";

/** One entry of a zip's central directory, as the checks need it. */
interface ZipEntry {
  readonly name: string;
  readonly uncompressedSize: number;
  /** CRC-32 of the uncompressed data. */
  readonly crc: number;
  /** Unix mode from the external attributes (0 when the archive carries none). */
  readonly mode: number;
}

const invalid = (message: string, details: Record<string, unknown> = {}) => new ToolError("invalid_arguments", message, { details });

/** Reads the central directory (zip64 sizes and counts included) without inflating anything. */
function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 22 - 65_535); offset -= 1) {
    if (view.getUint32(offset, true) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end === -1) throw invalid("The archive is not a zip file (no central directory found). Give a .zip or .skill archive.");
  let count = view.getUint16(end + 10, true);
  let directoryOffset = view.getUint32(end + 16, true);
  if ((count === 0xffff || directoryOffset === 0xffffffff) && end >= 20 && view.getUint32(end - 20, true) === 0x07064b50) {
    const zip64End = Number(view.getBigUint64(end - 12, true));
    if (zip64End + 56 > bytes.length || view.getUint32(zip64End, true) !== 0x06064b50) throw invalid("The archive's zip64 directory is damaged.");
    count = Number(view.getBigUint64(zip64End + 32, true));
    directoryOffset = Number(view.getBigUint64(zip64End + 48, true));
  }
  if (count > SKILL_LIMITS.skillMaxFiles * 2) {
    throw new ToolError("too_large", `The archive holds ${count} entries; a skill may have at most ${SKILL_LIMITS.skillMaxFiles} files.`, {
      details: { entries: count },
    });
  }
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) throw invalid("The archive's central directory is damaged.");
    const madeBy = view.getUint16(offset + 4, true) >> 8;
    const crc = view.getUint32(offset + 16, true);
    let uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const external = view.getUint32(offset + 38, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    if (uncompressedSize === 0xffffffff) {
      // The zip64 extra field (0x0001) starts with the uncompressed size.
      let extra = offset + 46 + nameLength;
      const extraEnd = extra + extraLength;
      while (extra + 4 <= extraEnd) {
        const id = view.getUint16(extra, true);
        const size = view.getUint16(extra + 2, true);
        if (id === 0x0001 && size >= 8) uncompressedSize = Number(view.getBigUint64(extra + 4, true));
        extra += 4 + size;
      }
    }
    // Unix (3) and macOS (19) archivers keep the mode in the high 16 bits; others may too.
    const mode = madeBy === 3 || madeBy === 19 || external >>> 16 !== 0 ? external >>> 16 : 0;
    entries.push({ name, uncompressedSize, crc, mode });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

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

/** CRC-32 (the zip polynomial) of `data`. */
function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Why an entry name is unsafe, or undefined. Directory names end with `/`. */
function entryNameProblem(name: string): string | undefined {
  if (name.includes("\0")) return "holds a NUL character";
  if (name.includes("\\")) return "holds a backslash";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "is absolute";
  const segments = name.replace(/\/$/, "").split("/");
  if (segments.some((segment) => segment === "..")) return "climbs out with ..";
  if (segments.some((segment) => segment === "" || segment === ".")) return "has an empty or . segment";
  return undefined;
}

/** macOS archive clutter, skipped on extraction. */
const isClutter = (name: string) => name.startsWith("__MACOSX/") || name === ".DS_Store" || name.endsWith("/.DS_Store");

/**
 * Extracts a skill archive (zip, `.skill`) into `destDir` (created when
 * missing) and returns the folder that holds the skill: `destDir` itself
 * when a metadata file (SKILL.md, ...) sits at the top level or the files
 * are spread over several top-level names, else the single top-level folder.
 *
 * Everything is checked on the central directory before anything is
 * inflated: entries that are absolute, climb out with `..`, hold a
 * backslash or a NUL, or are symlinks (Unix mode in the external
 * attributes) are refused, as are duplicates, more than
 * `SKILL_LIMITS.skillMaxFiles` files and a declared uncompressed total over
 * `SKILL_LIMITS.skillMaxBytes` (zip bombs). Inflating never writes past an
 * entry's declared size, and an entry whose data does not match its
 * declared size and CRC-32 is refused. `__MACOSX/` and `.DS_Store` entries are skipped. Files keep an
 * executable bit (written 0755, else 0644).
 *
 * @example
 * const skillDir = await extractSkillArchive(await readFile("pdf.skill"), "/root/.staging/install-1-0");
 */
export async function extractSkillArchive(bytes: Uint8Array, destDir: string): Promise<string> {
  if (bytes.length > SKILL_LIMITS.downloadMaxBytes) {
    throw new ToolError("too_large", `The archive is ${bytes.length} bytes; at most ${SKILL_LIMITS.downloadMaxBytes} are accepted.`);
  }
  const entries = readCentralDirectory(bytes).filter((entry) => !isClutter(entry.name));
  const files: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const problem = entryNameProblem(entry.name);
    if (problem !== undefined) throw invalid(`The archive entry ${JSON.stringify(entry.name)} ${problem}; such archives are refused.`, { entry: entry.name });
    if ((entry.mode & 0o170000) === 0o120000)
      throw invalid(`The archive entry ${entry.name} is a symlink; skills may not contain symlinks.`, { entry: entry.name });
    const key = entry.name.replace(/\/$/, "");
    if (seen.has(key)) throw invalid(`The archive holds ${key} twice.`, { entry: entry.name });
    seen.add(key);
    if (entry.name.endsWith("/")) continue;
    files.push(entry);
    total += entry.uncompressedSize;
  }
  if (files.length > SKILL_LIMITS.skillMaxFiles) {
    throw new ToolError("too_large", `The archive holds ${files.length} files; a skill may have at most ${SKILL_LIMITS.skillMaxFiles}.`, {
      details: { files: files.length },
    });
  }
  if (total > SKILL_LIMITS.skillMaxBytes) {
    throw new ToolError("too_large", `The archive unpacks to ${total} bytes; a skill may be at most ${SKILL_LIMITS.skillMaxBytes} bytes.`, {
      details: { bytes: total },
    });
  }
  const wanted = new Map(files.map((entry) => [entry.name, entry]));
  let contents: Record<string, Uint8Array>;
  try {
    contents = unzipSync(bytes, { filter: (file) => wanted.has(file.name) });
  } catch (error) {
    throw invalid(`The archive cannot be unpacked: ${(error as Error).message}.`);
  }
  await mkdir(destDir, { recursive: true });
  for (const entry of entries) {
    if (entry.name.endsWith("/")) await mkdir(path.join(destDir, entry.name), { recursive: true });
  }
  for (const entry of files) {
    const data = contents[entry.name];
    if (data === undefined || data.length !== entry.uncompressedSize || crc32(data) !== entry.crc) {
      throw invalid(`The archive entry ${entry.name} does not match its declared size and checksum; the archive is damaged.`, { entry: entry.name });
    }
    const target = path.join(destDir, entry.name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data, { flag: "wx", mode: entry.mode & 0o111 ? 0o755 : 0o644 });
  }
  const topLevel = new Set(files.map((entry) => entry.name.split("/")[0] as string));
  const metadataAtTop = files.some((entry) => (SKILL_METADATA_FILES as readonly string[]).includes(entry.name));
  if (!metadataAtTop && topLevel.size === 1) {
    const [only] = topLevel;
    if (files.every((entry) => entry.name.startsWith(`${only}/`))) return path.join(destDir, only as string);
  }
  return destDir;
}

/** A fixed time for every entry, so packaging the same folder twice gives the same bytes. */
const FIXED_MTIME = new Date(2000, 0, 1);

/**
 * Zips a skill folder into a `.skill` archive: Deflate, one entry per file
 * named `<name>/<path>` in sorted order, a fixed modification time, Unix
 * mode 0644 (0755 for files with an executable bit, so scripts stay
 * runnable after an install). Directories are implied by the file paths
 * (empty ones are left out). A symlink anywhere refuses the whole folder.
 *
 * @example
 * const bytes = await writeSkillArchive("/home/me/.agent-tools/skills/pdf", "pdf");
 */
export async function writeSkillArchive(skillDir: string, name: string): Promise<Uint8Array> {
  const listing = await listSkillFolder(skillDir);
  const symlink = listing.find((entry) => entry.kind === "symlink");
  if (symlink !== undefined)
    throw invalid(`${symlink.path} in skill ${name} is a symlink; skills may not contain symlinks. Replace it with the file itself.`, { path: symlink.path });
  const zippable: Zippable = {};
  for (const entry of listing) {
    if (entry.kind !== "file") continue;
    const absolute = path.join(skillDir, entry.path);
    const executable = ((await stat(absolute)).mode & 0o111) !== 0;
    zippable[`${name}/${entry.path}`] = [
      new Uint8Array(await readFile(absolute)),
      { level: 6, mtime: FIXED_MTIME, os: 3, attrs: (0o100000 | (executable ? 0o755 : 0o644)) << 16 },
    ];
  }
  return zipSync(zippable);
}
