/**
 * A notebook file as NotebookEdit sees it: parsed (to check it is an
 * nbformat 4 notebook and to know each cell), scanned with positions (to
 * splice the bytes of one cell), and its formatting style.
 */
import { ToolError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import { type JsonNode, memberOf, scanJsonPositions } from "./json-positions.js";
import { type NotebookStyle, detectNotebookStyle } from "./notebook-style.js";

/** One cell as parsed. */
export type NotebookCell = Readonly<Record<string, unknown>>;

/** A parsed, position-scanned notebook. */
export interface ParsedNotebook {
  readonly bytes: Uint8Array;
  readonly cells: readonly NotebookCell[];
  /** The `cells` array with its elements (each cell's members recorded). */
  readonly cellsNode: JsonNode;
  readonly style: NotebookStyle;
  readonly nbformatMinor: number;
}

/** The cell's source as one string (a list of lines joined). */
export function cellSource(cell: NotebookCell): string {
  const source = cell.source;
  return Array.isArray(source) ? source.join("") : typeof source === "string" ? source : "";
}

/** The cell's id, when it has one. */
export function cellIdOf(cell: NotebookCell): string | undefined {
  return typeof cell.id === "string" ? cell.id : undefined;
}

function notANotebook(displayPath: string, reason: string): ToolError {
  return new ToolError(
    "unsupported_target",
    `NotebookEdit refused: ${displayPath} is not a Jupyter notebook NotebookEdit can edit (${reason}). Use Edit or Write for other files.`,
    {
      details: { path: displayPath },
    },
  );
}

/** Parses and scans the notebook `bytes`; refuses (`not_utf8`, `unsupported_target`) anything but an nbformat 4 notebook. */
export function parseNotebook(bytes: Uint8Array, displayPath: string): ParsedNotebook {
  let text: string;
  try {
    // The decoder drops a leading BOM, which JSON.parse would refuse.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ToolError("not_utf8", `NotebookEdit refused: ${displayPath} is not valid UTF-8, so it is not a notebook Jupyter wrote.`, {
      details: { path: displayPath },
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw notANotebook(displayPath, `not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw notANotebook(displayPath, "its JSON is not an object");
  const notebook = parsed as Record<string, unknown>;
  if (notebook.nbformat !== 4) throw notANotebook(displayPath, `nbformat ${JSON.stringify(notebook.nbformat) ?? "missing"}; NotebookEdit edits nbformat 4`);
  const cells = notebook.cells;
  if (!Array.isArray(cells) || !cells.every((cell) => typeof cell === "object" && cell !== null && !Array.isArray(cell))) {
    throw notANotebook(displayPath, 'no list of cell objects under "cells"');
  }
  const top = scanJsonPositions(bytes, 3);
  const cellsNode = memberOf(top, "cells")?.value;
  if (!cellsNode?.elements || cellsNode.elements.length !== cells.length) throw notANotebook(displayPath, "its cells could not be located in the file");
  const minor = notebook.nbformat_minor;
  return { bytes, cells: cells as NotebookCell[], cellsNode, style: detectNotebookStyle(bytes, top), nbformatMinor: typeof minor === "number" ? minor : 0 };
}

/** Where a call points: a cell by id or by 1-based index. */
export interface CellReference {
  readonly cell_id?: string | undefined;
  readonly cell_index?: number | undefined;
}

/**
 * The 0-based index of the cell `reference` names (exactly one of id and
 * index given). Refuses with `not_found` (naming the closest ids and the
 * cells around) or `invalid_arguments` (an index out of range).
 */
export function findCell(notebook: ParsedNotebook, reference: CellReference, displayPath: string): number {
  const { cells } = notebook;
  if (reference.cell_id !== undefined) {
    const index = cells.findIndex((cell) => cellIdOf(cell) === reference.cell_id);
    if (index !== -1) return index;
    throw cellNotFound(notebook, reference.cell_id, displayPath);
  }
  const position = reference.cell_index!;
  if (position < 1 || position > cells.length) {
    throw new ToolError(
      "invalid_arguments",
      `NotebookEdit: cell_index=${position} is out of range: ${displayPath} has ${cells.length} cells (1-${cells.length}, as Read numbers them).`,
      { details: { path: displayPath, totalCells: cells.length } },
    );
  }
  return position - 1;
}

/** `not_found` for an id no cell has: the closest id, and the ids of the cells (the first 20). */
function cellNotFound(notebook: ParsedNotebook, id: string, displayPath: string): ToolError {
  const ids = notebook.cells.map((cell, index) => ({ index: index + 1, id: cellIdOf(cell) })).filter((entry) => entry.id !== undefined);
  const closest = closestName(
    id,
    ids.map((entry) => entry.id!),
  );
  const listed = ids
    .slice(0, 20)
    .map((entry) => `${entry.index}=${entry.id}`)
    .join(", ");
  const hint =
    ids.length === 0
      ? "Its cells have no ids (nbformat < 4.5): name the cell by cell_index, the number Read shows."
      : `${closest === undefined ? "" : `Did you mean "${closest}"? `}Cell ids: ${listed}${ids.length > 20 ? `, ... (${ids.length} in all)` : ""}.`;
  return new ToolError("not_found", `NotebookEdit: no cell of ${displayPath} has id "${id}". ${hint}`, {
    details: { path: displayPath, cellId: id, ...(closest === undefined ? {} : { closest }) },
  });
}

/** Refuses a path that is not a .ipynb file (Read shows cells only for those). */
export function assertNotebookPath(displayPath: string): void {
  if (/\.ipynb$/i.test(displayPath)) return;
  throw new ToolError("unsupported_target", `NotebookEdit refused: ${displayPath} is not a .ipynb notebook. Use Edit for other files.`, {
    details: { path: displayPath },
  });
}
