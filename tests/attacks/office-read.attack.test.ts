/**
 * Attacks on Read's Office extraction (.docx, .xlsx and the other workbook
 * forms), with the file as the hostile party: the model Reads a workspace
 * file someone else made, through `executeToolCall` of a registry from
 * `buildBuiltinToolRegistry`. Every read must end with a clear answer, in
 * bounded memory and time, without touching anything but the one file.
 *
 * What worked before the fixes (each a few hundred KB compressed):
 * - XML nested millions deep: the parser's namespace lookup walks the open
 *   tags, so each tag cost its depth (more than 3 minutes, still running);
 * - one element with millions of attributes (3.9 GB, still running after
 *   3 minutes);
 * - a sheet of rows holding one empty cell at column XFD: each row padded
 *   16,384 entries (more than 5 minutes for a 59 KB file);
 * - 50 million empty shared strings (1.8 GB, 70 s).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32, forgeZip } from "./zip-forge.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-office-")));
const workdir = path.join(temporary, "project");
let registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
beforeAll(async () => {
  fs.mkdirSync(workdir);
  registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data"), memory: false });
});
afterAll(async () => {
  await registry.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function part(name: string, content: string | Buffer) {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  return { name, data: deflateRawSync(bytes, { level: 9 }), declaredSize: bytes.length, crc: crc32(bytes) };
}

const packageRels = (main: string) =>
  `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${REL}/officeDocument" Target="${main}"/></Relationships>`;

/** A .docx whose main part is `document`. */
function docx(document: string | Buffer): Uint8Array {
  return forgeZip([part("_rels/.rels", packageRels("word/document.xml")), part("word/document.xml", document)]);
}

