/**
 * `@agent-tools/tools-fs/pdf`: the PDF text reader behind Read, for other
 * packages' hosts to reuse (the SDK hands it to WebFetch). Needs the
 * optional peer pdfjs-dist; without it the read fails with a `ToolError`
 * naming the package.
 *
 * @packageDocumentation
 */
export { readPdfPages, PDFJS_PACKAGE } from "./read/read-pdf.js";
export type { PdfPages, PdfPageWindow } from "./read/read-pdf.js";
