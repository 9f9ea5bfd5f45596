import path from "node:path";
import { ToolError, defineTool, type ResolvedPath, type ToolContext, type ToolOutput } from "@agent-tools/core";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import { IMAGE_MIME_BY_EXTENSION, extensionOf } from "../shared/image-data.js";
import { anchorTarget, openTarget } from "../file-engine/anchored-target.js";
import { assertRegularFile, descriptorPath } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { archiveKind } from "./read-archive.js";
import { OFFICE_FORMATS, readOffice } from "./read-office.js";
import { type ReadSource, UNCHANGED_NOTE, pathDetails, readArchive, readImage, readNotebook, readPdf } from "./read-formats.js";
import { numberLine, readTextWindow } from "../shared/text-window.js";
import { type ReadCall, type ReadInput, readInputSchema } from "./read-input.js";

export { readInputSchema };
export type { ReadInput };

const LEGACY_FORMATS = new Set(["doc", "rtf", "xls", "ppt"]);

const DESCRIPTION = `Reads a file. Text comes as numbered lines ("     1\\tcode"): \`limit\` lines from \`start_line\`, at most 200 KB; when more remain the result says so: continue with start_line=<next line>. Reading an unchanged range again returns a short "unchanged" note.
Images (png, jpg, jpeg, gif, webp, avif, bmp, svg, ico; up to 25 MB) are returned as images, PDFs as text by page, .docx and .xlsx/.xlsm/.xltx/.xltm as extracted text paged like text (a section per sheet, cells tab-separated), notebooks (.ipynb) by cell, archives (zip, jar, tar, tar.gz, tgz) as a listing of the first 200 entries. Binary files are refused (inspect them with Bash, e.g. xxd).
Read a file before you Write or Edit it.`;

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
  | (ReadPathDetails & { kind: "read_text"; startLine: number; numLines: number; totalLines: number; truncated: boolean; isPartialView: boolean })
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

/** Creates the Read tool for one bundle. */
export function createReadTool(environment: FsToolEnvironment) {
  return defineTool<typeof readInputSchema, ReadDetails>({
    name: "Read",
    description: DESCRIPTION,
    inputSchema: readInputSchema,
    metadata: {
      groupId: "fs",
      kind: "read",
      isReadOnly: true,
      displayCategory: "file",
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
    },
    async execute(input, context) {
      return onResolvedPath({ toolName: "Read", path: input.path, intent: "read", context }, (resolved) => readResolved(input, resolved, context, environment));
    },
  });
}

async function readResolved(input: ReadInput, resolved: ResolvedPath, context: ToolContext, environment: FsToolEnvironment): Promise<ToolOutput<ReadDetails>> {
  if (!resolved.exists) throw notFoundError("Read", resolved, context);
  const target = anchorTarget(resolved, { toolName: "Read", followLeaf: true });
  try {
    if (!target.stats) throw notFoundError("Read", resolved, context);
    if (target.stats.isDirectory()) {
      throw new ToolError(
        "not_a_file",
        `Read failed: ${resolved.displayPath} is a directory. Use List path="${resolved.displayPath}" to see its entries, then Read a file inside it.`,
      );
    }
    assertRegularFile("Read", resolved.displayPath, target.stats);
    const { handle, stats } = await openTarget("Read", resolved.displayPath, target);
    try {
      const source: ReadSource = {
        handle,
        key: target.canonicalPath,
        path: target.directory.anchored ? descriptorPath(handle) : target.entryPath,
        hash: environment.fastIo.contentHash,
      };
      return await readSource(source, stats.size, { input, resolved, context, environment });
    } finally {
      await handle.close();
    }
  } finally {
    target.close();
  }
}

function readSource(source: ReadSource, size: number, call: ReadCall): Promise<ToolOutput<ReadDetails>> {
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
  if (window.totalLines > 0 && input.start_line > window.totalLines) {
    throw new ToolError(
      "invalid_arguments",
      `Read: start_line=${input.start_line} is past the end of ${resolved.displayPath}, which has ${window.totalLines} lines. Use a start_line between 1 and ${window.totalLines}.`,
    );
  }
  const key = source.key;
  const rangeKey = `text:${window.startLine}:${window.numLines}:${window.totalLines}`;
  const full = window.startLine === 1 && window.numLines === window.totalLines && !window.lineCut;
  const reusedExisting = environment.state.recordRangeRead(key, { kind: "text", rangeKey, totalLines: window.totalLines, ...window.version }, full);
  const lastLine = window.startLine + window.numLines - 1;
  const isPartialView = window.startLine > 1 || window.numLines < window.totalLines || window.lineCut;
  const header = [
    `Read: ${resolved.displayPath}`,
    window.totalLines === 0 ? "lines=empty" : `lines=${window.startLine}-${lastLine} / ${window.totalLines}`,
    `view=${isPartialView ? "partial" : "full"}`,
  ].join("\n");
  let body: string;
  if (reusedExisting) body = UNCHANGED_NOTE;
  else if (window.totalLines === 0) body = "(empty file)";
  else {
    body = window.lines.map((line, index) => numberLine(window.startLine + index, line)).join("\n");
    if (window.lineCut) body += `\n[...truncated: line ${window.startLine} is longer than the 200 KB output cap and was cut...]`;
    if (window.truncated && lastLine < window.totalLines) {
      const why = window.cappedBySize ? " (200 KB output cap reached)" : "";
      body += `\n[...truncated${why}: ${window.totalLines - lastLine} more lines; continue with start_line=${lastLine + 1}...]`;
    }
  }
  return {
    content: `${header}\n\n${body}`,
    details: {
      kind: "read_text" as const,
      ...pathDetails(resolved),
      startLine: window.startLine,
      numLines: window.numLines,
      totalLines: window.totalLines,
      truncated: window.truncated,
      isPartialView,
      mtimeMs: window.version.mtimeMs,
      contentHash: window.version.contentHash,
      reusedExisting,
    },
  };
}
