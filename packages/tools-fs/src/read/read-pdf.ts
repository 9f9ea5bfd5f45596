import { ToolError } from "@agent-tools/core";
import { isModuleNotFoundError } from "@agent-tools/core/internal";

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

/** The optional peer behind PDF reading, and the version the tests run on. */
export const PDFJS_PACKAGE = { name: "pdfjs-dist", version: "4.10.38" } as const;

let pdfjs: Promise<PdfJsModule> | undefined;

/** Which pages of a PDF to extract, and how much text. */
export interface PdfPageWindow {
  /** First page, 1-based. */
  pageStart: number;
  /** Pages to extract at most. */
  pageLimit: number;
  /** Characters to extract at most. */
  maxChars: number;
  signal?: AbortSignal;
}

/**
 * Imports pdfjs-dist (an optional peer dependency) on the first PDF read.
 * When it is not installed the read fails with a ToolError naming the
 * package; the failure is not remembered, so installing it fixes the next read.
 */
export function loadPdfJs(load: () => Promise<unknown> = () => import("pdfjs-dist/legacy/build/pdf.mjs")): Promise<PdfJsModule> {
  // The legacy build runs on Node 20 without a DOM; its worker runs in-process.
  pdfjs ??= load().then(
    (module) => module as PdfJsModule,
    (error: unknown) => {
      pdfjs = undefined;
      if (!isModuleNotFoundError(error, PDFJS_PACKAGE.name)) throw error;
      throw new ToolError(
        "unsupported_target",
        `PDF reading needs the optional package ${PDFJS_PACKAGE.name}: npm install ${PDFJS_PACKAGE.name}@${PDFJS_PACKAGE.version}`,
        { details: { package: PDFJS_PACKAGE.name, version: PDFJS_PACKAGE.version }, recoverable: false, cause: error },
      );
    },
  );
  return pdfjs;
}

/**
 * Extracts the text of pages `pageStart..pageStart+pageLimit-1` (1-based),
 * stopping early when the text would pass `maxChars`.
 */
export async function readPdfPages(bytes: Uint8Array, window: PdfPageWindow): Promise<PdfPages> {
  const { pageStart, pageLimit, maxChars, signal } = window;
  const library = await loadPdfJs();
  const task = library.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  let document: PdfDocument;
  try {
    document = await task.promise;
  } catch (error) {
    throw new ToolError(
      "unsupported_target",
      `Read could not parse this PDF (${(error as Error).message}). It may be encrypted or damaged; try Bash (pdftotext) instead.`,
    );
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
