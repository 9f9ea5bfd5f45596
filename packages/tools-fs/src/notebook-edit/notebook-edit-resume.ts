/**
 * NotebookEdit's `resume`: for a call that started before a crash and has
 * no recorded outcome, the notebook tells whether it happened. replace:
 * the cell already holds new_source (and the type, cleared outputs) ->
 * done; else run again (a replace run twice leaves what one run leaves).
 * insert: the cell where the new one would be holds new_source with the
 * type -> done; else run. delete by cell_id: the id is gone -> done; there
 * -> run. delete by cell_index: unknown (the cell now at that number may
 * be the one after the deleted one).
 */
import type { ToolContext } from "@agent-tools/core";
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import { EDIT_RESUME_MAX_BYTES, type EditResumeParts } from "../edit/resume-checks.js";
import { readForResume, recordResumed } from "../shared/resume-read.js";
import { type NotebookEditDetails, notebookEditResult } from "./notebook-edit-result.js";
import { type NotebookCell, type ParsedNotebook, cellIdOf, cellSource, findCell, parseNotebook } from "./notebook-parse.js";
import { type NotebookEditInput, checkNotebookArguments } from "./notebook-plan.js";

type Decision = ToolResumeDecision<NotebookEditDetails>;

/** Decides an interrupted NotebookEdit (see the module comment). */
export async function resumeNotebookEdit(input: NotebookEditInput & { path: string }, context: ToolContext, parts: EditResumeParts): Promise<Decision> {
  const unknown = (note: string): Decision => ({ action: "unknown", note: `${input.path}: ${note}` });
  try {
    checkNotebookArguments(input);
  } catch {
    // NotebookEdit refuses these arguments before touching anything: running it again answers the same.
    return { action: "run" };
  }
  if (input.edit_mode === "delete" && input.cell_id === undefined) {
    return unknown("a delete by cell_index cannot be told apart from the cell after it moving up to that number");
  }
  try {
    const found = await readForResume({ toolName: "NotebookEdit", intent: "edit", path: input.path, context, ...parts, maxBytes: EDIT_RESUME_MAX_BYTES });
    if (!found.exists) return { action: "run" };
    if ("oversize" in found) return unknown(`the file is ${found.oversize} bytes, more than the ${EDIT_RESUME_MAX_BYTES} the check before running again reads`);
    let notebook: ParsedNotebook;
    try {
      notebook = parseNotebook(found.bytes, found.resolved.displayPath);
    } catch {
      // Not a notebook (now): running again refuses the same way, changing nothing.
      return { action: "run" };
    }
    const applied = appliedCell(notebook, input, found.resolved.displayPath);
    if (applied === undefined) return { action: "run" };
    recordResumed(parts.environment, found);
    const cell = notebook.cells[applied];
    const plan = {
      pieces: [],
      cellIndex: applied,
      cellId: cell ? cellIdOf(cell) : input.cell_id,
      cellType: String(cell?.cell_type ?? ""),
      totalCells: notebook.cells.length,
      outputsCleared: false,
    };
    const result = notebookEditResult({ input, resolved: found.resolved }, plan, found.version);
    const note = "already applied: this NotebookEdit was interrupted after it wrote, and the notebook shows its change, so nothing was changed again";
    const [header, ...rest] = result.content.split("\n");
    // Where a deleted cell was is not known: name it by its id only.
    if (input.edit_mode === "delete") rest.splice(0, 1, `deleted the cell id=${input.cell_id}`);
    return { action: "done", output: { content: [header, note, ...rest].join("\n"), details: result.details } };
  } catch (error) {
    return unknown(`NotebookEdit could not check the notebook before running again: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The 0-based index of the cell showing the call's change, or undefined when the notebook does not show it. */
function appliedCell(notebook: ParsedNotebook, input: NotebookEditInput, displayPath: string): number | undefined {
  const { cells } = notebook;
  if (input.edit_mode === "delete") {
    // The id gone: deleted. The index reported is where it was not known; 0 stands for it.
    return cells.some((cell) => cellIdOf(cell) === input.cell_id) ? undefined : 0;
  }
  let index: number;
  if (input.edit_mode === "replace") {
    try {
      index = findCell(notebook, input, displayPath);
    } catch {
      return undefined;
    }
  } else if (input.cell_id !== undefined) {
    const anchor = cells.findIndex((cell) => cellIdOf(cell) === input.cell_id);
    if (anchor === -1) return undefined;
    index = anchor + 1;
  } else {
    index = input.cell_index ?? cells.length - 1;
  }
  const cell = cells[index];
  return cell !== undefined && holdsChange(cell, input) ? index : undefined;
}

/** The cell holds new_source, with the requested type, and (a code cell) no outputs or execution count. */
function holdsChange(cell: NotebookCell, input: NotebookEditInput): boolean {
  if (cellSource(cell) !== input.new_source) return false;
  if (input.cell_type !== undefined && cell.cell_type !== input.cell_type) return false;
  if (cell.cell_type !== "code") return true;
  return Array.isArray(cell.outputs) && cell.outputs.length === 0 && cell.execution_count === null;
}
