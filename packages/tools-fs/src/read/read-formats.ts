import { fstatSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { ToolError, type ResolvedPath, type ToolContent, type ToolContext } from "@agent-tools/core";
import { type FileVersion, statIdentity } from "../shared/file-state.js";
import { IMAGE_MIME_BY_EXTENSION, MAX_IMAGE_BYTES, sniffImageMime } from "../shared/image-data.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import type { HashPrefix, PendingHash } from "../fast-io/hash-worker.js";
import { type archiveKind, listTar, listZip, renderListing } from "./read-archive.js";
import { renderNotebook } from "./read-notebook.js";
import { readPdfPages } from "./read-pdf.js";
import type { ReadCall, ReadInput } from "./read-input.js";
import { READ_MAX_CHARS, type TextWindowHandle } from "../shared/text-window.js";

/** Read's note for a range the model has already seen unchanged. */
export const UNCHANGED_NOTE = "This range is unchanged since the previous Read. Reuse the earlier content.";

/** Path fields of every Read result's details. */
export interface PathDetails {
  path: string;
  absolutePath: string;
}

/** The path fields of a Read result's details for `resolved`. */
export function pathDetails(resolved: ResolvedPath): PathDetails {
  return { path: resolved.displayPath, absolutePath: resolved.absolutePath };
}

/**
 * The file a Read works on: opened as a regular file through its pinned
 * directory (local disk), or a file of a workspace read through its port.
 */
export interface ReadSource {
  readonly handle: TextWindowHandle;
  /** The file-state key (canonical path). */
  readonly key: string;
  /** A path that reaches the opened file itself (for libraries that open by path; local disk only). */
  readonly path: string;
  /** FNV-1a 64 of bytes on the bundle's hasher. */
  readonly hash: (bytes: Uint8Array) => string;
  /** The whole file's bytes and the version they are (see {@link readVersionedHandle}). */
  readonly whole: () => Promise<{ bytes: Buffer; version: FileVersion }>;
  /**
   * Starts hashing the opened file off the main thread for a text window
   * read only up to its end; the hash settles as "" unless the file is still
   * `version` (its identity) once hashed; `prefix` is the state after the
   * bytes the window read hashed already. Absent where a source cannot (a
   * workspace file is always read whole); undefined when the bundle hashes
   * too many files already (the version then stays without a hash).
   */
  readonly hashLater?: (version: FileVersion, prefix?: HashPrefix) => PendingHash | undefined;
}

/** A whole file's bytes and the version they are (times and inode after the read, size, FNV-1a 64). */
export function readVersioned(source: ReadSource): Promise<{ bytes: Buffer; version: FileVersion }> {
  return source.whole();
}

/** The whole bytes of an opened local file and the version they are (times and inode after the read, size, FNV-1a 64). */
export async function readVersionedHandle(handle: FileHandle, hash: (bytes: Uint8Array) => string): Promise<{ bytes: Buffer; version: FileVersion }> {
  const bytes = await handle.readFile();
  const after = fstatSync(handle.fd);
  return { bytes, version: { ...statIdentity(after), size: bytes.length, contentHash: hash(bytes) } };
}

/** Read of an image file (returned as image content). */
export async function readImage(source: ReadSource, call: ReadCall, size: number, extension: string) {
  const { resolved, environment } = call;
  if (size > MAX_IMAGE_BYTES) {
    throw new ToolError(
      "too_large",
      `Read failed: ${resolved.displayPath} is ${size} bytes; images are returned up to 25 MB. Resize it first (for example with Bash: convert in.png -resize 50% out.png).`,
      { details: { size } },
    );
  }
  const { bytes, version } = await readVersioned(source);
  const mimeType = sniffImageMime(bytes) ?? IMAGE_MIME_BY_EXTENSION[extension]!;
  const reusedExisting = environment.state.recordRangeRead(source.key, { kind: "image", rangeKey: "image", ...version });
  const header = `Read: ${resolved.displayPath}\nimage=${mimeType}, ${bytes.length} bytes`;
  const content: ToolContent[] = reusedExisting
    ? [{ type: "text", text: `${header}\n\n${UNCHANGED_NOTE}` }]
    : [
        { type: "text", text: header },
        { type: "image", data: bytes.toString("base64"), mimeType },
      ];
  return {
    content,
    details: {
      kind: "read_image" as const,
      ...pathDetails(resolved),
      mimeType,
      bytes: bytes.length,
      mtimeMs: version.mtimeMs,
      contentHash: version.contentHash,
      reusedExisting,
    },
  };
}

/** Read of a Jupyter notebook, by cells. */
export async function readNotebook(source: ReadSource, input: ReadInput, resolved: ResolvedPath, environment: FsToolEnvironment) {
  const { bytes, version } = await readVersioned(source);
  const window = renderNotebook(bytes.toString("utf8"), input.cell_start, input.cell_limit, READ_MAX_CHARS);
  if (window.totalCells > 0 && input.cell_start > window.totalCells) {
    throw new ToolError(
      "invalid_arguments",
      `Read: cell_start=${input.cell_start} is past the end of ${resolved.displayPath}, which has ${window.totalCells} cells.`,
    );
  }
  const key = source.key;
  const rangeKey = `notebook:${window.cellStart}:${window.numCells}:${window.totalCells}`;
  const reusedExisting = environment.state.recordRangeRead(key, { kind: "notebook", rangeKey, ...version });
  const last = window.cellStart + window.numCells - 1;
  const header = `Read: ${resolved.displayPath}\ncells=${window.numCells === 0 ? "empty" : `${window.cellStart}-${last}`} / ${window.totalCells}`;
  let body = reusedExisting ? UNCHANGED_NOTE : window.text || "(no cells)";
  if (!reusedExisting && window.truncated) body += `\n\n[...truncated: ${window.totalCells - last} more cells; continue with cell_start=${last + 1}...]`;
  return {
    content: `${header}\n\n${body}`,
    details: {
      kind: "read_notebook" as const,
      ...pathDetails(resolved),
      cellStart: window.cellStart,
      numCells: window.numCells,
      totalCells: window.totalCells,
      truncated: window.truncated,
      mtimeMs: version.mtimeMs,
      contentHash: version.contentHash,
      reusedExisting,
    },
  };
}

/** Read of a PDF, text by pages. */
export async function readPdf(source: ReadSource, call: ReadCall) {
  const { input, resolved, context, environment } = call;
  const { bytes, version } = await readVersioned(source);
  const pages = await readPdfPages(bytes, { pageStart: input.page_start, pageLimit: input.page_limit, maxChars: READ_MAX_CHARS, signal: context.signal });
  if (pages.totalPages > 0 && input.page_start > pages.totalPages) {
    throw new ToolError(
      "invalid_arguments",
      `Read: page_start=${input.page_start} is past the end of ${resolved.displayPath}, which has ${pages.totalPages} pages.`,
    );
  }
  const key = source.key;
  const rangeKey = `pdf:${input.page_start}:${pages.numPages}:${pages.totalPages}`;
  const reusedExisting = environment.state.recordRangeRead(key, { kind: "pdf", rangeKey, ...version });
  const last = input.page_start + pages.numPages - 1;
  const header = `Read: ${resolved.displayPath}\npages=${pages.numPages === 0 ? "empty" : `${input.page_start}-${last}`} / ${pages.totalPages}`;
  let body = reusedExisting ? UNCHANGED_NOTE : pages.text;
  if (!reusedExisting && last < pages.totalPages) body += `\n\n[...truncated: ${pages.totalPages - last} more pages; continue with page_start=${last + 1}...]`;
  return {
    content: `${header}\n\n${body}`,
    details: {
      kind: "read_pdf" as const,
      ...pathDetails(resolved),
      pageStart: input.page_start,
      numPages: pages.numPages,
      totalPages: pages.totalPages,
      truncated: last < pages.totalPages,
      mtimeMs: version.mtimeMs,
      contentHash: version.contentHash,
      reusedExisting,
    },
  };
}

/** Read of an archive: a listing of its entries. */
export async function readArchive(source: ReadSource, kind: NonNullable<ReturnType<typeof archiveKind>>, resolved: ResolvedPath, context: ToolContext) {
  if (kind === "unsupported" || kind === "gz") {
    const name = path.basename(resolved.absolutePath);
    throw new ToolError(
      "unsupported_target",
      `Read lists zip, jar, tar, tar.gz and tgz archives; ${name} is another compressed format. Inspect it with Bash (for example: 7z l, unrar l, tar -tJf, or gzip -l).`,
    );
  }
  const listing = kind === "zip" ? await listZip(source.path) : await listTar(source.path, kind === "tar.gz", undefined, context.signal);
  const header = `Read: ${resolved.displayPath}\narchive=${listing.format}, entries shown=${listing.entries.length}${listing.hasMore ? "+" : ""}`;
  return {
    content: `${header}\n\n${renderListing(listing)}`,
    details: { kind: "read_archive" as const, ...pathDetails(resolved), format: listing.format, entries: listing.entries.length, hasMore: listing.hasMore },
  };
}
