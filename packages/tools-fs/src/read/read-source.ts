/**
 * Read's format dispatch and text reader over a {@link ReadSource}: shared
 * by the local disk's Read and a workspace's.
 */
import path from "node:path";
import { ToolError, type ToolOutput } from "@agent-tools/core";
import { IMAGE_MIME_BY_EXTENSION, extensionOf } from "../shared/image-data.js";
import type { PendingHash } from "../fast-io/hash-worker.js";
import type { FileVersion } from "../shared/file-state.js";
import { type TextWindow, numberLine, readTextWindow } from "../shared/text-window.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { archiveKind } from "./read-archive.js";
import { type ReadSource, UNCHANGED_NOTE, pathDetails, readArchive, readImage, readNotebook, readPdf } from "./read-formats.js";
import type { ReadCall } from "./read-input.js";
import { OFFICE_FORMATS, readOffice } from "./read-office.js";

const LEGACY_FORMATS = new Set(["doc", "rtf", "xls", "ppt"]);

/** Fields every Read result's details carry. */
export interface ReadPathDetails {
  /** Display path (relative, root://, skill://). */
  path: string;
  absolutePath: string;
  mtimeMs?: number;
  contentHash?: string;
  reusedExisting?: boolean;
}

/** Details of a Read result, by `kind`. */
export type ReadDetails =
  | (ReadPathDetails & {
      kind: "read_text";
      startLine: number;
      numLines: number;
      /** Lines in the file; absent when the file is larger than 1 MiB and the window stopped before its end (the lines after it were not counted). */
      totalLines?: number;
      /** Whether `totalLines` is there. */
      totalLinesKnown: boolean;
      truncated: boolean;
      isPartialView: boolean;
    })
  | (ReadPathDetails & { kind: "read_image"; mimeType: string; bytes: number })
  | (ReadPathDetails & { kind: "read_notebook"; cellStart: number; numCells: number; totalCells: number; truncated: boolean })
  | (ReadPathDetails & { kind: "read_pdf"; pageStart: number; numPages: number; totalPages: number; truncated: boolean })
  | (ReadPathDetails & {
      kind: "read_office";
      /** docx, xlsx, xlsm, xltx or xltm. */
      format: string;
      startLine: number;
      numLines: number;
      totalLines: number;
      truncated: boolean;
      isPartialView: boolean;
    })
  | (ReadPathDetails & { kind: "read_archive"; format: string; entries: number; hasMore: boolean });

/**
 * Reads an opened source by its format (image, PDF, notebook, office,
 * archive, text): the local disk's and a workspace's Read share it.
 */
export function readSource(source: ReadSource, size: number, call: ReadCall): Promise<ToolOutput<ReadDetails>> {
  const { input, resolved, context, environment } = call;
  const extension = extensionOf(resolved.absolutePath);
  if (IMAGE_MIME_BY_EXTENSION[extension]) return readImage(source, call, size, extension);
  if (extension === "pdf") return readPdf(source, call);
  if (extension === "ipynb") return readNotebook(source, input, resolved, environment);
  if (OFFICE_FORMATS.has(extension)) return readOffice(source, extension, size, call);
  if (LEGACY_FORMATS.has(extension)) {
    throw new ToolError(
      "unsupported_target",
      `Read cannot extract text from legacy .${extension} files. Convert it first with Bash (for example libreoffice --headless --convert-to txt or pdf), then Read the result.`,
    );
  }
  const archive = archiveKind(path.basename(resolved.absolutePath));
  if (archive) return readArchive(source, archive, resolved, context);
  return readText(source, call);
}

