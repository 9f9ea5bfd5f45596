import type { SaxesTagNS } from "saxes";
import { OfficeLines, oneLine } from "./office-lines.js";
import { type OfficeZip, attribute, officeDamaged, readRelationships, relationshipOfType } from "./office-zip.js";

/**
 * Text of a .docx: the main document's paragraphs in order, headings as
 * `#` lines, list items as `- ` / `1. ` (indented by level), table rows as
 * tab-separated cells, line breaks and tabs kept. Deleted text, field codes
 * and the fallback copies of text boxes are left out; headers, footers,
 * footnotes and comments are not read.
 */

const WORD_NAMESPACES = new Set(["http://schemas.openxmlformats.org/wordprocessingml/2006/main", "http://purl.oclc.org/ooxml/wordprocessingml/main"]);
const MC_NAMESPACE = "http://schemas.openxmlformats.org/markup-compatibility/2006";

const isWord = (tag: SaxesTagNS) => WORD_NAMESPACES.has(tag.uri);

interface StyleInfo {
  name?: string;
  outline?: number;
  basedOn?: string;
}

interface Paragraph {
  text: string;
  styleId?: string;
  outline?: number;
  numId?: string;
  ilvl: number;
}

interface TableState {
  row: string[] | undefined;
  cell: string[] | undefined;
}

