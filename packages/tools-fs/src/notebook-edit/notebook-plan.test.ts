/**
 * NotebookEdit's splice on real notebooks we did not write (see
 * __fixtures__/README.md): every edit changes exactly the bytes of its
 * cell, and the file reads back as the notebook intended.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { scanJsonPositions } from "./json-positions.js";
import { parseNotebook } from "./notebook-parse.js";
import { type NotebookEditInput, planNotebookEdit } from "./notebook-plan.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const toCrlf = (bytes: Buffer) => Buffer.from(bytes.toString("utf8").replace(/\n/g, "\r\n"), "utf8");

type Notebook = { cells: Array<Record<string, unknown>>; [key: string]: unknown };

/** The byte range of each cell (the scanner), checked against JSON.parse's count. */
function cellRanges(bytes: Buffer): Array<{ start: number; end: number }> {
  const top = scanJsonPositions(bytes, 2);
  const cells = top.members!.find((member) => member.key === "cells")!.value.elements!;
  expect(cells.length).toBe((JSON.parse(bytes.toString("utf8")) as Notebook).cells.length);
  return cells.map(({ start, end }) => ({ start, end }));
}

/** Common prefix and suffix lengths of two buffers. */
function commonEnds(a: Buffer, b: Buffer): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  return { prefix, suffix };
}

/** `edited` is `original` with the bytes from `start` to `end` replaced: everything before and after is the original's, byte for byte. */
function expectSpliced(original: Buffer, edited: Buffer, start: number, end: number): void {
  expect(edited.subarray(0, start).equals(original.subarray(0, start))).toBe(true);
  const tail = original.length - end;
  expect(edited.length).toBeGreaterThanOrEqual(start + tail);
  expect(edited.subarray(edited.length - tail).equals(original.subarray(end))).toBe(true);
}

const apply = (bytes: Buffer, input: Partial<NotebookEditInput>) =>
  Buffer.concat(planNotebookEdit(bytes, { new_source: "", edit_mode: "replace", ...input }, "nb.ipynb").pieces);
const parse = (bytes: Buffer) => JSON.parse(bytes.toString("utf8")) as Notebook;

const FILES: Array<[string, Buffer]> = [
  ["jupyter-importing-notebooks.ipynb (nbformat 4.0, 1-space)", fixture("jupyter-importing-notebooks.ipynb")],
  ["nbformat-test4.5.ipynb (cell ids, outputs)", fixture("nbformat-test4.5.ipynb")],
  ["open-assistant-example.ipynb (raw non-ASCII, attachments)", fixture("open-assistant-example.ipynb")],
  ["tensorflow-beginner.ipynb (2-space indent)", fixture("tensorflow-beginner.ipynb")],
  ["tensorflow-beginner.ipynb turned CRLF", toCrlf(fixture("tensorflow-beginner.ipynb"))],
];

