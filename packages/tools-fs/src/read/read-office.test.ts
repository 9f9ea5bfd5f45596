import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  DOCUMENT_HEAD,
  DOCUMENT_TAIL,
  deflateHuge,
  docxSkeletonEntries,
  makeDocx,
  makeRawZip,
  makeXlsx,
  paragraph,
  table,
} from "../__fixtures__/office-files.js";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

const fixture = (name: string) => readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "../__fixtures__/office", name));
/** The extracted text of a result, without the header and the cat -n numbers. */
const bodyLines = (text: string) =>
  text
    .split("\n\n")
    .slice(1)
    .join("\n\n")
    .split("\n")
    .map((line) => line.replace(/^ {0,5}\d+\t/, ""));

const REPORT_BODY = [
  paragraph("Quarterly report", { style: "Titre1" }),
  paragraph("Summary", { style: "Heading2" }),
  "<w:p><w:r><w:t>Left</w:t><w:tab/><w:t>right</w:t><w:br/><w:t>next line</w:t></w:r></w:p>",
  paragraph("apples", { numId: 1 }),
  paragraph("green", { numId: 1, ilvl: 1 }),
  paragraph("first", { numId: 2 }),
  paragraph("sub", { numId: 2, ilvl: 1 }),
  paragraph("second", { numId: 2 }),
  table([
    ["Name", "Qty"],
    ["Apples", "3"],
  ]),
  "<w:p><w:r><w:t>kept</w:t></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:r><w:instrText>PAGE</w:instrText></w:r></w:p>",
  '<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p><w:r><w:t>In a box</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>In a box</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>Outer</w:t></w:r></w:p>',
  paragraph("Fish &amp; chips"),
].join("");

const REPORT_TEXT = [
  "# Quarterly report",
  "## Summary",
  "Left\tright",
  "next line",
  "- apples",
  "  - green",
  "1. first",
  "  a. sub",
  "2. second",
  "Name\tQty",
  "Apples\t3",
  "kept",
  "In a box",
  "Outer",
  "Fish & chips",
];

const DATA_ROWS = [
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>When</t></is></c><c r="D1" t="inlineStr"><is><r><t>No</t></r><r><t>te</t></r><rPh><t>ignored</t></rPh></is></c></row>',
  '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>3</v></c><c r="C2" s="1"><v>45292</v></c><c r="D2" t="b"><v>1</v></c></row>',
  '<row r="3"><c r="A3" t="str"><f>CONCAT("Pears","!")</f><v>Pears!</v></c><c r="B3" s="3"><f>SUM(B1:B2)</f><v>10.5</v></c><c r="C3" s="2"><v>45292.5</v></c><c r="E3" t="e"><v>#DIV/0!</v></c></row>',
  '<row r="5"><c r="A5" s="4"><v>0.75</v></c><c r="B5" t="b"><v>0</v></c><c r="C5" t="s"><v>3</v></c><c r="D5" t="s"><v>4</v></c><c r="E5" t="s"><v>5</v></c></row>',
].join("");

const WORKBOOK_TEXT = [
  "## Sheet 1: Data",
  "Name\tQty\tWhen\tNote",
  "Apples\t3\t2024-01-01\tTRUE",
  "Pears!\t10.5\t2024-01-01T12:00:00\t\t#DIV/0!",
  "",
  "18:00:00\tFALSE\ttwo lines\tcafé\t_x000D_",
  "",
  "## Sheet 2: Secret (hidden)",
  "hidden value",
  "",
  "## Sheet 3: Empty",
  "(empty sheet)",
];