/** Extracts a .docx's text as lines. */
export async function extractDocx(zip: OfficeZip): Promise<string[]> {
  const packageRels = await readRelationships(zip, "");
  const main = relationshipOfType(packageRels, "officeDocument") ?? "word/document.xml";
  if (!zip.has(main)) throw officeDamaged(zip.label, `no main document part ${main}`);
  const documentRels = await readRelationships(zip, main);
  const styles = await readStyles(zip, relationshipOfType(documentRels, "styles"));
  const numbering = await readNumbering(zip, relationshipOfType(documentRels, "numbering"));
  const out = new OfficeLines(zip.label);
  const paragraphs: Paragraph[] = [];
  const tables: TableState[] = [];
  const counters = new Map<string, number[]>();
  let fallbackDepth = 0;
  let propertiesDepth = 0;
  let inText = 0;
  let root: SaxesTagNS | undefined;

  const headingLevel = (paragraph: Paragraph): number => {
    if (paragraph.outline !== undefined && paragraph.outline < 9) return paragraph.outline + 1;
    let id = paragraph.styleId;
    for (let depth = 0; id !== undefined && depth < 10; depth += 1) {
      const style = styles.get(id);
      const name = style?.name?.toLowerCase();
      const numbered = name ? /^heading\s*([1-9])$/.exec(name) : /^heading([1-9])$/i.exec(id);
      if (numbered) return Number(numbered[1]);
      if (name === "title") return 1;
      if (style?.outline !== undefined && style.outline < 9) return style.outline + 1;
      id = style?.basedOn;
    }
    return 0;
  };

  const listPrefix = (paragraph: Paragraph): string => {
    if (paragraph.numId === undefined || paragraph.numId === "0") return "";
    const level = Math.min(paragraph.ilvl, 8);
    const format = numbering.get(paragraph.numId)?.get(level) ?? "bullet";
    const indent = "  ".repeat(level);
    if (format === "bullet" || format === "none") return `${indent}- `;
    const counts = counters.get(paragraph.numId) ?? [];
    counters.set(paragraph.numId, counts);
    counts[level] = (counts[level] ?? 0) + 1;
    counts.length = level + 1;
    return `${indent}${formatNumber(counts[level]!, format)}. `;
  };

  const finishParagraph = (paragraph: Paragraph) => {
    const prefix = listPrefix(paragraph);
    const table = tables[tables.length - 1];
    if (table?.cell) {
      table.cell.push(prefix + paragraph.text);
      return;
    }
    const lines = paragraph.text.split("\n");
    const level = prefix ? 0 : headingLevel(paragraph);
    const marker = level > 0 && paragraph.text.trim() ? `${"#".repeat(level)} ` : prefix;
    if (lines.length === 1 && lines[0] === "" && !prefix) return out.blank();
    lines.forEach((line, index) => out.push(index === 0 ? marker + line : line));
  };

  const inParagraphText = () => fallbackDepth === 0 && propertiesDepth === 0 && paragraphs.length > 0;
  const append = (text: string) => {
    const paragraph = paragraphs[paragraphs.length - 1];
    if (paragraph) paragraph.text += text;
  };

  await zip.parse(main, {
    open(tag) {
      root ??= tag;
      if (tag.uri === MC_NAMESPACE && tag.local === "Fallback") fallbackDepth += 1;
      if (fallbackDepth > 0 || !isWord(tag)) return;
      const paragraph = paragraphs[paragraphs.length - 1];
      switch (tag.local) {
        case "p":
          paragraphs.push({ text: "", ilvl: 0 });
          return;
        case "pPr":
        case "rPr":
        case "sectPr":
        case "tblPr":
        case "trPr":
        case "tcPr":
          propertiesDepth += 1;
          return;
        case "pStyle":
          if (paragraph && propertiesDepth > 0) paragraph.styleId = attribute(tag, "val");
          return;
        case "outlineLvl":
          if (paragraph && propertiesDepth > 0) paragraph.outline = Number(attribute(tag, "val"));
          return;
        case "numId":
          if (paragraph && propertiesDepth > 0) paragraph.numId = attribute(tag, "val");
          return;
        case "ilvl":
          if (paragraph && propertiesDepth > 0) paragraph.ilvl = listLevel(attribute(tag, "val"));
          return;
        case "t":
          if (inParagraphText()) inText += 1;
          return;
        case "tab":
        case "ptab":
          if (inParagraphText()) append("\t");
          return;
        case "br":
        case "cr":
          if (inParagraphText()) append("\n");
          return;
        case "noBreakHyphen":
          if (inParagraphText()) append("-");
          return;
        case "tbl":
          tables.push({ row: undefined, cell: undefined });
          return;
        case "tr":
          if (tables.length) tables[tables.length - 1]!.row = [];
          return;
        case "tc":
          if (tables.length) tables[tables.length - 1]!.cell = [];
          return;
      }
    },
    text(text) {
      if (inText > 0) append(text);
    },
    close(tag) {
      if (tag.uri === MC_NAMESPACE && tag.local === "Fallback") {
        fallbackDepth -= 1;
        return;
      }
      if (fallbackDepth > 0 || !isWord(tag)) return;
      const table = tables[tables.length - 1];
      switch (tag.local) {
        case "p": {
          const paragraph = paragraphs.pop();
          if (paragraph) finishParagraph(paragraph);
          return;
        }
        case "pPr":
        case "rPr":
        case "sectPr":
        case "tblPr":
        case "trPr":
        case "tcPr":
          propertiesDepth -= 1;
          return;
        case "t":
          if (inText > 0) inText -= 1;
          return;
        case "tc":
          if (table?.cell) table.row?.push(oneLine(table.cell.join(" ")));
          if (table) table.cell = undefined;
          return;
        case "tr": {
          if (!table?.row) return;
          const cells = trimTrailingEmpty(table.row);
          table.row = undefined;
          const parent = tables[tables.length - 2];
          if (parent?.cell) parent.cell.push(cells.join(" | "));
          else out.push(cells.join("\t"));
          return;
        }
        case "tbl":
          tables.pop();
          return;
      }
    },
  });
  if (!root || !isWord(root) || root.local !== "document") {
    throw officeDamaged(zip.label, `no Word document: its main part ${main} holds <${root ? `${root.local} in ${root.uri || "no namespace"}` : "nothing"}>`);
  }
  return out.finish();
}

function trimTrailingEmpty(cells: string[]): string[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === "") end -= 1;
  return cells.slice(0, end);
}