describe.each(FILES)("NotebookEdit splices %s", (_name, original) => {
  const ranges = cellRanges(original);
  const before = parse(original);
  const middle = Math.floor(ranges.length / 2);

  it("replace changes only that cell's bytes; the rest of the notebook parses as it was", () => {
    const source = 'x = 1\ny = "ünïcode ✓"\nprint(x, y)';
    const edited = apply(original, { cell_index: middle + 1, new_source: source });
    const { prefix, suffix } = commonEnds(original, edited);
    expect(prefix).toBeGreaterThanOrEqual(ranges[middle]!.start);
    expect(original.length - suffix).toBeLessThanOrEqual(ranges[middle]!.end);
    expectSpliced(original, edited, ranges[middle]!.start, ranges[middle]!.end);
    const after = parse(edited);
    const cell = after.cells[middle]!;
    expect(Array.isArray(cell.source) ? (cell.source as string[]).join("") : cell.source).toBe(source);
    if (Array.isArray(cell.source)) expect(cell.source).toEqual(["x = 1\n", 'y = "ünïcode ✓"\n', "print(x, y)"]);
    expect({ ...after, cells: after.cells.filter((_, index) => index !== middle) }).toEqual({
      ...before,
      cells: before.cells.filter((_, index) => index !== middle),
    });
    // Non-ASCII goes in raw, as Jupyter writes it (ensure_ascii=False).
    expect(edited.includes(Buffer.from("ünïcode ✓"))).toBe(true);
    if (original.includes("\r\n")) expect(edited.toString("utf8").replace(/\r\n/g, "").includes("\n")).toBe(false);
  });

  it("insert adds one cell and its separator, nothing else", () => {
    const edited = apply(original, { cell_index: middle, edit_mode: "insert", cell_type: "markdown", new_source: "## Inserted" });
    // The original's bytes up to the end of the cell before, then the new bytes, then the original's bytes from there on.
    const at = ranges[middle - 1]!.end;
    expectSpliced(original, edited, at, at);
    // The inserted bytes are the separator and the cell, nothing of the neighbours.
    const inserted = edited.subarray(at, edited.length - (original.length - at)).toString("utf8");
    expect(inserted).toMatch(/^,\s+\{[\s\S]*\}$/);
    const after = parse(edited);
    expect(after.cells).toHaveLength(before.cells.length + 1);
    expect(after.cells[middle]).toMatchObject({ cell_type: "markdown", metadata: {} });
    expect(after.cells.filter((_, index) => index !== middle)).toEqual(before.cells);
  });

  it("insert at the start and at the end", () => {
    const first = parse(apply(original, { cell_index: 0, edit_mode: "insert", cell_type: "code", new_source: "first()" }));
    expect(first.cells[0]).toMatchObject({ cell_type: "code", execution_count: null, outputs: [], metadata: {} });
    expect(first.cells.slice(1)).toEqual(before.cells);
    const lastBytes = apply(original, { edit_mode: "insert", cell_type: "code", new_source: "last()" });
    const last = parse(lastBytes);
    expect(last.cells.at(-1)).toMatchObject({ cell_type: "code", source: ["last()"] });
    expect(lastBytes.subarray(0, ranges.at(-1)!.end).equals(original.subarray(0, ranges.at(-1)!.end))).toBe(true);
  });

  it("delete removes the cell and one separator", () => {
    const edited = apply(original, { cell_index: middle + 1, edit_mode: "delete" });
    expectSpliced(original, edited, ranges[middle - 1]!.end, ranges[middle]!.end);
    expect(edited.length).toBe(original.length - (ranges[middle]!.end - ranges[middle - 1]!.end));
    expect(parse(edited).cells).toEqual(before.cells.filter((_, index) => index !== middle));
    const firstGone = apply(original, { cell_index: 1, edit_mode: "delete" });
    expect(parse(firstGone).cells).toEqual(before.cells.slice(1));
    expect(firstGone.subarray(0, ranges[0]!.start).equals(original.subarray(0, ranges[0]!.start))).toBe(true);
  });
});

