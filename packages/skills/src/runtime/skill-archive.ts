import { mkdir } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { openContainedTree } from "@agent-tools/file-io/internal";
import { Zip, ZipDeflate } from "fflate";
import { SKILL_LIMITS, SKILL_METADATA_FILES } from "../domain/skill-types.js";
import { readSourceFolder } from "./source-folder-reader.js";
import { type ZipEntry, assertNoOverlap, readZipDirectory, zipEntryData } from "./zip-directory.js";
import { type InflateCaps, inflateZipEntry } from "./zip-inflate.js";

const invalid = (message: string, details: Record<string, unknown> = {}) => new ToolError("invalid_arguments", message, { details });

/** The caps of an extraction: a skill's limits, applied to the bytes really produced. */
const ARCHIVE_CAPS: InflateCaps = {
  totalBytes: SKILL_LIMITS.skillMaxBytes,
  entryBytes: SKILL_LIMITS.fileMaxBytes,
  ratio: SKILL_LIMITS.archiveMaxCompressionRatio,
  ratioFloor: 1024 * 1024,
};

/** Why an entry name is unsafe, or undefined. Directory names end with `/`. */
function entryNameProblem(name: string): string | undefined {
  if (name.includes("\0")) return "holds a NUL character";
  if (name.includes("\\")) return "holds a backslash";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "is absolute";
  const segments = name.replace(/\/$/, "").split("/");
  if (segments.some((segment) => segment === "..")) return "climbs out with ..";
  if (segments.some((segment) => segment === "" || segment === ".")) return "has an empty or . segment";
  if (segments.length > SKILL_LIMITS.folderMaxDepth) return `is nested more than ${SKILL_LIMITS.folderMaxDepth} folders deep`;
  return undefined;
}

/** Why an entry's Unix file type is refused, or undefined (regular files, folders, no type). */
function entryTypeProblem(mode: number): string | undefined {
  const type = mode & 0o170000;
  if (type === 0o120000) return "is a symlink; skills may not contain symlinks";
  if (type !== 0 && type !== 0o100000 && type !== 0o040000) return "is a special file (a FIFO, socket or device); skills hold only files and folders";
  return undefined;
}

/** An entry name as a case-insensitive, normalising file system sees it (NFC, lower case). */
const foldedName = (name: string) => name.normalize("NFC").toLowerCase();

/** macOS archive clutter, skipped on extraction. */
const isClutter = (name: string) => name.startsWith("__MACOSX/") || name === ".DS_Store" || name.endsWith("/.DS_Store");

/** The entries to extract, after every check that needs no inflating. */
function checkedEntries(bytes: Uint8Array): { entries: ZipEntry[]; files: ZipEntry[] } {
  const entries = readZipDirectory(bytes, SKILL_LIMITS.skillMaxFiles * 2).filter((entry) => !isClutter(entry.name));
  const files: ZipEntry[] = [];
  const seen = new Map<string, string>();
  let declared = 0;
  for (const entry of entries) {
    const problem = entryNameProblem(entry.name);
    if (problem !== undefined) throw invalid(`The archive entry ${JSON.stringify(entry.name)} ${problem}; such archives are refused.`, { entry: entry.name });
    const typeProblem = entryTypeProblem(entry.mode);
    if (typeProblem !== undefined) throw invalid(`The archive entry ${entry.name} ${typeProblem}.`, { entry: entry.name });
    const key = entry.name.replace(/\/$/, "");
    // Case-insensitive or normalising file systems (macOS, Windows) would make such names one file: refused everywhere alike.
    const folded = foldedName(key);
    const earlier = seen.get(folded);
    if (earlier === key) throw invalid(`The archive holds ${key} twice.`, { entry: entry.name });
    if (earlier !== undefined) {
      throw invalid(`The archive holds ${earlier} and ${key}, names that differ only by case or Unicode normalisation; such archives are refused.`, {
        entry: entry.name,
      });
    }
    seen.set(folded, key);
    if (entry.name.endsWith("/")) continue;
    files.push(entry);
    declared += entry.declaredSize;
  }
  const fileNames = new Set(files.map((file) => foldedName(file.name)));
  for (const file of files) {
    const segments = file.name.split("/");
    for (let length = 1; length < segments.length; length += 1) {
      const folder = segments.slice(0, length).join("/");
      if (fileNames.has(foldedName(folder))) throw invalid(`The archive holds ${folder} both as a file and as a folder.`, { entry: folder });
    }
  }
  if (files.length > SKILL_LIMITS.skillMaxFiles) {
    throw new ToolError("too_large", `The archive holds ${files.length} files; a skill may have at most ${SKILL_LIMITS.skillMaxFiles}.`, {
      details: { files: files.length, cap: SKILL_LIMITS.skillMaxFiles },
    });
  }
  // The declared sizes only refuse early: the inflater counts what it really produces.
  if (declared > SKILL_LIMITS.skillMaxBytes) {
    throw new ToolError("too_large", `The archive unpacks to ${declared} bytes; a skill may be at most ${SKILL_LIMITS.skillMaxBytes} bytes (the total cap).`, {
      details: { bytes: declared, cap: SKILL_LIMITS.skillMaxBytes },
    });
  }
  return { entries, files };
}