async function readStyles(zip: OfficeZip, part: string | undefined): Promise<Map<string, StyleInfo>> {
  const styles = new Map<string, StyleInfo>();
  if (!part) return styles;
  let current: StyleInfo | undefined;
  await zip.parse(part, {
    open(tag) {
      if (!isWord(tag)) return;
      if (tag.local === "style") {
        const id = attribute(tag, "styleId");
        current = attribute(tag, "type") === "paragraph" && id !== undefined ? {} : undefined;
        if (current && id !== undefined) styles.set(id, current);
      } else if (current && tag.local === "name") current.name = attribute(tag, "val");
      else if (current && tag.local === "basedOn") current.basedOn = attribute(tag, "val");
      else if (current && tag.local === "outlineLvl") current.outline = Number(attribute(tag, "val"));
    },
    close(tag) {
      if (isWord(tag) && tag.local === "style") current = undefined;
    },
  });
  return styles;
}

/** numId → (level → number format), from numbering.xml. */
async function readNumbering(zip: OfficeZip, part: string | undefined): Promise<Map<string, Map<number, string>>> {
  const result = new Map<string, Map<number, string>>();
  if (!part) return result;
  const abstracts = new Map<string, Map<number, string>>();
  const nums = new Map<string, string>();
  let abstract: Map<number, string> | undefined;
  let level: number | undefined;
  let num: string | undefined;
  await zip.parse(part, {
    open(tag) {
      if (!isWord(tag)) return;
      if (tag.local === "abstractNum") {
        abstract = new Map();
        abstracts.set(attribute(tag, "abstractNumId") ?? "", abstract);
      } else if (tag.local === "lvl" && abstract) level = listLevel(attribute(tag, "ilvl"));
      else if (tag.local === "numFmt" && abstract && level !== undefined) abstract.set(level, attribute(tag, "val") ?? "decimal");
      else if (tag.local === "num") num = attribute(tag, "numId");
      else if (tag.local === "abstractNumId" && num !== undefined) nums.set(num, attribute(tag, "val") ?? "");
    },
    close(tag) {
      if (!isWord(tag)) return;
      if (tag.local === "abstractNum") abstract = undefined;
      else if (tag.local === "lvl") level = undefined;
      else if (tag.local === "num") num = undefined;
    },
  });
  for (const [numId, abstractId] of nums) result.set(numId, abstracts.get(abstractId) ?? new Map());
  return result;
}

/** A list level attribute as Word's 0 to 8 (hostile files give negative, fractional or huge ones). */
function listLevel(value: string | undefined): number {
  const level = Math.trunc(Number(value));
  return Number.isFinite(level) ? Math.max(0, Math.min(8, level)) : 0;
}

/** A list counter in a Word number format (decimal, letters, roman). */
export function formatNumber(value: number, format: string): string {
  switch (format) {
    case "lowerLetter":
    case "upperLetter": {
      const letter = String.fromCharCode(97 + ((value - 1) % 26)).repeat(Math.floor((value - 1) / 26) + 1);
      return format === "upperLetter" ? letter.toUpperCase() : letter;
    }
    case "lowerRoman":
    case "upperRoman": {
      const roman = toRoman(value);
      return format === "lowerRoman" ? roman.toLowerCase() : roman;
    }
    case "decimalZero":
      return String(value).padStart(2, "0");
    default:
      return String(value);
  }
}

function toRoman(value: number): string {
  if (value <= 0 || value >= 4000) return String(value);
  const numerals: Array<[number, string]> = [
    [1000, "M"],
    [900, "CM"],
    [500, "D"],
    [400, "CD"],
    [100, "C"],
    [90, "XC"],
    [50, "L"],
    [40, "XL"],
    [10, "X"],
    [9, "IX"],
    [5, "V"],
    [4, "IV"],
    [1, "I"],
  ];
  let rest = value;
  let text = "";
  for (const [amount, numeral] of numerals) {
    while (rest >= amount) {
      text += numeral;
      rest -= amount;
    }
  }
  return text;
}
