/**
 * NotebookEdit's change as bytes: the notebook's original bytes with one
 * cell's range spliced (replace: only the members that change, written in
 * the file's style; insert: a new cell and one separator; delete: the cell
 * and one separator). Every other byte of the file stays as it was. The
 * result is parsed again before it is returned: a splice that would not
 * leave the intended nbformat 4 notebook is refused, never written.
 */
import { randomBytes } from "node:crypto";
import { ToolError } from "@agent-tools/core";
import type { JsonNode } from "./json-positions.js";
import { type NotebookCell, type ParsedNotebook, cellIdOf, cellSource, findCell, parseNotebook } from "./notebook-parse.js";
import { type NotebookStyle, lineAt, quoteJson, separatorAt, sourceValue, writeJson } from "./notebook-style.js";

/** The arguments of a NotebookEdit call that decide the change. */
export interface NotebookEditInput {
  readonly cell_id?: string | undefined;
  readonly cell_index?: number | undefined;
  readonly new_source: string;
  readonly cell_type?: "code" | "markdown" | undefined;
  readonly edit_mode: "replace" | "insert" | "delete";
}

/** A change ready to commit. */
export interface PlannedNotebookEdit {
  /** The new content, in order. */
  readonly pieces: Buffer[];
  /** 0-based index of the replaced, inserted or deleted cell. */
  readonly cellIndex: number;
  readonly cellId: string | undefined;
  /** The cell's type after the edit (before it, for a deletion). */
  readonly cellType: string;
  /** Cells in the notebook after the edit. */
  readonly totalCells: number;
  /** A replaced code cell had outputs or an execution count, now cleared. */
  readonly outputsCleared: boolean;
}

/** One splice of the original bytes. */
interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Level of a cell's members in the file (top object 0, its members 1, cells 2). */
const MEMBER_LEVEL = 3;

/** Refuses arguments that name no cell or two (`invalid_arguments`). */
export function checkNotebookArguments(input: NotebookEditInput): void {
  const named = (input.cell_id !== undefined ? 1 : 0) + (input.cell_index !== undefined ? 1 : 0);
  if (named === 2) throw new ToolError("invalid_arguments", "NotebookEdit: give cell_id or cell_index, not both.");
  if (named === 0 && input.edit_mode !== "insert") {
    throw new ToolError(
      "invalid_arguments",
      `NotebookEdit: ${input.edit_mode} needs the cell: give cell_id or cell_index (1-based, as Read numbers the cells).`,
    );
  }
  if (input.edit_mode === "insert" && input.cell_type === undefined) {
    throw new ToolError("invalid_arguments", 'NotebookEdit: insert needs cell_type ("code" or "markdown").');
  }
}

/** Plans the edit of the notebook `bytes` (see the module comment). */
export function planNotebookEdit(bytes: Uint8Array, input: NotebookEditInput, displayPath: string): PlannedNotebookEdit {
  checkNotebookArguments(input);
  const notebook = parseNotebook(bytes, displayPath);
  const planned =
    input.edit_mode === "replace"
      ? planReplace(notebook, input, displayPath)
      : input.edit_mode === "insert"
        ? planInsert(notebook, input, displayPath)
        : planDelete(notebook, input, displayPath);
  const pieces = applySplices(bytes, planned.splices);
  verify(pieces, planned.result, input, displayPath);
  return { ...planned.result, pieces };
}

type Planned = { splices: Splice[]; result: Omit<PlannedNotebookEdit, "pieces"> };

/** Replace: the cell's source, and its type with the members that go with it. */
function planReplace(notebook: ParsedNotebook, input: NotebookEditInput, displayPath: string): Planned {
  const index = findCell(notebook, input, displayPath);
  const cell = notebook.cells[index]!;
  const node = notebook.cellsNode.elements![index]!;
  const oldType = String(cell.cell_type ?? "");
  const newType = input.cell_type ?? oldType;
  const members = new CellMembers(notebook, node);
  if (newType !== oldType) members.set("cell_type", newType);
  members.set("source", sourceValue(input.new_source, typeof cell.source === "string"));
  let outputsCleared = false;
  if (newType === "code") {
    outputsCleared = (Array.isArray(cell.outputs) && cell.outputs.length > 0) || (cell.execution_count !== null && cell.execution_count !== undefined);
    members.set("execution_count", null);
    members.set("outputs", []);
  } else if (oldType === "code") {
    members.remove("execution_count");
    members.remove("outputs");
  }
  return {
    splices: members.splices(),
    result: { cellIndex: index, cellId: cellIdOf(cell), cellType: newType, totalCells: notebook.cells.length, outputsCleared },
  };
}