/**
 * Extracts a skill archive (zip, `.skill`) into `destDir` (created when
 * missing) and returns the folder that holds the skill: `destDir` itself
 * when a metadata file (SKILL.md, ...) sits at the top level or the files
 * are spread over several top-level names, else the single top-level folder.
 *
 * Names and types are checked on the central directory first: entries that
 * are absolute (`/x`, `C:x`), climb out with `..`, hold a backslash or a
 * NUL, nest deeper than `folderMaxDepth`, or are symlinks or special files
 * (Unix mode in the external attributes) are refused, as are duplicates
 * (also names differing only by case or Unicode normalisation, one file
 * on macOS and Windows),
 * overlapping entries and more than `skillMaxFiles` files. Then every
 * entry is inflated in small steps that yield to the event loop, with the
 * caps checked as the bytes arrive (`fileMaxBytes` per file, `skillMaxBytes`
 * in all, `archiveMaxCompressionRatio`, and never past an entry's declared
 * size: the directory's sizes are claims, not bounds); an entry whose data
 * does not match its declared size and CRC-32 is refused. Nothing is
 * written until every entry passed; then files are written through a
 * contained tree (no symlink followed), 0755 when the archive marks them
 * executable, else 0644. `__MACOSX/` and `.DS_Store` entries are skipped.
 *
 * @example
 * const skillDir = await extractSkillArchive(await readFile("pdf.skill"), "/root/.staging/install-1-0");
 */
export async function extractSkillArchive(bytes: Uint8Array, destDir: string, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
  if (bytes.length > SKILL_LIMITS.downloadMaxBytes) {
    throw new ToolError("too_large", `The archive is ${bytes.length} bytes; at most ${SKILL_LIMITS.downloadMaxBytes} are accepted.`, {
      details: { cap: SKILL_LIMITS.downloadMaxBytes },
    });
  }
  const { entries, files } = checkedEntries(bytes);
  const ranges = files.map((entry) => ({ entry, ...zipEntryData(bytes, entry) }));
  assertNoOverlap(ranges.map(({ entry, end }) => ({ name: entry.name, header: entry.localHeaderOffset, end })));
  const tally = { produced: 0 };
  const contents: Uint8Array[] = [];
  for (const { entry, start, end } of ranges) contents.push(await inflateZipEntry(bytes, entry, { start, end }, ARCHIVE_CAPS, tally, options.signal));

  await mkdir(destDir, { recursive: true });
  const tree = openContainedTree(destDir);
  try {
    for (const entry of entries) {
      if (entry.name.endsWith("/")) await tree.mkdir(entry.name.slice(0, -1), { recursive: true });
    }
    for (const [index, entry] of files.entries()) {
      await tree.writeFile(entry.name, contents[index] as Uint8Array, { mode: entry.mode & 0o111 ? 0o755 : 0o644 });
    }
  } finally {
    tree.close();
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
/** Bytes fed to the deflater per step; the event loop gets a turn between steps. */
const DEFLATE_STEP = 256 * 1024;

/**
 * Zips a skill folder into a `.skill` archive: Deflate, one entry per file
 * named `<name>/<path>` in sorted order, a fixed modification time, Unix
 * mode 0644 (0755 for files with an executable bit, so scripts stay
 * runnable after an install). Directories are implied by the file paths
 * (empty ones are left out). The folder is read without following
 * symlinks (a symlink anywhere refuses it) and compressed in steps that
 * yield to the event loop.
 *
 * @example
 * const bytes = await writeSkillArchive("/home/me/.agent-tools/skills/pdf", "pdf");
 */
export async function writeSkillArchive(skillDir: string, name: string): Promise<Uint8Array> {
  const files: { path: string; data: Uint8Array; executable: boolean }[] = [];
  await readSourceFolder(
    path.dirname(skillDir),
    [path.basename(skillDir)],
    { file: (relative, data, executable) => void files.push({ path: relative, data, executable }) },
    {
      label: `skill ${name}`,
    },
  );
  files.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  for (const file of files) {
    const entry = new ZipDeflate(`${name}/${file.path}`, { level: 6 });
    entry.mtime = FIXED_MTIME;
    entry.os = 3;
    entry.attrs = (0o100000 | (file.executable ? 0o755 : 0o644)) << 16;
    zip.add(entry);
    for (let offset = 0; ; offset += DEFLATE_STEP) {
      const last = offset + DEFLATE_STEP >= file.data.length;
      entry.push(file.data.subarray(offset, offset + DEFLATE_STEP), last);
      if (last) break;
      await nextTurn();
    }
    await nextTurn();
  }
  zip.end();
  if (failure !== null) throw failure;
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
