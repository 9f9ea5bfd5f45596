/** NotebookEdit's answer for a committed edit, the version check before it, and the line count of the new bytes: the same on the local disk and on a workspace. */
import type { EditDiagnosticsDetails } from "@agent-tools/core/diagnostics";
import { ToolError, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import type { EditTarget } from "../edit/edit-plan.js";
import type { LineEndingCounts } from "../shared/line-ending-count.js";
import { linesFromLineFeeds } from "../shared/line-ending-count.js";
import type { NotebookEditInput, PlannedNotebookEdit } from "./notebook-plan.js";

/** Details of a NotebookEdit result. */
export interface NotebookEditDetails {
  kind: "notebook_edit";
  path: string;
  absolutePath: string;
  editMode: "replace" | "insert" | "delete";
  /** 1-based number of the replaced, inserted or deleted cell (as Read numbers cells). */
  cellNumber: number;
  /** The cell's id (nbformat 4.5 and later); null when it has none. */
  cellId: string | null;
  /** The cell's type after the edit (before it, for a deletion). */
  cellType: string;
  /** Cells in the notebook after the edit. */
  totalCells: number;
  /** A replaced code cell's outputs and execution count were cleared. */
  outputsCleared: boolean;
  mtimeMs: number;
  /** FNV-1a 64 of the new content; absent when it is hashed off the main thread after the write. */
  contentHash?: string;
  totalLines: number;
  /** What the change introduced, when a diagnostics provider (a language server plugin) answered. */
  diagnostics?: EditDiagnosticsDetails;
}

/**
 * The checks before a change: the notebook was read in this registry (by
 * Read, or written by an earlier edit) and is still that version, and the
 * call was not aborted. Refuses with `requires_full_read`, `stale_file` or
 * `cancelled`.
 */
export async function assertNotebookCurrent<S>(file: EditTarget<S>, current: S, bytes: Uint8Array, context: ToolContext): Promise<void> {
  const { fullText, latest } = file.recorded();
  const expected = fullText ?? latest;
  if (!expected) {
    throw new ToolError(
      "requires_full_read",
      `NotebookEdit refused: Read ${file.displayPath} first, so you see its cells, their numbers and ids as they are now; then retry NotebookEdit.`,
      { details: { path: file.displayPath } },
    );
  }
  await file.assertUnchanged(expected, current, () => bytes);
  if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it changed anything.");
}

/** The new content's line count (LF-terminated lines, a last unterminated one counted). */
export function countPieceLines(pieces: readonly Buffer[], countLineEndings: (bytes: Uint8Array) => LineEndingCounts): number {
  let feeds = 0;
  let size = 0;
  for (const piece of pieces) {
    feeds += countLineEndings(piece).lf;
    size += piece.length;
  }
  const last = pieces[pieces.length - 1];
  return linesFromLineFeeds(feeds, size, last ? last[last.length - 1]! : -1);
}

const VERBS = { replace: "replaced", insert: "inserted", delete: "deleted" } as const;

/** The tool result of a committed NotebookEdit. */
export function notebookEditResult(
  call: { input: NotebookEditInput; resolved: ResolvedPath },
  plan: PlannedNotebookEdit,
  version: { mtimeMs: number; contentHash: string; totalLines: number },
  hashPending = false,
): { content: string; details: NotebookEditDetails } {
  const { input, resolved } = call;
  const display = resolved.displayPath;
  const number = plan.cellIndex + 1;
  const id = plan.cellId === undefined ? "" : ` id=${plan.cellId}`;
  const lines = [`NotebookEdit: ${display}`, `${VERBS[input.edit_mode]} cell ${number} [${plan.cellType}]${id}`, `cells=${plan.totalCells}`];
  if (plan.outputsCleared) lines.push("outputs and execution_count cleared");
  const later = input.edit_mode === "insert" ? plan.totalCells - 1 - plan.cellIndex : input.edit_mode === "delete" ? plan.totalCells - plan.cellIndex : 0;
  if (later > 0) lines.push(`the ${later} cells after it are renumbered (cell_index of an earlier Read has shifted)`);
  return {
    content: lines.join("\n"),
    details: {
      kind: "notebook_edit",
      path: display,
      absolutePath: resolved.absolutePath,
      editMode: input.edit_mode,
      cellNumber: number,
      cellId: plan.cellId ?? null,
      cellType: plan.cellType,
      totalCells: plan.totalCells,
      outputsCleared: plan.outputsCleared,
      mtimeMs: version.mtimeMs,
      ...(hashPending ? {} : { contentHash: version.contentHash }),
      totalLines: version.totalLines,
    },
  };
}
