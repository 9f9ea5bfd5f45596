import { ToolError } from "@agent-tools/core";

/** Characters of a cell's source shown at most. */
export const NOTEBOOK_SOURCE_CHARS = 1200;

interface NotebookCell {
  cell_type?: string;
  id?: unknown;
  source?: string | string[];
  outputs?: Array<Record<string, unknown>>;
}

/** A rendered window of notebook cells. */
export interface NotebookWindow {
  text: string;
  cellStart: number;
  numCells: number;
  totalCells: number;
  truncated: boolean;
}

const joinText = (value: unknown): string => (Array.isArray(value) ? value.join("") : typeof value === "string" ? value : "");

function summariseOutputs(outputs: NotebookCell["outputs"]): string {
  if (!outputs || outputs.length === 0) return "";
  const parts: string[] = [];
  for (const output of outputs) {
    const type = String(output.output_type ?? "output");
    if (type === "stream") parts.push(`[${String(output.name ?? "stream")}] ${truncate(joinText(output.text), 300)}`);
    else if (type === "error") parts.push(`[error] ${String(output.ename ?? "")}: ${String(output.evalue ?? "")}`);
    else {
      const data = (output.data ?? {}) as Record<string, unknown>;
      const kinds = Object.keys(data);
      const plain = data["text/plain"];
      parts.push(`[${type}] ${kinds.join(", ")}${plain !== undefined ? `: ${truncate(joinText(plain), 300)}` : ""}`);
    }
  }
  return `Outputs (${outputs.length}):\n${parts.join("\n")}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} chars total)`;
}

/** Renders cells `cellStart..cellStart+cellLimit-1` (1-based) of a notebook's JSON text. */
export function renderNotebook(json: string, cellStart: number, cellLimit: number, maxChars: number): NotebookWindow {
  let cells: NotebookCell[];
  try {
    const parsed = JSON.parse(json) as { cells?: NotebookCell[] };
    if (!Array.isArray(parsed.cells)) throw new Error("no cells array");
    cells = parsed.cells;
  } catch (error) {
    throw new ToolError(
      "unsupported_target",
      `The notebook is not valid .ipynb JSON (${(error as Error).message}). Read it as text by copying it to a .json path, or fix the file.`,
    );
  }
  const blocks: string[] = [];
  let used = 0;
  let index = cellStart - 1;
  const end = Math.min(cells.length, cellStart - 1 + cellLimit);
  for (; index < end; index += 1) {
    const cell = cells[index]!;
    const source = joinText(cell.source);
    const outputs = summariseOutputs(cell.outputs);
    // The id (nbformat 4.5 and later) is what NotebookEdit's cell_id takes.
    // Only an id of nbformat's form is shown: a free-form one could forge lines of this listing.
    const id = typeof cell.id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(cell.id) ? ` id=${cell.id}` : "";
    const block = `Cell ${index + 1} [${cell.cell_type ?? "unknown"}]${id}\n${truncate(source, NOTEBOOK_SOURCE_CHARS)}${outputs ? `\n${outputs}` : ""}`;
    if (used + block.length > maxChars && blocks.length > 0) break;
    blocks.push(block);
    used += block.length + 2;
  }
  const numCells = blocks.length;
  return { text: blocks.join("\n\n"), cellStart, numCells, totalCells: cells.length, truncated: cellStart - 1 + numCells < cells.length };
}
