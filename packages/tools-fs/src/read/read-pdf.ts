import { ToolError } from "@agent-tools/core";

/** Text of a window of PDF pages. */
export interface PdfPages {
  text: string;
  numPages: number;
  totalPages: number;
}

interface PdfTextItem {
  str?: string;
  hasEOL?: boolean;
}

interface PdfJsModule {
  getDocument(options: Record<string, unknown>): { promise: Promise<PdfDocument>; destroy(): Promise<void> };
}

interface PdfDocument {
  numPages: number;
  getPage(pageNumber: number): Promise<{ getTextContent(): Promise<{ items: PdfTextItem[] }>; cleanup(): void }>;
  destroy(): Promise<void>;
}

let pdfjs: Promise<PdfJsModule> | undefined;

function loadPdfJs(): Promise<PdfJsModule> {
  // The legacy build runs on Node 20 without a DOM; its worker runs in-process.
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs") as unknown as Promise<PdfJsModule>;
  return pdfjs;
}

/**
 * Extracts the text of pages `pageStart..pageStart+pageLimit-1` (1-based),
 * stopping early when the text would pass `maxChars`.
 */
export async function readPdfPages(bytes: Uint8Array, pageStart: number, pageLimit: number, maxChars: number, signal?: AbortSignal): Promise<PdfPages> {
  const library = await loadPdfJs();
  const task = library.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  let document: PdfDocument;
  try {
    document = await task.promise;
  } catch (error) {
    throw new ToolError("unsupported_target", `Read could not parse this PDF (${(error as Error).message}). It may be encrypted or damaged; try Bash (pdftotext) instead.`);
  }
  try {
    const blocks: string[] = [];
    let used = 0;
    const end = Math.min(document.numPages, pageStart + pageLimit - 1);
    for (let pageNumber = pageStart; pageNumber <= end; pageNumber += 1) {
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      const page = await document.getPage(pageNumber);
      const content = await page.getTextContent();
      page.cleanup();
      let text = "";
      for (const item of content.items) {
        if (typeof item.str === "string") text += item.str;
        if (item.hasEOL) text += "\n";
      }
      const block = `--- Page ${pageNumber} ---\n${text.trim() || "(no extractable text on this page)"}`;
      if (used + block.length > maxChars && blocks.length > 0) break;
      blocks.push(used + block.length > maxChars ? block.slice(0, maxChars - used) : block);
      used += block.length + 2;
    }
    return { text: blocks.join("\n\n"), numPages: blocks.length, totalPages: document.numPages };
  } finally {
    await document.destroy();
  }
}
