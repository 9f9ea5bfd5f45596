/**
 * Read's input schema and input type: a leaf module, so the format readers
 * (read-formats.ts) and the tool (read-tool.ts) share them without an import circle.
 */
import { z } from "zod";

/** Read's input schema. */
export const readInputSchema = z.object({
  path: z
    .string()
    .describe("File to read: workspace-relative (src/app.ts), root://<alias>/..., skill://<skill>/..., or an absolute path inside the workspace."),
  start_line: z.number().int().min(1).default(1).describe("Text files: 1-based first line to show (default 1)."),
  limit: z.number().int().min(1).default(200).describe("Text files: how many lines to show (default 200)."),
  page_start: z.number().int().min(1).default(1).describe("PDF files: 1-based first page (default 1)."),
  page_limit: z.number().int().min(1).default(5).describe("PDF files: how many pages (default 5)."),
  cell_start: z.number().int().min(1).default(1).describe("Notebooks (.ipynb): 1-based first cell (default 1)."),
  cell_limit: z.number().int().min(1).default(20).describe("Notebooks (.ipynb): how many cells (default 20)."),
});

/** Read's input after defaults. */
export type ReadInput = z.output<typeof readInputSchema>;
