import type { SaxesTagNS } from "saxes";
import { OfficeLines, oneLine } from "./office-lines.js";
import { OFFICE_LIMITS, type OfficeZip, attribute, officeDamaged, officeTooLarge, readRelationships, relationshipOfType } from "./office-zip.js";
import { type DateStyles, formatSerialDate, readDateStyles } from "./office-xlsx-dates.js";

/**
 * Text of a workbook (.xlsx, .xlsm, .xltx, .xltm): one section per sheet,
 * `## Sheet N: <name>`, then one line per row with the cells' values
 * separated by tabs, from column A (empty cells keep their place). Values
 * are what the file stores: shared and inline strings, numbers, TRUE/FALSE,
 * error codes and formulas' cached results; numbers in a date or time
 * format become ISO dates/times. Missing rows are blank lines, or one
 * `[rows a-b are empty]` line for longer runs.
 */

const SHEET_NAMESPACES = new Set(["http://schemas.openxmlformats.org/spreadsheetml/2006/main", "http://purl.oclc.org/ooxml/spreadsheetml/main"]);
const isSheet = (tag: SaxesTagNS) => SHEET_NAMESPACES.has(tag.uri);

/** Runs of missing rows up to this long are shown as blank lines; longer ones as one line. */
const BLANK_ROW_RUN = 20;
/** Excel's last column (XFD). */
const MAX_COLUMN = 16_384;

interface SheetRef {
  name: string;
  hidden: boolean;
  part: string | undefined;
  kind: string;
}

/** Extracts a workbook's text as lines. */
export async function extractXlsx(zip: OfficeZip): Promise<string[]> {
  const packageRels = await readRelationships(zip, "");
  const workbook = relationshipOfType(packageRels, "officeDocument") ?? "xl/workbook.xml";
  if (!zip.has(workbook)) throw officeDamaged(zip.label, `no workbook part ${workbook}`);
  const workbookRels = await readRelationships(zip, workbook);
  const sheets: SheetRef[] = [];
  let date1904 = false;
  let root: string | undefined;
  await zip.parse(workbook, {
    open(tag) {
      root ??= `${tag.local} in ${tag.uri || "no namespace"}`;
      if (!isSheet(tag)) return;
      if (tag.local === "workbookPr") date1904 = /^(1|true)$/.test(attribute(tag, "date1904") ?? "");
      if (tag.local !== "sheet") return;
      const relationship = workbookRels.get(attribute(tag, "id") ?? "");
      const kind = relationship?.type.slice(relationship.type.lastIndexOf("/") + 1) ?? "worksheet";
      const state = attribute(tag, "state");
      sheets.push({
        name: attribute(tag, "name") ?? `Sheet${sheets.length + 1}`,
        hidden: state === "hidden" || state === "veryHidden",
        part: relationship?.target,
        kind,
      });
    },
  });
  if (!root?.startsWith("workbook in ") || !SHEET_NAMESPACES.has(root.slice("workbook in ".length))) {
    throw officeDamaged(zip.label, `no workbook: its main part ${workbook} holds <${root ?? "nothing"}>`);
  }
  const strings = await readSharedStrings(zip, relationshipOfType(workbookRels, "sharedStrings"));
  const dates = await readDateStyles(zip, relationshipOfType(workbookRels, "styles"));
  const out = new OfficeLines(zip.label);
  const counts = { cells: 0 };
  for (const [index, sheet] of sheets.entries()) {
    out.blank();
    out.push(`## Sheet ${index + 1}: ${oneLine(sheet.name)}${sheet.hidden ? " (hidden)" : ""}`);
    if (sheet.kind !== "worksheet" || !sheet.part) {
      out.push(`(${sheet.kind === "chartsheet" ? "chart sheet" : sheet.kind}: no cells)`);
      continue;
    }
    const before = out.lines.length;
    if (!(await readSheet(zip, sheet.part, { strings, dates, date1904, out, counts }))) out.push("(sheet part missing)");
    else if (out.lines.length === before) out.push("(empty sheet)");
  }
  if (sheets.length === 0) out.push("(no sheets)");
  return out.finish();
}

interface SheetContext {
  strings: string[];
  dates: DateStyles;
  date1904: boolean;
  out: OfficeLines;
  counts: { cells: number };
}

interface CellState {
  column: number;
  type: string;
  style: number;
  value: string;
  inline: string;
}