/** Insert: a new cell after the named one (cell_index 0: first; neither named: last). */
function planInsert(notebook: ParsedNotebook, input: NotebookEditInput, displayPath: string): Planned {
  const { cells, cellsNode, style } = notebook;
  const position = input.cell_id !== undefined ? findCell(notebook, input, displayPath) + 1 : insertPosition(input.cell_index, cells.length, displayPath);
  const type = input.cell_type!;
  const withIds = notebook.nbformatMinor >= 5 || cells.some((cell) => cellIdOf(cell) !== undefined);
  const id = withIds ? newCellId(cells) : undefined;
  const stringForm = typeof cells.find((cell) => cell.source !== undefined)?.source === "string";
  const cell: Record<string, unknown> = { cell_type: type };
  if (type === "code") cell.execution_count = null;
  if (id !== undefined) cell.id = id;
  cell.metadata = {};
  if (type === "code") cell.outputs = [];
  cell.source = sourceValue(input.new_source, stringForm);
  const text = writeJson(cell, 2, style);
  const elements = cellsNode.elements!;
  let splice: Splice;
  if (elements.length === 0) {
    splice = { start: cellsNode.start, end: cellsNode.end, text: `[${lineAt(2, style)}${text}${lineAt(1, style)}]` };
  } else {
    const separator = elementSeparator(notebook);
    splice =
      position === 0
        ? { start: elements[0]!.start, end: elements[0]!.start, text: `${text}${separator}` }
        : { start: elements[position - 1]!.end, end: elements[position - 1]!.end, text: `${separator}${text}` };
  }
  return { splices: [splice], result: { cellIndex: position, cellId: id, cellType: type, totalCells: cells.length + 1, outputsCleared: false } };
}

/** Delete: the cell and the separator before it (after it, for the first). */
function planDelete(notebook: ParsedNotebook, input: NotebookEditInput, displayPath: string): Planned {
  const index = findCell(notebook, input, displayPath);
  const elements = notebook.cellsNode.elements!;
  const splice: Splice =
    elements.length === 1
      ? { start: notebook.cellsNode.start, end: notebook.cellsNode.end, text: "[]" }
      : index > 0
        ? { start: elements[index - 1]!.end, end: elements[index]!.end, text: "" }
        : { start: elements[0]!.start, end: elements[1]!.start, text: "" };
  const cell = notebook.cells[index]!;
  return {
    splices: [splice],
    result: { cellIndex: index, cellId: cellIdOf(cell), cellType: String(cell.cell_type ?? ""), totalCells: elements.length - 1, outputsCleared: false },
  };
}

/** Where an insert with `cell_index` puts the new cell (0-based); 0..length are valid, undefined appends. */
function insertPosition(cellIndex: number | undefined, length: number, displayPath: string): number {
  if (cellIndex === undefined) return length;
  if (cellIndex < 0 || cellIndex > length) {
    throw new ToolError(
      "invalid_arguments",
      `NotebookEdit: insert goes after cell_index, which must be 0 (first) to ${length}; ${displayPath} has ${length} cells.`,
      { details: { path: displayPath, totalCells: length } },
    );
  }
  return cellIndex;
}

/** A random 8-hex id no cell has (nbformat 4.5 ids are 1-64 of [a-zA-Z0-9-_]). */
function newCellId(cells: readonly NotebookCell[]): string {
  const taken = new Set(cells.map(cellIdOf));
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!taken.has(id)) return id;
  }
}

/** The bytes between two cells: "," and the whitespace the file puts before its first cell (a compact file's comma). */
function elementSeparator(notebook: ParsedNotebook): string {
  const { cellsNode, bytes, style } = notebook;
  const gap = Buffer.from(bytes.subarray(cellsNode.start + 1, cellsNode.elements![0]!.start)).toString("latin1");
  return gap.includes("\n") ? `,${gap}` : style.comma;
}

/** The whitespace before `position` (back to the previous token). */
function whitespaceBefore(bytes: Uint8Array, position: number): string {
  let start = position;
  while (start > 0 && (bytes[start - 1] === 0x20 || bytes[start - 1] === 0x09 || bytes[start - 1] === 0x0a || bytes[start - 1] === 0x0d)) start -= 1;
  return Buffer.from(bytes.subarray(start, position)).toString("latin1");
}

