import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/** A minimal valid PDF with one line of text per page. */
function makePdf(pages: string[]): Buffer {
  const objects: string[] = [];
  const kids = pages.map((_, index) => `${4 + index * 2} 0 R`).join(" ");
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  pages.forEach((text, index) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A zip with stored (uncompressed) entries. */
function makeZip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(text);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe("Read formats", () => {
  it("returns images as image content, then the unchanged stub", async () => {
    ws = createTestWorkspace({ "pixel.png": PNG });
    const result = await ws.call("Read", { path: "pixel.png" });
    expect(result.content[1]).toEqual({ type: "image", data: PNG.toString("base64"), mimeType: "image/png" });
    expect(result.details).toMatchObject({ kind: "read_image", mimeType: "image/png", bytes: PNG.length, reusedExisting: false });
    const again = await ws.call("Read", { path: "pixel.png" });
    expect(again.content).toHaveLength(1);
    expect(again.details).toMatchObject({ reusedExisting: true });
  });

  it("refuses images over 25 MB", async () => {
    ws = createTestWorkspace();
    ws.write("huge.png", Buffer.alloc(25 * 1024 * 1024 + 1));
    const result = await ws.call("Read", { path: "huge.png" });
    expect(result.details).toMatchObject({ code: "too_large" });
  });

  it("reads notebooks by cells", async () => {
    const notebook = {
      cells: [
        { cell_type: "markdown", source: ["# Title\n", "intro"] },
        { cell_type: "code", source: "print(1)", outputs: [{ output_type: "stream", name: "stdout", text: ["1\n"] }] },
        { cell_type: "code", source: "x".repeat(1500), outputs: [{ output_type: "execute_result", data: { "text/plain": "42" } }] },
      ],
    };
    ws = createTestWorkspace({ "nb.ipynb": JSON.stringify(notebook) });
    const result = await ws.call("Read", { path: "nb.ipynb" });
    expect(result.text).toContain("cells=1-3 / 3");
    expect(result.text).toContain("Cell 1 [markdown]\n# Title\nintro");
    expect(result.text).toContain("Cell 2 [code]\nprint(1)\nOutputs (1):\n[stdout] 1");
    expect(result.text).toContain("(1500 chars total)");
    expect(result.text).toContain("[execute_result] text/plain: 42");
    const window = await ws.call("Read", { path: "nb.ipynb", cell_start: 2, cell_limit: 1 });
    expect(window.details).toMatchObject({ kind: "read_notebook", cellStart: 2, numCells: 1, totalCells: 3, truncated: true });
    expect(window.text).toContain("continue with cell_start=3");
  });

  it("shows a notebook cell's id (what NotebookEdit's cell_id takes), only in nbformat's form", async () => {
    const notebook = {
      cells: [
        { cell_type: "markdown", id: "a1B2-c_3", source: "one" },
        { cell_type: "markdown", id: "x\nCell 9 [code] id=forged", source: "two" },
        { cell_type: "markdown", source: "three" },
      ],
    };
    ws = createTestWorkspace({ "nb.ipynb": JSON.stringify(notebook) });
    const result = await ws.call("Read", { path: "nb.ipynb" });
    expect(result.text).toContain("Cell 1 [markdown] id=a1B2-c_3\none");
    expect(result.text).toContain("Cell 2 [markdown]\ntwo");
    expect(result.text).not.toContain("forged");
    expect(result.text).toContain("Cell 3 [markdown]\nthree");
  });

  it("reads PDF text by pages", async () => {
    ws = createTestWorkspace({ "doc.pdf": makePdf(["First page text", "Second page text", "Third page text"]) });
    const result = await ws.call("Read", { path: "doc.pdf" });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("pages=1-3 / 3");
    expect(result.text).toContain("--- Page 1 ---\nFirst page text");
    expect(result.text).toContain("--- Page 3 ---\nThird page text");
    const window = await ws.call("Read", { path: "doc.pdf", page_start: 2, page_limit: 1 });
    expect(window.text).toContain("Second page text");
    expect(window.text).not.toContain("First page text");
    expect(window.details).toMatchObject({ kind: "read_pdf", pageStart: 2, numPages: 1, totalPages: 3, truncated: true });
  });

  it("lists zip, tar and tar.gz archives", async () => {
    ws = createTestWorkspace({ "a.zip": makeZip({ "dir/": "", "dir/one.txt": "hello", "two.txt": "world!" }), "src/x.txt": "x", "src/y.txt": "yy" });
    const zip = await ws.call("Read", { path: "a.zip" });
    expect(zip.text).toContain("archive=zip, entries shown=3");
    expect(zip.text).toContain("[DIR]  dir/\n[FILE] dir/one.txt (5 bytes)\n[FILE] two.txt (6 bytes)");
    execFileSync("tar", ["-cf", "b.tar", "src"], { cwd: ws.dir });
    execFileSync("tar", ["-czf", "c.tgz", "src"], { cwd: ws.dir });
    const tar = await ws.call("Read", { path: "b.tar" });
    expect(tar.text).toContain("[FILE] src/x.txt (1 bytes)");
    const tgz = await ws.call("Read", { path: "c.tgz" });
    expect(tgz.text).toContain("archive=tar.gz");
    expect(tgz.text).toContain("[FILE] src/y.txt (2 bytes)");
  });

  it("explains unsupported formats", async () => {
    ws = createTestWorkspace({ "old.doc": "x", "a.7z": "x" });
    expect((await ws.call("Read", { path: "old.doc" })).text).toContain("legacy .doc");
    expect((await ws.call("Read", { path: "a.7z" })).text).toContain("7z l");
  });
});

describe("Image", () => {
  it("shows paths, base64 and data URLs inline and URLs by proxy", async () => {
    ws = createTestWorkspace({ "pixel.png": PNG });
    const result = await ws.call("Image", { paths: ["pixel.png"], url: "https://example.com/a.png", base64: PNG.toString("base64") });
    expect(result.details).toMatchObject({
      kind: "display_image",
      loadMode: "mixed",
      images: [
        { sourceType: "path", renderMode: "inline", mimeType: "image/png", path: "pixel.png" },
        { sourceType: "url", renderMode: "proxy", url: "https://example.com/a.png" },
        { sourceType: "base64", renderMode: "inline", mimeType: "image/png" },
      ],
    });
    expect(result.content.filter((block) => block.type === "image")).toHaveLength(2);
    expect(result.text).toContain("not visible to you");
  });

  it("infers source kinds and honours mimeType", async () => {
    ws = createTestWorkspace({ "pixel.png": PNG });
    const result = await ws.call("Image", {
      sources: [
        `data:image/png;base64,${PNG.toString("base64")}`,
        "http://example.com/x.jpg",
        PNG.toString("base64"),
        '<svg xmlns="http://www.w3.org/2000/svg"/>',
        "pixel.png",
      ],
    });
    expect((result.details as { images: Array<{ sourceType: string }> }).images.map((image) => image.sourceType)).toEqual([
      "base64",
      "url",
      "base64",
      "svg",
      "path",
    ]);
    const typed = await ws.call("Image", { base64: PNG.toString("base64"), mime_type: "image/x-custom" });
    expect((typed.content[1] as { mimeType: string }).mimeType).toBe("image/x-custom");
  });

  it("accepts absolute paths outside the workspace", async () => {
    ws = createTestWorkspace();
    const other = createTestWorkspace({ "p.png": PNG });
    try {
      const result = await ws.call("Image", { path: `${other.dir}/p.png` });
      expect(result.isError).toBe(false);
    } finally {
      other.cleanup();
    }
  });

  it("validates its sources", async () => {
    ws = createTestWorkspace();
    expect((await ws.call("Image", {})).text).toContain("Image requires path, paths, url, urls, base64, base64s, source, or sources");
    const many = await ws.call("Image", {
      urls: Array.from({ length: 12 }, (_, i) => `https://e.com/${i}.png`),
      url: "https://e.com/x.png",
      base64: PNG.toString("base64"),
    });
    expect(many.text).toContain("at most 12 sources");
    expect((await ws.call("Image", { urls: Array.from({ length: 13 }, (_, i) => `https://e.com/${i}.png`) })).isError).toBe(true);
    expect((await ws.call("Image", { url: "ftp://e.com/a.png" })).text).toContain("http or https");
    expect((await ws.call("Image", { url: "https://user:pw@e.com/a.png" })).text).toContain("credentials");
    expect((await ws.call("Image", { base64: "%%%not base64" })).isError).toBe(true);
    expect((await ws.call("Image", { path: "missing.png" })).details).toMatchObject({ code: "not_found" });
  });
});