describe("NotebookEdit writes a cell as Jupyter does", () => {
  const original = fixture("nbformat-test4.5.ipynb");

  it("an edited code cell: outputs [] and execution_count null, its other members' bytes kept", () => {
    const before = parse(original);
    const index = before.cells.findIndex((cell) => cell.cell_type === "code" && (cell.outputs as unknown[]).length > 0);
    const id = before.cells[index]!.id as string;
    const edited = apply(original, { cell_id: id, new_source: "print('hi')\n" });
    const cell = parse(edited).cells[index]!;
    expect(cell).toEqual({ ...before.cells[index], source: ["print('hi')\n"], outputs: [], execution_count: null });
    const text = edited.toString("utf8");
    expect(text).toContain(`   "execution_count": null,\n   "id": "${id}",`);
    expect(text).toContain(`   "outputs": [],\n   "source": [\n    "print('hi')\\n"\n   ]\n  }`);
  });

  it("code -> markdown drops outputs and execution_count; markdown -> code adds them in sorted place", () => {
    const before = parse(original);
    const code = before.cells.findIndex((cell) => cell.cell_type === "code");
    const toMarkdown = parse(apply(original, { cell_index: code + 1, new_source: "# now text", cell_type: "markdown" })).cells[code]!;
    expect(Object.keys(toMarkdown)).toEqual(["cell_type", "id", "metadata", "source"]);
    const markdown = before.cells.findIndex((cell) => cell.cell_type === "markdown");
    const edited = apply(original, { cell_index: markdown + 1, new_source: "1 + 1", cell_type: "code" });
    const toCode = parse(edited).cells[markdown]!;
    expect(Object.keys(toCode)).toEqual(["cell_type", "execution_count", "id", "metadata", "outputs", "source"]);
    expect(toCode).toMatchObject({ cell_type: "code", execution_count: null, outputs: [], source: ["1 + 1"] });
    // Byte for byte the way Jupyter writes a cell (indent=1, sorted keys).
    expect(edited.toString("utf8")).toContain(
      `  {\n   "cell_type": "code",\n   "execution_count": null,\n   "id": "${before.cells[markdown]!.id}",\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "1 + 1"\n   ]\n  }`,
    );
  });

  it("an inserted cell gets a new unique 8-hex id from nbformat 4.5 on, and none before", () => {
    const with45 = parse(apply(original, { edit_mode: "insert", cell_type: "markdown", new_source: "x" }));
    const id = with45.cells.at(-1)!.id as string;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(with45.cells.filter((cell) => cell.id === id)).toHaveLength(1);
    const old = parse(apply(fixture("jupyter-importing-notebooks.ipynb"), { edit_mode: "insert", cell_type: "markdown", new_source: "x" }));
    expect(old.cells.at(-1)).toEqual({ cell_type: "markdown", metadata: {}, source: ["x"] });
  });

  it("a 2-space notebook gets 2-space cells; a source string stays a string; an empty source is []", () => {
    const tf = fixture("tensorflow-beginner.ipynb");
    const text = apply(tf, { cell_index: 1, edit_mode: "insert", cell_type: "markdown", new_source: "" }).toString("utf8");
    expect(text).toContain('\n    },\n    {\n      "cell_type": "markdown",\n      "metadata": {},\n      "source": []\n    },\n    {\n');
    const stringForm = Buffer.from('{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "a"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}');
    const edited = apply(stringForm, { cell_index: 1, new_source: "b\nc" });
    expect(edited.toString("utf8")).toBe(
      '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "b\\nc"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}',
    );
    const inserted = apply(stringForm, { edit_mode: "insert", cell_type: "code", new_source: "z" }).toString("utf8");
    expect(inserted).toBe(
      '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "a"}, {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": "z"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}',
    );
  });

  it("a source that looks like JSON, with quotes, backslashes, control characters, U+2028 and a lone surrogate, reads back as given", () => {
    const hostile = 'x"]}],"nbformat": 5, "cells": [{"a\\": 1}\n\t\u0000\u001b[31m\u2028\ud800 end';
    for (const [name, original] of FILES) {
      const edited = apply(original, { cell_index: 2, new_source: hostile, cell_type: "code" });
      const after = parse(edited);
      expect(after.nbformat, name).toBe(4);
      expect(after.cells).toHaveLength(parse(original).cells.length);
      expect((after.cells[1]!.source as string[]).join("")).toBe(hostile);
    }
  });

  it("a compact notebook (JSON.stringify) stays one compact line", () => {
    const compact = Buffer.from(
      JSON.stringify({
        cells: [
          { cell_type: "code", execution_count: 3, metadata: {}, outputs: [{ output_type: "stream", name: "stdout", text: ["1"] }], source: ["print(1)"] },
        ],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    const replaced = apply(compact, { cell_index: 1, new_source: "print(2)" }).toString("utf8");
    expect(replaced).toBe(
      '{"cells":[{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["print(2)"]}],"metadata":{},"nbformat":4,"nbformat_minor":5}',
    );
    const inserted = apply(compact, { edit_mode: "insert", cell_index: 0, cell_type: "markdown", new_source: "# T" }).toString("utf8");
    expect(inserted).toMatch(/^\{"cells":\[\{"cell_type":"markdown","id":"[0-9a-f]{8}","metadata":\{\},"source":\["# T"\]\},\{"cell_type":"code"/);
    expect(inserted).not.toContain("\n");
  });

  it("a notebook written with ensure_ascii=True keeps non-ASCII escaped", () => {
    const ascii = Buffer.from(
      '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": [\n    "caf\\u00e9"\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 2\n}\n',
    );
    const edited = apply(ascii, { cell_index: 1, new_source: "naïve ✓" }).toString("utf8");
    expect(edited).toContain('"na\\u00efve \\u2713"');
    expect(JSON.parse(edited).cells[0].source).toEqual(["naïve ✓"]);
  });

  it("deleting the only cell leaves cells: [], and inserting into [] writes the array out", () => {
    const one = Buffer.from(
      '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": []\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 2\n}\n',
    );
    const empty = apply(one, { cell_index: 1, edit_mode: "delete" });
    expect(empty.toString("utf8")).toBe('{\n "cells": [],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 2\n}\n');
    expect(apply(empty, { edit_mode: "insert", cell_type: "markdown", new_source: "" }).equals(one)).toBe(true);
  });
});

describe("NotebookEdit refuses", () => {
  const original = fixture("nbformat-test4.5.ipynb");
  const code = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof ToolError ? { code: error.code, message: error.message } : { code: "thrown", message: String(error) };
    }
    return { code: "none", message: "" };
  };

  it("both or neither of cell_id and cell_index, insert without cell_type, an index out of range", () => {
    expect(code(() => apply(original, { cell_id: "x", cell_index: 1 })).code).toBe("invalid_arguments");
    expect(code(() => apply(original, {})).message).toContain("give cell_id or cell_index");
    expect(code(() => apply(original, { edit_mode: "insert" })).message).toContain("insert needs cell_type");
    expect(code(() => apply(original, { cell_index: 999 })).message).toMatch(/out of range: nb.ipynb has \d+ cells/);
    expect(code(() => apply(original, { cell_index: 999, edit_mode: "insert", cell_type: "code" })).code).toBe("invalid_arguments");
  });

  it("an unknown cell id, naming the closest id and listing the ids", () => {
    const ids = parse(original).cells.map((cell) => cell.id as string);
    const typo = `${ids[2]!.slice(0, -1)}z`;
    const refused = code(() => apply(original, { cell_id: typo }));
    expect(refused.code).toBe("not_found");
    expect(refused.message).toContain(`Did you mean "${ids[2]}"?`);
    expect(refused.message).toContain(`1=${ids[0]}, 2=${ids[1]}`);
  });

  it("not a notebook: not JSON, not nbformat 4, no cells, not UTF-8", () => {
    expect(code(() => apply(Buffer.from("{ nope"), { cell_index: 1 })).code).toBe("unsupported_target");
    expect(code(() => apply(Buffer.from('{"nbformat": 3, "worksheets": []}'), { cell_index: 1 })).message).toContain("nbformat 3");
    expect(code(() => apply(Buffer.from('{"nbformat": 4, "cells": {}}'), { cell_index: 1 })).code).toBe("unsupported_target");
    expect(code(() => apply(Buffer.from([0x7b, 0xff, 0x7d]), { cell_index: 1 })).code).toBe("not_utf8");
  });

  it("parses notebooks with a BOM and keeps it", () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture("open-assistant-example.ipynb")]);
    const edited = apply(withBom, { cell_index: 1, new_source: "# T" });
    expect(edited.subarray(0, 3).equals(withBom.subarray(0, 3))).toBe(true);
    expect(parseNotebook(edited, "nb.ipynb").cells[0]!.source).toEqual(["# T"]);
  });
});
