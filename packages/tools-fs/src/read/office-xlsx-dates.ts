import type { SaxesTagNS } from "saxes";
import { type OfficeZip, attribute } from "./office-zip.js";

/**
 * Which workbook cell styles show numbers as dates or times, and the
 * conversion of Excel's serial day numbers to ISO text.
 */

/** How a date-formatted number is shown. */
export type DateKind = "date" | "datetime" | "time";

/** The date kind of each cell style (`s` attribute, an index into cellXfs). */
export interface DateStyles {
  kindOf(style: number): DateKind | undefined;
}

const SHEET_NAMESPACES = new Set(["http://schemas.openxmlformats.org/spreadsheetml/2006/main", "http://purl.oclc.org/ooxml/spreadsheetml/main"]);
const isSheet = (tag: SaxesTagNS) => SHEET_NAMESPACES.has(tag.uri);

/** Built-in number formats that are dates or times (ECMA-376 18.8.30, with the East Asian ones). */
const BUILTIN: Record<number, DateKind> = {
  14: "date",
  15: "date",
  16: "date",
  17: "date",
  18: "time",
  19: "time",
  20: "time",
  21: "time",
  22: "datetime",
  27: "date",
  28: "date",
  29: "date",
  30: "date",
  31: "date",
  32: "time",
  33: "time",
  34: "time",
  35: "time",
  36: "date",
  45: "time",
  46: "time",
  47: "time",
  50: "date",
  51: "date",
  52: "date",
  53: "date",
  54: "date",
  55: "date",
  56: "date",
  57: "date",
  58: "date",
};

/** The date kind of a number format code, or undefined when it is not a date or time. */
export function dateKindOfFormat(code: string): DateKind | undefined {
  const section = (code.split(";")[0] ?? "")
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/[_*]./g, "")
    .replace(/\[(h+|m+|s+)\]/gi, "$1")
    .replace(/\[[^\]]*\]/g, "")
    .toLowerCase();
  if (section === "general" || !/[dmyhs]/.test(section)) return undefined;
  const hasDate = /[dy]/.test(section) || (/m/.test(section) && !/[hs]/.test(section));
  const hasTime = /[hs]/.test(section);
  if (hasDate && hasTime) return "datetime";
  return hasDate ? "date" : "time";
}

/** Reads styles.xml: custom number formats and the cellXfs list. */
export async function readDateStyles(zip: OfficeZip, part: string | undefined): Promise<DateStyles> {
  const custom = new Map<number, string>();
  const xfFormats: number[] = [];
  if (part) {
    let inCellXfs = false;
    await zip.parse(part, {
      open(tag) {
        if (!isSheet(tag)) return;
        if (tag.local === "numFmt") custom.set(Number(attribute(tag, "numFmtId")), attribute(tag, "formatCode") ?? "");
        else if (tag.local === "cellXfs") inCellXfs = true;
        else if (tag.local === "xf" && inCellXfs) xfFormats.push(Number(attribute(tag, "numFmtId") ?? 0));
      },
      close(tag) {
        if (isSheet(tag) && tag.local === "cellXfs") inCellXfs = false;
      },
    });
  }
  const kinds = xfFormats.map((id) => (custom.has(id) ? dateKindOfFormat(custom.get(id)!) : BUILTIN[id]));
  return { kindOf: (style) => kinds[style] };
}

const DAY_MS = 86_400_000;
/** Serial day 0 of the 1900 system, as Excel counts after its 1900-02-29 (which did not exist). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** An Excel serial day number as ISO text (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or HH:MM:SS); undefined when out of range. */
export function formatSerialDate(serial: number, kind: DateKind, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return undefined;
  let days = serial;
  if (!date1904 && days < 60) days += 1; // Excel's serial 60 is the non-existent 1900-02-29
  const time = Math.round(((days - Math.floor(days)) * DAY_MS) / 1000) * 1000;
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + Math.floor(days) * DAY_MS + time;
  const iso = new Date(ms).toISOString();
  if (kind === "time") return iso.slice(11, 19);
  if (kind === "date" && time === 0) return iso.slice(0, 10);
  return iso.slice(0, 19);
}