async function readSheet(zip: OfficeZip, part: string, context: SheetContext): Promise<boolean> {
  const { out } = context;
  let lastRow = 0;
  let rowNumber = 0;
  let row: string[] | undefined;
  /** Where a cell without a reference goes: after the row's last cell, empty or not (empty cells are not stored). */
  let nextColumn = 0;
  let cell: CellState | undefined;
  let capture: "value" | "inline" | undefined;
  let phoneticDepth = 0;

  const emitGap = (upTo: number) => {
    const missing = upTo - lastRow - 1;
    if (missing <= 0) return;
    if (missing <= BLANK_ROW_RUN) for (let index = 0; index < missing; index += 1) out.push("");
    else out.push(`[rows ${lastRow + 1}-${upTo - 1} are empty]`);
  };

  return zip.parse(part, {
    open(tag) {
      if (!isSheet(tag)) return;
      switch (tag.local) {
        case "row": {
          const declared = Number(attribute(tag, "r"));
          rowNumber = Number.isInteger(declared) && declared > lastRow ? declared : lastRow + 1;
          row = [];
          nextColumn = 0;
          return;
        }
        case "c": {
          if (!row) return;
          const reference = attribute(tag, "r");
          const column = reference ? columnIndex(reference) : nextColumn;
          if (column === undefined || column >= MAX_COLUMN) throw officeDamaged(zip.label, `cell reference ${reference} in ${part} is out of range`);
          context.counts.cells += 1;
          if (context.counts.cells > OFFICE_LIMITS.maxCells) {
            throw officeTooLarge(zip.label, `has more than ${OFFICE_LIMITS.maxCells} cells; Read extracts at most that many`, {
              limit: OFFICE_LIMITS.maxCells,
            });
          }
          cell = { column, type: attribute(tag, "t") ?? "n", style: Number(attribute(tag, "s") ?? 0), value: "", inline: "" };
          return;
        }
        case "v":
          if (cell) capture = "value";
          return;
        case "rPh":
          phoneticDepth += 1;
          return;
        case "t":
          if (cell && cell.type === "inlineStr" && phoneticDepth === 0) capture = "inline";
          return;
      }
    },
    text(text) {
      if (!cell || !capture) return;
      if (capture === "value") cell.value += text;
      else cell.inline += text;
    },
    close(tag) {
      if (!isSheet(tag)) return;
      switch (tag.local) {
        case "v":
        case "t":
          capture = undefined;
          return;
        case "rPh":
          phoneticDepth -= 1;
          return;
        case "c": {
          if (!cell || !row) return;
          const value = cellValue(cell, context);
          // Only a value pads the row: a row of empty cells far right (XFD) must not cost 16k entries each.
          if (value !== "") {
            while (row.length < cell.column) row.push("");
            row[cell.column] = value;
          }
          nextColumn = Math.max(nextColumn, cell.column + 1);
          cell = undefined;
          return;
        }
        case "row": {
          if (!row) return;
          let end = row.length;
          while (end > 0 && row[end - 1] === "") end -= 1;
          if (end > 0) {
            emitGap(rowNumber);
            out.push(row.slice(0, end).join("\t"));
            lastRow = rowNumber;
          }
          row = undefined;
          return;
        }
      }
    },
  });
}

function cellValue(cell: CellState, context: SheetContext): string {
  switch (cell.type) {
    case "s": {
      const index = Number(cell.value);
      return oneLine(Number.isInteger(index) ? unescapeXstring(context.strings[index] ?? "") : "");
    }
    case "inlineStr":
      return oneLine(unescapeXstring(cell.inline || cell.value));
    case "b":
      return cell.value.trim() === "1" || cell.value.trim().toLowerCase() === "true" ? "TRUE" : cell.value.trim() === "" ? "" : "FALSE";
    case "n": {
      const raw = cell.value.trim();
      const kind = context.dates.kindOf(cell.style);
      if (kind && raw !== "") return formatSerialDate(Number(raw), kind, context.date1904) ?? raw;
      return raw;
    }
    default:
      // str (formula text), e (error), d (ISO date)
      return oneLine(unescapeXstring(cell.value));
  }
}

/** Decodes OOXML's `_xHHHH_` escapes (ECMA-376 ST_Xstring), e.g. `_x000D_` for a carriage return, `_x005F_` for "_". */
export function unescapeXstring(text: string): string {
  return text.includes("_x") ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : text;
}

/** 0-based column of a cell reference such as "B7" (undefined when malformed). */
export function columnIndex(reference: string): number | undefined {
  const letters = /^\$?([A-Za-z]{1,3})\$?\d*$/.exec(reference)?.[1];
  if (!letters) return undefined;
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1;
}

async function readSharedStrings(zip: OfficeZip, part: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!part) return strings;
  let current: string | undefined;
  let inText = false;
  let phoneticDepth = 0;
  await zip.parse(part, {
    open(tag) {
      if (!isSheet(tag)) return;
      if (tag.local === "si") current = "";
      else if (tag.local === "rPh") phoneticDepth += 1;
      else if (tag.local === "t" && current !== undefined && phoneticDepth === 0) inText = true;
    },
    text(text) {
      if (inText) current += text;
    },
    close(tag) {
      if (!isSheet(tag)) return;
      if (tag.local === "t") inText = false;
      else if (tag.local === "rPh") phoneticDepth -= 1;
      else if (tag.local === "si") {
        // More strings than cells could ever use: a hostile table of millions of empty <si/> costs gigabytes.
        if (strings.length >= OFFICE_LIMITS.maxCells) {
          throw officeTooLarge(zip.label, `has more than ${OFFICE_LIMITS.maxCells} shared strings; Read extracts at most that many cells`, {
            limit: OFFICE_LIMITS.maxCells,
          });
        }
        strings.push(current ?? "");
        current = undefined;
      }
    },
  });
  return strings;
}
