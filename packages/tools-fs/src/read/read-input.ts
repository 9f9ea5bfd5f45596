/**
 * Read's input schema and input type: a leaf module, so the format readers
 * (read-formats.ts) and the tool (read-tool.ts) share them without an import circle.
 */
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import { z } from "zod";
import type { FsToolEnvironment } from "../shared/tool-environment.js";

/** Read's input schema. */
export const readInputSchema = z.object({
  path: z
    .string()
    .describe("Workspace-relative, root://<alias>/..., skill://<skill>/..., or absolute inside the workspace (or an uploaded file's absolute path)."),
  start_line: z.number().int().min(1).default(1).describe("1-based first line."),
  limit: z.number().int().min(1).default(200).describe("Lines (default 200)."),
  page_start: z.number().int().min(1).default(1).describe("PDF: 1-based first page."),
  page_limit: z.number().int().min(1).default(5).describe("PDF pages (default 5)."),
  cell_start: z.number().int().min(1).default(1).describe("Notebook: 1-based first cell."),
  cell_limit: z.number().int().min(1).default(20).describe("Notebook cells (default 20)."),
});

/** Read's input after defaults. */
export type ReadInput = z.output<typeof readInputSchema>;

/** One Read call, resolved: what every format reader gets. */
export interface ReadCall {
  input: ReadInput;
  resolved: ResolvedPath;
  context: ToolContext;
  environment: FsToolEnvironment;
}
