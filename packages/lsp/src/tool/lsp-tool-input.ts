/** The LSP tool's input schema, its actions and the details of its answers (a leaf module: the tool and its actions import it). */
import { z } from "zod";
import type { LeftOut } from "./screen-locations.js";

/** The actions of the LSP tool. */
export const LSP_ACTIONS = [
  "definition",
  "references",
  "hover",
  "document_symbols",
  "workspace_symbols",
  "diagnostics",
  "implementation",
  "call_hierarchy",
] as const;

/** One action of the LSP tool. */
export type LspAction = (typeof LSP_ACTIONS)[number];

/** The LSP tool's input schema. */
export const lspInputSchema = z.object({
  action: z.enum(LSP_ACTIONS),
  path: z
    .string()
    .optional()
    .describe("The file (all actions but workspace_symbols): workspace-relative, root://<alias>/..., or absolute inside the workspace."),
  line: z.number().int().min(1).optional().describe("1-based, as Read numbers lines."),
  character: z.number().int().min(1).optional().describe("1-based column of the symbol in that line."),
  query: z.string().max(200).optional().describe("workspace_symbols: the name or part of it."),
});

/** The LSP tool's input. */
export type LspInput = z.output<typeof lspInputSchema>;

/** Details of an LSP result. */
export interface LspDetails {
  kind: "lsp";
  action: LspAction;
  /** The file asked about, as displayed (absent for workspace_symbols without a path). */
  path?: string;
  /** The language server that answered. */
  serverId?: string;
  /** Locations, symbols or diagnostics found (after screening, before the cap). */
  total: number;
  /** What was listed: locations (`path`, 1-based `line`, `character`, and for symbols `label`). */
  locations?: Array<{ path: string; line: number; character: number; label?: string }>;
  /** document_symbols: the outline entries listed. */
  symbols?: Array<{ name: string; kind: string; line: number; endLine: number; depth: number }>;
  /** diagnostics: the problems listed (errors first). */
  diagnostics?: Array<{ line: number; character: number; severity: string; message: string; code?: string | number; source?: string }>;
  /** diagnostics: `pending` when the server had not published yet. */
  status?: "ready" | "pending";
  /** What the screening and the cap left out. */
  leftOut?: LeftOut & { overLimit: number };
}
