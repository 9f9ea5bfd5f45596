import { ToolError } from "@agent-tools/core";
import { extractDocx } from "./office-docx.js";
import { extractXlsx } from "./office-xlsx.js";
import { OFFICE_LIMITS, OfficeZip, officeTooLarge } from "./office-zip.js";
import { type ReadSource, UNCHANGED_NOTE, pathDetails, readVersioned } from "./read-formats.js";
import type { ReadCall } from "./read-input.js";
import { READ_MAX_CHARS, numberLine } from "../shared/text-window.js";

/** Office formats whose text Read extracts, by extension. */
export const OFFICE_FORMATS = new Set(["docx", "xlsx", "xlsm", "xltx", "xltm"]);

/** A window of already extracted lines, with the same rules as a text file's. */
export interface LineWindow {
  lines: string[];
  numLines: number;
  truncated: boolean;
  cappedBySize: boolean;
  lineCut: boolean;
}

/** Takes `limit` lines from `startLine` (1-based), stopping before the rendered window passes `maxChars`. */
export function windowLines(all: readonly string[], startLine: number, limit: number, maxChars = READ_MAX_CHARS): LineWindow {
  const lines: string[] = [];
  let used = 0;
  let cappedBySize = false;
  let lineCut = false;
  const end = Math.min(all.length, startLine - 1 + limit);
  for (let index = startLine - 1; index < end; index += 1) {
    const line = all[index]!;
    const rendered = 8 + line.length;
    if (used + rendered > maxChars) {
      cappedBySize = true;
      if (lines.length === 0) {
        lines.push(line.slice(0, Math.max(0, maxChars - 8)));
        lineCut = true;
      }
      break;
    }
    lines.push(line);
    used += rendered;
  }
  const lastShown = startLine + lines.length - 1;
  return { lines, numLines: lines.length, truncated: lastShown < all.length || lineCut, cappedBySize, lineCut };
}

/**
 * Read of a Word document or an Excel workbook: the text is extracted
 * (see office-docx.ts and office-xlsx.ts) under the caps of
 * {@link OFFICE_LIMITS}, then shown like a text file's lines.
 */
export async function readOffice(source: ReadSource, format: string, size: number, call: ReadCall) {
  const { input, resolved, context, environment } = call;
  const label = { display: resolved.displayPath, format, signal: context.signal };
  if (size > OFFICE_LIMITS.maxFileBytes) {
    throw officeTooLarge(label, `is ${size} bytes; Read extracts text from Office files of up to ${OFFICE_LIMITS.maxFileBytes / (1024 * 1024)} MB`, {
      size,
      limit: OFFICE_LIMITS.maxFileBytes,
    });
  }
  const { bytes, version } = await readVersioned(source);
  const zip = await OfficeZip.open(bytes, label);
  let all: string[];
  try {
    all = format === "docx" ? await extractDocx(zip) : await extractXlsx(zip);
  } finally {
    zip.close();
  }
  const totalLines = all.length;
  if (totalLines > 0 && input.start_line > totalLines) {
    throw new ToolError(
      "invalid_arguments",
      `Read: start_line=${input.start_line} is past the end of ${resolved.displayPath}'s extracted text, which has ${totalLines} lines. Use a start_line between 1 and ${totalLines}.`,
    );
  }
  const window = windowLines(all, input.start_line, input.limit);
  const rangeKey = `office:${input.start_line}:${window.numLines}:${totalLines}`;
  const reusedExisting = environment.state.recordRangeRead(source.key, { kind: "office", rangeKey, totalLines, ...version });
  const lastLine = input.start_line + window.numLines - 1;
  const isPartialView = input.start_line > 1 || window.numLines < totalLines || window.lineCut;
  const header = [
    `Read: ${resolved.displayPath}`,
    `format=${format} (extracted text)`,
    totalLines === 0 ? "lines=empty" : `lines=${input.start_line}-${lastLine} / ${totalLines}`,
    `view=${isPartialView ? "partial" : "full"}`,
  ].join("\n");
  let body: string;
  if (reusedExisting) body = UNCHANGED_NOTE;
  else if (totalLines === 0) body = "(no text)";
  else {
    body = window.lines.map((line, index) => numberLine(input.start_line + index, line)).join("\n");
    if (window.lineCut) body += `\n[...truncated: line ${input.start_line} is longer than the 200 KB output cap and was cut...]`;
    if (lastLine < totalLines) {
      const why = window.cappedBySize ? " (200 KB output cap reached)" : "";
      body += `\n[...truncated${why}: ${totalLines - lastLine} more lines; continue with start_line=${lastLine + 1}...]`;
    }
  }
  return {
    content: `${header}\n\n${body}`,
    details: {
      kind: "read_office" as const,
      ...pathDetails(resolved),
      format,
      startLine: input.start_line,
      numLines: window.numLines,
      totalLines,
      truncated: window.truncated,
      isPartialView,
      mtimeMs: version.mtimeMs,
      contentHash: version.contentHash,
      reusedExisting,
    },
  };
}