const workbook = () =>
  makeXlsx(
    [
      { name: "Data", rows: DATA_ROWS },
      { name: "Secret", rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>hidden value</t></is></c></row>', state: "hidden" },
      { name: "Empty", rows: "" },
    ],
    ["Name", "Qty", "Apples", "two\nlines", "caf_x00E9_", "_x005F_x000D_"],
  );

describe("Read .docx", () => {
  it("extracts paragraphs in order with headings, lists, tables, breaks and text boxes", async () => {
    ws = createTestWorkspace({ "report.docx": makeDocx(REPORT_BODY) });
    const result = await ws.call("Read", { path: "report.docx" });
    expect(result.isError).toBe(false);
    expect(result.text.split("\n\n")[0]).toBe(
      `Read: report.docx\nformat=docx (extracted text)\nlines=1-${REPORT_TEXT.length} / ${REPORT_TEXT.length}\nview=full`,
    );
    expect(bodyLines(result.text)).toEqual(REPORT_TEXT);
    expect(result.text).toContain("     1\t# Quarterly report\n     2\t## Summary");
    expect(result.details).toMatchObject({
      kind: "read_office",
      format: "docx",
      path: "report.docx",
      startLine: 1,
      numLines: REPORT_TEXT.length,
      totalLines: REPORT_TEXT.length,
      truncated: false,
      isPartialView: false,
      reusedExisting: false,
    });
    const again = await ws.call("Read", { path: "report.docx" });
    expect(again.details).toMatchObject({ reusedExisting: true });
    expect(again.text).toContain("This range is unchanged since the previous Read.");
  });

  it("reads list levels that are negative, fractional or huge as the nearest level from 0 to 8", async () => {
    const body = [paragraph("minus", { numId: 2, ilvl: -3 }), paragraph("half", { numId: 2, ilvl: 1.5 }), paragraph("deep", { numId: 1, ilvl: 99 })].join("");
    ws = createTestWorkspace({ "levels.docx": makeDocx(body) });
    const result = await ws.call("Read", { path: "levels.docx" });
    expect(result.isError, result.text).toBe(false);
    expect(bodyLines(result.text)).toEqual(["1. minus", "  a. half", "                - deep"]);
  });

  it("reads files Word wrote (a table, a bullet list)", async () => {
    ws = createTestWorkspace({ "tables.docx": fixture("tables.docx"), "list.docx": fixture("simple-list.docx") });
    expect(bodyLines((await ws.call("Read", { path: "tables.docx" })).text)).toEqual(["Above", "Top left\tTop right", "Bottom left\tBottom right", "Below"]);
    expect(bodyLines((await ws.call("Read", { path: "list.docx" })).text)).toEqual(["- Apple", "- Banana"]);
  });

  it("pages a long document like text: start_line, limit, the 200 KB cap", async () => {
    const body = Array.from({ length: 450 }, (_, index) => paragraph(`Paragraph ${index + 1}`)).join("");
    const wide = Array.from({ length: 300 }, (_, index) => paragraph(`${index + 1} ${"w".repeat(1000)}`)).join("");
    ws = createTestWorkspace({ "long.docx": makeDocx(body), "wide.docx": makeDocx(wide) });
    const first = await ws.call("Read", { path: "long.docx" });
    expect(first.details).toMatchObject({ kind: "read_office", startLine: 1, numLines: 200, totalLines: 450, truncated: true, isPartialView: true });
    expect(first.text).toContain("lines=1-200 / 450\nview=partial");
    expect(first.text).toContain("   200\tParagraph 200\n[...truncated: 250 more lines; continue with start_line=201...]");
    const window = await ws.call("Read", { path: "long.docx", start_line: 201, limit: 3 });
    expect(bodyLines(window.text).slice(0, 3)).toEqual(["Paragraph 201", "Paragraph 202", "Paragraph 203"]);
    const tail = await ws.call("Read", { path: "long.docx", start_line: 449 });
    expect(tail.details).toMatchObject({ startLine: 449, numLines: 2, truncated: false, isPartialView: true });
    const past = await ws.call("Read", { path: "long.docx", start_line: 451 });
    expect(past.isError).toBe(true);
    expect(past.text).toContain("past the end");
    const capped = await ws.call("Read", { path: "wide.docx", limit: 300 });
    expect(capped.details).toMatchObject({ truncated: true, totalLines: 300 });
    expect(capped.details.numLines).toBeLessThan(300);
    expect(capped.text).toContain("(200 KB output cap reached)");
    expect(capped.text.length).toBeLessThan(210 * 1024);
  });
});

describe("Read .xlsx, .xlsm, .xltx, .xltm", () => {
  it("extracts every sheet: shared and inline strings, numbers, booleans, formulas' values, errors, dates", async () => {
    ws = createTestWorkspace({ "book.xlsx": workbook() });
    const result = await ws.call("Read", { path: "book.xlsx" });
    expect(result.isError).toBe(false);
    expect(result.text.split("\n\n")[0]).toBe(
      `Read: book.xlsx\nformat=xlsx (extracted text)\nlines=1-${WORKBOOK_TEXT.length} / ${WORKBOOK_TEXT.length}\nview=full`,
    );
    expect(bodyLines(result.text)).toEqual(WORKBOOK_TEXT);
    expect(result.details).toMatchObject({ kind: "read_office", format: "xlsx", totalLines: WORKBOOK_TEXT.length, truncated: false });
  });

  it("reads macro-enabled workbooks and templates the same way", async () => {
    ws = createTestWorkspace({ "book.xlsm": workbook(), "book.xltx": workbook(), "book.xltm": workbook() });
    for (const [name, format] of [
      ["book.xlsm", "xlsm"],
      ["book.xltx", "xltx"],
      ["book.xltm", "xltm"],
    ]) {
      const result = await ws.call("Read", { path: name! });
      expect(result.details).toMatchObject({ kind: "read_office", format });
      expect(bodyLines(result.text)).toEqual(WORKBOOK_TEXT);
    }
  });

  it("dates follow the workbook's 1904 date system; long runs of empty rows are summarised", async () => {
    const rows = '<row r="1"><c r="A1" s="1"><v>0</v></c></row><row r="100000"><c r="B100000"><v>7</v></c></row>';
    ws = createTestWorkspace({ "1904.xlsx": makeXlsx([{ name: "S", rows }], [], { date1904: true }) });
    expect(bodyLines((await ws.call("Read", { path: "1904.xlsx" })).text)).toEqual(["## Sheet 1: S", "1904-01-01", "[rows 2-99999 are empty]", "\t7"]);
  });

  it("reads files LibreOffice and Excel wrote (a date cell, formulas' cached values)", async () => {
    ws = createTestWorkspace({ "dates.xlsx": fixture("dateIssue.xlsx"), "formulas.xlsx": fixture("formulas.xlsx") });
    expect(bodyLines((await ws.call("Read", { path: "dates.xlsx" })).text)).toEqual(["## Sheet 1: Sheet1", "Date", "2020-11-20"]);
    expect(bodyLines((await ws.call("Read", { path: "formulas.xlsx" })).text)).toEqual([
      "## Sheet 1: Sheet1",
      "someone@example.com\t(formula with hyperlink)",
      "someone@example.com\t(formula without link)",
    ]);
  });
});

describe("Read of hostile and damaged Office files", () => {
  let bombData: Buffer;
  const bombSize = Buffer.byteLength(DOCUMENT_HEAD) + 300 * 1024 * 1024 + Buffer.byteLength(DOCUMENT_TAIL);
  beforeAll(async () => {
    bombData = await deflateHuge(DOCUMENT_HEAD, 300, DOCUMENT_TAIL);
  }, 120_000);

  it("refuses a zip bomb whose headers lie about the size (real decompressed bytes are counted)", async () => {
    expect(bombData.length).toBeLessThan(1024 * 1024);
    const lying = makeRawZip([...docxSkeletonEntries(), { name: "word/document.xml", data: bombData, method: 8, declaredSize: 2000 }]);
    ws = createTestWorkspace({ "bomb.docx": lying });
    const result = await ws.call("Read", { path: "bomb.docx" });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "too_large" });
    expect(result.text).toContain("word/document.xml");
  });

  it("refuses a zip bomb whose headers tell the truth, before inflating it", async () => {
    const honest = makeRawZip([...docxSkeletonEntries(), { name: "word/document.xml", data: bombData, method: 8, declaredSize: bombSize }]);
    ws = createTestWorkspace({ "bomb.docx": honest });
    const result = await ws.call("Read", { path: "bomb.docx" });
    expect(result.details).toMatchObject({ code: "too_large" });
    expect(result.text).toContain("256 MB");
  });

  it("refuses too many zip entries, too big a file, too many cells", async () => {
    const many = makeRawZip(
      Array.from({ length: 10_001 }, (_, index) => ({ name: `f${index}.xml`, data: Buffer.alloc(0), method: 0 as const, declaredSize: 0 })),
    );
    const row = `<row>${"<c><v>1</v></c>".repeat(100)}</row>`;
    ws = createTestWorkspace({ "many.xlsx": many, "cells.xlsx": makeXlsx([{ name: "S", rows: row.repeat(10_001) }], []) });
    ws.write("huge.docx", Buffer.alloc(50 * 1024 * 1024 + 1));
    const entries = await ws.call("Read", { path: "many.xlsx" });
    expect(entries.details).toMatchObject({ code: "too_large" });
    expect(entries.text).toContain("10001 entries");
    const huge = await ws.call("Read", { path: "huge.docx" });
    expect(huge.details).toMatchObject({ code: "too_large" });
    expect(huge.text).toContain("50 MB");
    const cells = await ws.call("Read", { path: "cells.xlsx" });
    expect(cells.details).toMatchObject({ code: "too_large" });
    expect(cells.text).toContain("more than 1000000 cells");
  });

  it("explains a file that is not a zip, a truncated one and malformed XML", async () => {
    const real = fixture("tables.docx");
    ws = createTestWorkspace({
      "text.docx": "just some text, not a document",
      "cut.docx": real.subarray(0, Math.floor(real.length / 2)),
      "bad.docx": makeDocx("<w:p><w:r><w:t>unclosed</w:r></w:p>"),
      "nobook.xlsx": makeDocx(paragraph("a Word file named .xlsx")),
    });
    for (const name of ["text.docx", "cut.docx"]) {
      const result = await ws.call("Read", { path: name });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "unsupported_target" });
      expect(result.text).toContain("is not a readable .docx file");
    }
    const bad = await ws.call("Read", { path: "bad.docx" });
    expect(bad.details).toMatchObject({ code: "unsupported_target" });
    expect(bad.text).toContain("word/document.xml");
    const nobook = await ws.call("Read", { path: "nobook.xlsx" });
    expect(nobook.details).toMatchObject({ code: "unsupported_target" });
    expect(nobook.text).toContain("no workbook");
  });
});