/** A workbook with one sheet per `sheets` entry ([name, relationship target]), the parts given, and extra workbook relationships. */
function xlsx(options: { sheets?: Array<[string, string]>; parts?: Record<string, string | Buffer>; rels?: string }): Uint8Array {
  const sheets = options.sheets ?? [["Sheet1", "worksheets/sheet1.xml"]];
  const workbook = `<workbook xmlns="${S}" xmlns:r="${REL}"><sheets>${sheets.map(([name], index) => `<sheet name="${name}" sheetId="${index + 1}" r:id="s${index}"/>`).join("")}</sheets></workbook>`;
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map(([, target], index) => `<Relationship Id="s${index}" Type="${REL}/worksheet" Target="${target}"/>`).join("")}${options.rels ?? ""}</Relationships>`;
  return forgeZip([
    part("_rels/.rels", packageRels("xl/workbook.xml")),
    part("xl/workbook.xml", workbook),
    part("xl/_rels/workbook.xml.rels", rels),
    ...Object.entries(options.parts ?? {}).map(([name, content]) => part(name, content)),
  ]);
}

const sheetXml = (rows: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`<worksheet xmlns="${S}"><sheetData>`),
    Buffer.isBuffer(rows) ? rows : Buffer.from(rows),
    Buffer.from("</sheetData></worksheet>"),
  ]);

async function read(name: string, bytes: Uint8Array | undefined, signal?: AbortSignal) {
  if (bytes !== undefined) fs.writeFileSync(path.join(workdir, name), bytes);
  const result = await registry.executeToolCall({ id: `read-${name}-${Math.random()}`, name: "Read", arguments: { path: name } }, { signal });
  return { ...result, text: toolResultText(result, "") };
}

describe("attack: hostile Office files read by Read", () => {
  it("refuses XML nested millions deep (plain and Word table tags) as damaged", async () => {
    const opening = Buffer.from(`<w:document xmlns:w="${W}"><w:body>`);
    for (const [name, tag] of [
      ["deep.docx", "<a>"],
      ["deep-tables.docx", "<w:tbl>"],
    ] as const) {
      const result = await read(name, docx(Buffer.concat([opening, Buffer.from(tag.repeat(6_000_000))])));
      expect(result.details, result.text).toMatchObject({ code: "unsupported_target" });
      expect(result.text).toContain("nests XML elements more than 256 deep");
    }
  }, 120_000);

  it("refuses an element with two million attributes", async () => {
    const attributes = Array.from({ length: 2_000_000 }, (_, index) => `a${index.toString(36)}=""`).join(" ");
    const result = await read("attributes.docx", docx(`<w:document xmlns:w="${W}"><w:body><w:p ${attributes}/></w:body></w:document>`));
    expect(result.details, result.text).toMatchObject({ code: "unsupported_target" });
    expect(result.text).toContain("more than 1000 attributes");
  }, 120_000);

  it("reads 400,000 rows of one empty cell at column XFD as an empty sheet (no 16k-column padding per row)", async () => {
    const result = await read("xfd.xlsx", xlsx({ parts: { "xl/worksheets/sheet1.xml": sheetXml('<row><c r="XFD1"/></row>'.repeat(400_000)) } }));
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain("(empty sheet)");
    // A value at XFD is kept in its column; a cell without a reference follows the empty one before it.
    const placed = await read(
      "xfd-value.xlsx",
      xlsx({
        parts: {
          "xl/worksheets/sheet1.xml": sheetXml(
            '<row r="1"><c r="C1"/><c t="inlineStr"><is><t>after</t></is></c></row><row r="2"><c r="XFD2" t="inlineStr"><is><t>far</t></is></c></row>',
          ),
        },
      }),
    );
    expect(placed.isError, placed.text).toBe(false);
    expect(placed.text).toContain("\t\t\tafter");
    expect(placed.text).toContain(`${"\t".repeat(16_383)}far`);
  }, 120_000);

  it("refuses a shared-string table of more strings than the cell cap", async () => {
    const strings = Buffer.concat([Buffer.from(`<sst xmlns="${S}">`), Buffer.from("<si/>".repeat(2_000_000)), Buffer.from("</sst>")]);
    const result = await read(
      "strings.xlsx",
      xlsx({
        parts: { "xl/worksheets/sheet1.xml": sheetXml('<row><c t="s"><v>1</v></c></row>'), "xl/sharedStrings.xml": strings },
        rels: `<Relationship Id="ss" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`,
      }),
    );
    expect(result.details, result.text).toMatchObject({ code: "too_large" });
    expect(result.text).toContain("shared strings");
  }, 120_000);

  it("expands no entity: a billion laughs and an external entity to /etc/passwd are damaged XML", async () => {
    const doctype = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY x SYSTEM "file:///etc/passwd">]>`;
    for (const entity of ["&c;", "&x;"]) {
      const result = await read(
        "entities.docx",
        docx(`${doctype}<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>${entity}</w:t></w:r></w:p></w:body></w:document>`),
      );
      expect(result.details, result.text).toMatchObject({ code: "unsupported_target" });
      expect(result.text).toContain("undefined entity");
      expect(result.text).not.toContain("root:");
    }
  });

  it("pollutes no prototype and reads nothing outside the zip (__proto__ names and indexes, ../ and absolute targets)", async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const outside = path.join(temporary, "outside.xml");
    fs.writeFileSync(outside, `<worksheet xmlns="${S}"><sheetData><row><c t="inlineStr"><is><t>OUTSIDE-SECRET</t></is></c></row></sheetData></worksheet>`);
    const cells =
      '<row><c t="s"><v>__proto__</v></c><c t="s"><v>99</v></c><c t="s"><v>-1</v></c><c s="__proto__" t="n"><v>45000</v></c><c s="-3"><v>1</v></c><c s="NaN"><v>2</v></c></row>';
    const result = await read(
      "proto.xlsx",
      xlsx({
        sheets: [
          ["__proto__", "worksheets/sheet1.xml"],
          ["constructor", "../../../../outside.xml"],
          ["abs", outside],
          ["dup", "worksheets/sheet1.xml"],
        ],
        parts: { "xl/worksheets/sheet1.xml": sheetXml(cells), "xl/sharedStrings.xml": `<sst xmlns="${S}"><si><t>only</t></si></sst>` },
        rels: `<Relationship Id="ss" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="st" Type="${REL}/styles" Target="../../../${outside}"/>`,
      }),
    );
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain("## Sheet 1: __proto__");
    expect(result.text).toContain("(sheet part missing)");
    expect(result.text).not.toContain("OUTSIDE-SECRET");
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers at once for a FIFO named x.docx and refuses a .docx symlink leading out", async () => {
    const fifo = path.join(workdir, "x.docx");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [fifo]);
    const result = await read("x.docx", undefined);
    expect(result.isError).toBe(true);
    fs.rmSync(fifo);
    const secret = path.join(temporary, "secret.docx");
    fs.writeFileSync(secret, docx(`<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>OUTSIDE-DOC</w:t></w:r></w:p></w:body></w:document>`));
    fs.symlinkSync(secret, path.join(workdir, "link.docx"));
    const linked = await read("link.docx", undefined);
    expect(linked.details).toMatchObject({ code: "out_of_bounds" });
    expect(linked.text).not.toContain("OUTSIDE-DOC");
  });

  it("stops a long parse when the call is aborted", async () => {
    // 120 MB of tags at depth 3: a parse of tens of seconds.
    const body = Buffer.concat([
      Buffer.from(`<w:document xmlns:w="${W}"><w:body><w:p>`),
      Buffer.from("<w:b/>".repeat(20_000_000)),
      Buffer.from("</w:p></w:body></w:document>"),
    ]);
    const bytes = docx(body);
    const controller = new AbortController();
    const pending = read("slow.docx", bytes, controller.signal);
    // Measured: the answer came 2 ms after the abort (the parse checks the signal at every inflated chunk).
    setTimeout(() => controller.abort(new Error("stopped by the host")), 300);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
    const already = new AbortController();
    already.abort();
    expect((await read("slow.docx", undefined, already.signal)).isError).toBe(true);
  }, 120_000);
});