async function readText(source: ReadSource, call: ReadCall) {
  const { input, resolved, context, environment } = call;
  const window = await readTextWindow(source.handle, {
    startLine: input.start_line,
    limit: input.limit,
    signal: context.signal,
    hasher: environment.fastIo.createHasher(),
    countLineFeeds: (bytes) => environment.fastIo.countLineEndings(bytes).lf,
    windowHasher: environment.fastIo.createHasher(),
  });
  if (window.binary) {
    throw new ToolError(
      "binary_file",
      `Read refused: ${resolved.displayPath} is a binary file (it contains NUL bytes), so its bytes are not shown as text. Inspect it with Bash (file, xxd | head) or Read a text file instead.`,
      {
        details: { path: resolved.displayPath, size: window.version.size },
      },
    );
  }
  const total = window.totalLines;
  if (total !== undefined && total > 0 && input.start_line > total) {
    throw new ToolError(
      "invalid_arguments",
      `Read: start_line=${input.start_line} is past the end of ${resolved.displayPath}, which has ${total} lines. Use a start_line between 1 and ${total}.`,
    );
  }
  const key = source.key;
  const { version, pendingHash } = windowVersion(source, window, environment);
  const rangeKey = `text:${window.startLine}:${window.numLines}:${total ?? "?"}`;
  const full = window.startLine === 1 && window.numLines === total && !window.lineCut;
  const read = { kind: "text" as const, rangeKey, totalLines: total, windowHash: window.windowHash, ...version };
  const reusedExisting = environment.state.recordRangeRead(key, read, full, pendingHash);
  const lastLine = window.startLine + window.numLines - 1;
  const isPartialView = total === undefined || window.startLine > 1 || window.numLines < total || window.lineCut;
  const header = [`Read: ${resolved.displayPath}`, linesHeader(window, version.size), `view=${isPartialView ? "partial" : "full"}`].join("\n");
  let body: string;
  if (reusedExisting) body = UNCHANGED_NOTE;
  else if (total === 0) body = "(empty file)";
  else {
    body = window.lines.map((line, index) => numberLine(window.startLine + index, line)).join("\n");
    if (window.lineCut) body += `\n[...truncated: line ${window.startLine} is longer than the 200 KB output cap and was cut...]`;
    if (window.truncated && (total === undefined || lastLine < total)) {
      const why = window.cappedBySize ? " (200 KB output cap reached)" : "";
      const more = total === undefined ? "more lines follow" : `${total - lastLine} more lines`;
      body += `\n[...truncated${why}: ${more}; continue with start_line=${lastLine + 1}...]`;
    }
  }
  return {
    content: `${header}\n\n${body}`,
    details: {
      kind: "read_text" as const,
      ...pathDetails(resolved),
      startLine: window.startLine,
      numLines: window.numLines,
      ...(total === undefined ? {} : { totalLines: total }),
      totalLinesKnown: total !== undefined,
      truncated: window.truncated,
      isPartialView,
      mtimeMs: version.mtimeMs,
      ...(version.contentHash === "" && window.hashDeferred ? {} : { contentHash: version.contentHash }),
      reusedExisting,
    },
  };
}

/**
 * The version a text window records: the hash read with it; for a window
 * read only up to its end, the hash already recorded for that very stat
 * identity, else "" with the hash started off the main thread (or the one
 * already being computed for it).
 */
function windowVersion(source: ReadSource, window: TextWindow, environment: FsToolEnvironment): { version: FileVersion; pendingHash?: PendingHash } {
  const { version } = window;
  if (!window.hashDeferred) return { version };
  const known = environment.state.knownHash(source.key, version);
  if (known !== undefined) return { version: { ...version, contentHash: known } };
  const pendingHash = environment.state.getPendingHash(source.key, version) ?? source.hashLater?.(version, window.hashPrefix);
  return { version, pendingHash };
}

/** The header's `lines=` field: `a-b / total`, or `a-b / ? (size; more lines follow)` when the lines after the window were not counted. */
function linesHeader(window: TextWindow, size: number): string {
  const lastLine = window.startLine + window.numLines - 1;
  if (window.totalLines === 0) return "lines=empty";
  if (window.totalLines !== undefined) return `lines=${window.startLine}-${lastLine} / ${window.totalLines}`;
  const range = window.numLines === 0 ? `${window.startLine}` : `${window.startLine}-${lastLine}`;
  return `lines=${range} / ? (${formatSize(size)}; more lines follow)`;
}

/** A byte size for the header: `812 B`, `4.8 KB`, `5.0 MB`, `1.0 GB`. */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
