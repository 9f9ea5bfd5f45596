import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { isSvgDocument, sniffImageMime } from "../shared/image-data.js";

// Reproduces an adversarial run: Image accepted an absolute path outside
// every root and, given mimeType, returned any file's bytes (/etc/shadow) as
// an "image".

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>\n';
const SECRET = "root:$6$saltsalt$SECRET-HASH-VALUE:19000:0:99999:7:::\n";

let ws: TestWorkspace;
let outside: string;
beforeEach(() => {
  outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), "image-outside-")));
});
afterEach(() => {
  ws?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

const images = (result: { content: Array<{ type: string }> }) => result.content.filter((block) => block.type === "image");

describe("Image outside the workspace and granted roots", () => {
  it("refuses a non-image file even with mimeType, and quotes none of it", async () => {
    ws = createTestWorkspace();
    const secret = path.join(outside, "shadow");
    writeFileSync(secret, SECRET);
    for (const args of [
      { path: secret, mimeType: "image/png" },
      { path: secret, mime_type: "image/jpeg" },
      { path: secret },
      { source: secret, mimeType: "image/png" },
    ]) {
      const result = await ws.call("Image", args);
      expect(result.isError).toBe(true);
      expect(images(result)).toEqual([]);
      expect(result.details).toMatchObject({ code: "unsupported_target" });
      expect(result.text).toContain("outside the workspace and granted roots");
      expect(result.text).toContain("Nothing of the file was sent");
      expect(result.text).not.toContain("SECRET");
      expect(JSON.stringify(result)).not.toContain(Buffer.from(SECRET).toString("base64").slice(0, 16));
    }
  });

  it("refuses a text file named like an image, and weak signatures (BM..., <svg without a document)", async () => {
    ws = createTestWorkspace();
    const cases = {
      "fake.png": SECRET,
      "notes.bmp": "BMW service notes: token=abc\n",
      "partial.svg": "<svg token=abc but not a document\n",
      "icon.ico": Buffer.from([0, 0, 1, 0, 0x41, 0x41, 0x41, 0x41]),
    };
    for (const [name, content] of Object.entries(cases)) {
      const file = path.join(outside, name);
      writeFileSync(file, content);
      const result = await ws.call("Image", { path: file, mimeType: "image/png" });
      expect(result.isError, name).toBe(true);
      expect(images(result)).toEqual([]);
    }
  });

  it.skipIf(!existsSync("/etc/passwd"))("refuses /etc/passwd and /etc/shadow", async () => {
    ws = createTestWorkspace();
    for (const file of ["/etc/passwd", "/etc/shadow"]) {
      if (!existsSync(file)) continue;
      const result = await ws.call("Image", { path: file, mimeType: "image/png" });
      expect(result.isError).toBe(true);
      expect(images(result)).toEqual([]);
      expect(result.text).not.toContain("root:");
    }
  });

  it("shows a real image, typed by its signature whatever mimeType says", async () => {
    ws = createTestWorkspace();
    const png = path.join(outside, "photo.jpg");
    writeFileSync(png, PNG);
    const svg = path.join(outside, "logo.svg");
    writeFileSync(svg, SVG);
    const result = await ws.call("Image", { paths: [png, svg], mimeType: "image/jpeg" });
    expect(result.isError, result.text).toBe(false);
    expect(images(result)).toEqual([
      { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
      { type: "image", data: Buffer.from(SVG).toString("base64"), mimeType: "image/svg+xml" },
    ]);
    expect(result.text).toContain("mimeType image/jpeg ignored: the file's bytes are image/png");
  });

  it("a missing external path gets no did-you-mean listing of the outside directory", async () => {
    ws = createTestWorkspace();
    writeFileSync(path.join(outside, "private-key.png"), PNG);
    const result = await ws.call("Image", { path: path.join(outside, "private-ke.png") });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "not_found" });
    expect(result.text).not.toContain("private-key");
  });
});

describe("Image inside the workspace", () => {
  it("types an image by its signature over the extension and mimeType", async () => {
    ws = createTestWorkspace({ "shot.jpg": PNG });
    const result = await ws.call("Image", { path: "shot.jpg", mimeType: "image/gif" });
    expect(result.isError, result.text).toBe(false);
    expect(images(result)).toEqual([{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }]);
  });

  it("base64 data keeps its caller's mimeType (the caller supplied the bytes)", async () => {
    ws = createTestWorkspace();
    const result = await ws.call("Image", { base64: PNG.toString("base64"), mimeType: "image/webp" });
    expect(images(result)).toEqual([{ type: "image", data: PNG.toString("base64"), mimeType: "image/webp" }]);
  });

  it("keeps trusting mimeType or the extension for bytes without a recognised signature (documented)", async () => {
    ws = createTestWorkspace({ "raw.bin": Buffer.from([1, 2, 3, 4]), "odd.png": Buffer.from([1, 2, 3, 4]) });
    expect(images(await ws.call("Image", { path: "raw.bin", mimeType: "image/png" }))).toHaveLength(1);
    expect(images(await ws.call("Image", { path: "odd.png" }))).toHaveLength(1);
    const refused = await ws.call("Image", { path: "raw.bin" });
    expect(refused.isError).toBe(true);
  });
});

describe("sniffImageMime", () => {
  it("recognises real signatures and rejects text that merely starts like one", () => {
    expect(sniffImageMime(PNG)).toBe("image/png");
    expect(sniffImageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageMime(Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"))).toBe("image/gif");
    expect(sniffImageMime(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"))).toBe("image/webp");
    expect(sniffImageMime(Buffer.from("\x00\x00\x00\x1cftypavif", "latin1"))).toBe("image/avif");
    const bmp = Buffer.alloc(30);
    bmp.write("BM", 0, "latin1");
    bmp.writeUInt32LE(26, 10);
    bmp.writeUInt32LE(12, 14);
    expect(sniffImageMime(bmp)).toBe("image/bmp");
    const ico = Buffer.alloc(26);
    ico.writeUInt16LE(1, 2);
    ico.writeUInt16LE(1, 4);
    ico.writeUInt32LE(4, 14);
    ico.writeUInt32LE(22, 18);
    expect(sniffImageMime(ico)).toBe("image/x-icon");
    expect(sniffImageMime(Buffer.from("BMW notes\n".repeat(5)))).toBeUndefined();
    expect(sniffImageMime(Buffer.from("GIF is a format\n"))).toBeUndefined();
    expect(sniffImageMime(Buffer.from(SECRET))).toBeUndefined();
  });

  it("accepts SVG only as a whole document", () => {
    expect(isSvgDocument(Buffer.from(SVG))).toBe(true);
    expect(isSvgDocument(Buffer.from("\uFEFF<svg/>"))).toBe(true);
    expect(isSvgDocument(Buffer.from('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg><!-- a --><g/></svg><!-- b -->'))).toBe(true);
    expect(isSvgDocument(Buffer.from("<svg> but never closed"))).toBe(false);
    expect(isSvgDocument(Buffer.from('<?xml version="1.0"?><html><svg></svg></html>'))).toBe(false);
    expect(isSvgDocument(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xff, 0x3c, 0x2f, 0x73, 0x76, 0x67, 0x3e]))).toBe(false);
  });
});
