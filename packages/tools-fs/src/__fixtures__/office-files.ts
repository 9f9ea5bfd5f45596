import { createDeflateRaw } from "node:zlib";
import { strToU8, zipSync } from "fflate";

/**
 * Office files for Read's tests, written from hand-written OOXML parts and
 * zipped with fflate (a real zip writer), plus hostile zips made byte by byte.
 */

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;
const zip = (parts: Record<string, string>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)])), { level: 6 }));

/** A paragraph of plain text, optionally styled or in a list. */
export function paragraph(text: string, options: { style?: string; numId?: number; ilvl?: number } = {}): string {
  const numbering = options.numId === undefined ? "" : `<w:numPr><w:ilvl w:val="${options.ilvl ?? 0}"/><w:numId w:val="${options.numId}"/></w:numPr>`;
  const properties = options.style || numbering ? `<w:pPr>${options.style ? `<w:pStyle w:val="${options.style}"/>` : ""}${numbering}</w:pPr>` : "";
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

/** A table of plain-text cells. */
export function table(rows: string[][]): string {
  return `<w:tbl><w:tblPr/>${rows.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${paragraph(cell)}</w:tc>`).join("")}</w:tr>`).join("")}</w:tbl>`;
}

const DOCX_STYLES = xml(
  `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Titre1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style><w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`,
);

const DOCX_NUMBERING = xml(
  `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum><w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="lowerLetter"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`,
);

/** A .docx whose body is `body` (WordprocessingML), with heading styles and a bullet (numId 1) and a numbered (numId 2) list. */
export function makeDocx(body: string, extraParts: Record<string, string> = {}): Buffer {
  return zip({
    "[Content_Types].xml": xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": xml(`<Relationships ${PKG_RELS}><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="word/document.xml"/></Relationships>`),
    "word/_rels/document.xml.rels": xml(
      `<Relationships ${PKG_RELS}><Relationship Id="rId1" Type="${RELS}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${RELS}/numbering" Target="numbering.xml"/></Relationships>`,
    ),
    "word/document.xml": xml(`<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`),
    "word/styles.xml": DOCX_STYLES,
    "word/numbering.xml": DOCX_NUMBERING,
    ...extraParts,
  });
}

/** A worksheet for {@link makeXlsx}: its name and the XML of its `<sheetData>` children. */
export interface SheetSpec {
  name: string;
  rows: string;
  state?: "hidden";
}

/**
 * A workbook: `sharedStrings` become xl/sharedStrings.xml; styles hold
 * cellXfs 0 = General, 1 = builtin date (14), 2 = custom "yyyy-mm-dd hh:mm",
 * 3 = custom "0.00", 4 = time "h:mm:ss".
 */
export function makeXlsx(sheets: SheetSpec[], sharedStrings: string[], options: { date1904?: boolean } = {}): Buffer {
  const parts: Record<string, string> = {
    "[Content_Types].xml": xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    "_rels/.rels": xml(`<Relationships ${PKG_RELS}><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    "xl/workbook.xml": xml(
      `<workbook ${MAIN} xmlns:r="${RELS}"><workbookPr${options.date1904 ? ' date1904="1"' : ""}/><sheets>${sheets
        .map((sheet, index) => `<sheet name="${sheet.name}" sheetId="${index + 1}"${sheet.state ? ` state="${sheet.state}"` : ""} r:id="rId${index + 10}"/>`)
        .join("")}</sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": xml(
      `<Relationships ${PKG_RELS}><Relationship Id="rId1" Type="${RELS}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId2" Type="${RELS}/styles" Target="/xl/styles.xml"/>${sheets
        .map((_, index) => `<Relationship Id="rId${index + 10}" Type="${RELS}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`)
        .join("")}</Relationships>`,
    ),
    "xl/sharedStrings.xml": xml(
      `<sst ${MAIN} count="${sharedStrings.length}" uniqueCount="${sharedStrings.length}">${sharedStrings.map((text) => `<si><t xml:space="preserve">${text}</t></si>`).join("")}</sst>`,
    ),
    "xl/styles.xml": xml(
      `<styleSheet ${MAIN}><numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/><numFmt numFmtId="165" formatCode="0.00"/><numFmt numFmtId="166" formatCode="[$-409]h:mm:ss\\ AM/PM"/></numFmts><cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/><xf numFmtId="166" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ),
  };
  sheets.forEach((sheet, index) => {
    parts[`xl/worksheets/sheet${index + 1}.xml`] = xml(`<worksheet ${MAIN}><sheetData>${sheet.rows}</sheetData></worksheet>`);
  });
  return zip(parts);
}

/** One zip member for {@link makeRawZip}: bytes as stored, method 0 (stored) or 8 (deflate), and the uncompressed size its headers declare. */
export interface RawZipEntry {
  name: string;
  data: Buffer;
  method: 0 | 8;
  declaredSize: number;
}

/** A zip written byte by byte, so its headers can say what a hostile file would say. */
export function makeRawZip(entries: RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, entry.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Raw-deflates `head`, then `repeat` MiB of spaces, then `tail`, streaming (the whole text is never in memory). */
export async function deflateHuge(head: string, repeatMiB: number, tail: string): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  deflate.write(head);
  for (let index = 0; index < repeatMiB; index += 1) {
    if (!deflate.write(spaces)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end(tail);
  await done;
  return Buffer.concat(out);
}

/** The parts every .docx has besides word/document.xml, as raw stored zip entries. */
export function docxSkeletonEntries(): RawZipEntry[] {
  const stored = (name: string, text: string): RawZipEntry => ({ name, data: Buffer.from(text), method: 0, declaredSize: Buffer.byteLength(text) });
  return [
    stored(
      "[Content_Types].xml",
      xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>'),
    ),
    stored("_rels/.rels", xml(`<Relationships ${PKG_RELS}><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="word/document.xml"/></Relationships>`)),
  ];
}

/** The opening of a WordprocessingML document, for hand-made hostile parts. */
export const DOCUMENT_HEAD = xml(`<w:document ${W}><w:body><w:p><w:r><w:t>start</w:t></w:r></w:p>`);
/** The end of {@link DOCUMENT_HEAD}'s document. */
export const DOCUMENT_TAIL = "</w:body></w:document>";
