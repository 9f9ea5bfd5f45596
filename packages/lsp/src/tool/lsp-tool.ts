/**
 * The `LSP` tool: asks the workspace's language servers about code at a
 * place the model read (definition, references, hover, symbols,
 * diagnostics, implementation, call hierarchy). Read-only: it never
 * changes a file, and every location it returns passed the same checks a
 * Read of that file would (see screen-locations.ts).
 */
import { ToolError, defineTool } from "@agent-tools/core";
import { runLspAction } from "./lsp-actions.js";
import { type LspAction, type LspDetails, type LspInput, lspInputSchema } from "./lsp-tool-input.js";
import type { LspToolEnvironment } from "./lsp-tool-environment.js";

const POSITION_ACTIONS: ReadonlySet<LspAction> = new Set(["definition", "references", "hover", "implementation", "call_hierarchy"]);

/** The description the model reads. */
export function lspDescription(maxResults: number): string {
  return `Asks the language server (TypeScript/JavaScript, Python) about code. Read-only.
- definition, references, hover, implementation, call_hierarchy (incoming and outgoing calls): need path, line and character of the symbol, 1-based as Read shows lines.
- document_symbols: the outline of path. diagnostics: path's current errors and warnings. workspace_symbols: needs query.
- At most ${maxResults} results, as path:line:character: line text; files outside the workspace, gitignored or not readable are left out and counted.`;
}

/** Checks the input's combination of fields for its action (`invalid_arguments` naming what is missing). */
function checkInput(input: LspInput): void {
  if (input.action === "workspace_symbols") {
    if (input.query === undefined || input.query.trim() === "") {
      throw new ToolError("invalid_arguments", 'LSP workspace_symbols needs query: the symbol name or part of it, e.g. query="UserService".');
    }
    return;
  }
  if (input.path === undefined) throw new ToolError("invalid_arguments", `LSP ${input.action} needs path: the file to ask about.`);
  if (POSITION_ACTIONS.has(input.action) && (input.line === undefined || input.character === undefined)) {
    throw new ToolError(
      "invalid_arguments",
      `LSP ${input.action} needs line and character: the 1-based line of the symbol as Read numbers it, and the 1-based column where the symbol's name starts in that line.`,
    );
  }
}

/** Creates the LSP tool over one registry's environment. */
export function createLspTool(environment: LspToolEnvironment) {
  return defineTool<typeof lspInputSchema, LspDetails>({
    name: "LSP",
    description: lspDescription(environment.maxResults),
    inputSchema: lspInputSchema,
    metadata: {
      groupId: "lsp",
      kind: "search",
      isReadOnly: true,
      displayCategory: "search",
      annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false, listedInPlanMode: true },
    },
    effects: "none",
    async execute(input, context) {
      checkInput(input);
      if (environment.unavailable !== undefined) {
        throw new ToolError("unavailable", `LSP cannot run language servers here: ${environment.unavailable}`, { recoverable: false });
      }
      return runLspAction(input, { environment, context });
    },
  });
}