/** The member changes of one cell object, as splices of the file. */
class CellMembers {
  private readonly edits: Splice[] = [];
  private readonly style: NotebookStyle;

  constructor(
    private readonly notebook: ParsedNotebook,
    private readonly node: JsonNode,
  ) {
    this.style = notebook.style;
  }

  /** Sets member `key` to `value`: its value's bytes replaced, or the member added where sorted keys put it. */
  set(key: string, value: unknown): void {
    const members = this.node.members!;
    const text = writeJson(value, MEMBER_LEVEL, this.style);
    const existing = members.findLastIndex((member) => member.key === key);
    if (existing !== -1) {
      const member = members[existing]!;
      this.edits.push({ start: member.value.start, end: member.value.end, text });
      return;
    }
    const entry = `${quoteJson(key, this.style)}${this.style.colon}${text}`;
    const sorted = members.every((member, index) => index === 0 || members[index - 1]!.key <= member.key);
    const before = sorted ? members.findIndex((member) => member.key > key) : members.findIndex((member) => member.key === "source");
    if (before !== -1) {
      const next = members[before]!;
      const gap = this.gapBefore(before);
      this.edits.push({ start: next.keyStart, end: next.keyStart, text: `${entry}${gap}` });
      return;
    }
    const last = members[members.length - 1];
    if (!last) {
      this.edits.push({
        start: this.node.start + 1,
        end: this.node.end - 1,
        text: `${lineAt(MEMBER_LEVEL, this.style)}${entry}${lineAt(MEMBER_LEVEL - 1, this.style)}`,
      });
      return;
    }
    this.edits.push({ start: last.value.end, end: last.value.end, text: `${this.gapBefore(members.length - 1)}${entry}` });
  }

  /** Removes member `key` with one separator, when the cell has it. */
  remove(key: string): void {
    const members = this.node.members!;
    const index = members.findLastIndex((member) => member.key === key);
    if (index === -1) return;
    if (index > 0) this.edits.push({ start: members[index - 1]!.value.end, end: members[index]!.value.end, text: "" });
    else if (members.length > 1) this.edits.push({ start: members[0]!.keyStart, end: members[1]!.keyStart, text: "" });
    else this.edits.push({ start: this.node.start + 1, end: this.node.end - 1, text: "" });
  }

  /** The splices, in file order (ties in the order they were made). */
  splices(): Splice[] {
    return this.edits
      .map((edit, order) => ({ edit, order }))
      .sort((a, b) => a.edit.start - b.edit.start || a.order - b.order)
      .map(({ edit }) => edit);
  }

  /** "," and the whitespace before member `index`'s key (the separator the file uses between members). */
  private gapBefore(index: number): string {
    const key = this.node.members![index]!.keyStart;
    const space = whitespaceBefore(this.notebook.bytes, key);
    return space.includes("\n") ? `,${space}` : separatorAt(MEMBER_LEVEL, this.style);
  }
}

/** The original bytes with `splices` (sorted, not overlapping) applied. */
function applySplices(bytes: Uint8Array, splices: readonly Splice[]): Buffer[] {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pieces: Buffer[] = [];
  let cursor = 0;
  for (const splice of splices) {
    if (splice.start < cursor) throw new Error("NotebookEdit: overlapping splices");
    pieces.push(source.subarray(cursor, splice.start), Buffer.from(splice.text, "utf8"));
    cursor = splice.end;
  }
  pieces.push(source.subarray(cursor));
  return pieces.filter((piece) => piece.length > 0);
}

/** Parses the result: still an nbformat 4 notebook, with the cell as intended; else refuses without writing. */
function verify(pieces: readonly Buffer[], result: Omit<PlannedNotebookEdit, "pieces">, input: NotebookEditInput, displayPath: string): void {
  let problem: string | undefined;
  try {
    const after = parseNotebook(Buffer.concat(pieces), displayPath);
    if (after.cells.length !== result.totalCells) problem = `${after.cells.length} cells instead of ${result.totalCells}`;
    else if (input.edit_mode !== "delete") {
      const cell = after.cells[result.cellIndex]!;
      if (cellSource(cell) !== input.new_source || cell.cell_type !== result.cellType) problem = "the edited cell did not read back as written";
    }
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (problem !== undefined) {
    throw new ToolError(
      "unsupported_target",
      `NotebookEdit refused: the edit would not leave ${displayPath} a valid notebook (${problem}); nothing was written.`,
      {
        details: { path: displayPath },
      },
    );
  }
}
