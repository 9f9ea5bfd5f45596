/** Largest image the file tools return inline, in bytes. */
export const MAX_IMAGE_BYTES = 25 * 1024 * 1024;

/** File extensions Read treats as images, with their MIME types. */
export const IMAGE_MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  ico: "image/x-icon",
};

/** Formats {@link sniffImageMime} recognises, for messages. */
export const SNIFFED_IMAGE_FORMATS = "PNG, JPEG, GIF, WebP, AVIF, BMP, ICO or SVG";

/** DIB header sizes of the BMP variants (core, v1-v5, OS/2 v2). */
const BMP_DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/**
 * The MIME type of image bytes from their signature, if recognised. The
 * checks are strict enough that a text file never passes: PNG's full 8-byte
 * signature, `GIF87a`/`GIF89a`, RIFF+WEBP, an ISO-BMFF `ftyp` box with an
 * AVIF brand, BMP's reserved fields and DIB header size, ICO's directory,
 * and SVG only as a whole UTF-8 document whose root element is `<svg`
 * ({@link isSvgDocument}).
 */
export function sniffImageMime(bytes: Uint8Array): string | undefined {
  const at = (offset: number, ...values: number[]) => values.every((value, index) => bytes[offset + index] === value);
  const ascii = (offset: number, text: string) => at(offset, ...Array.from(text, (char) => char.charCodeAt(0)));
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(4, "ftyp") && (ascii(8, "avif") || ascii(8, "avis"))) return "image/avif";
  if (isBmp(bytes)) return "image/bmp";
  if (isIco(bytes)) return "image/x-icon";
  if (isSvgDocument(bytes)) return "image/svg+xml";
  return undefined;
}

/** `BM`, zero reserved fields, a pixel offset inside the file and a known DIB header size. */
function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(6, true) !== 0) return false;
  const pixelOffset = view.getUint32(10, true);
  return pixelOffset >= 26 && pixelOffset <= bytes.length && BMP_DIB_HEADER_SIZES.has(view.getUint32(14, true));
}

/** `00 00 01 00`, 1-255 images, each directory entry's reserved byte 0 and its data inside the file. */
function isIco(bytes: Uint8Array): boolean {
  if (bytes.length < 22 || bytes[0] !== 0 || bytes[1] !== 0 || bytes[2] !== 1 || bytes[3] !== 0) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(4, true);
  if (count === 0 || count > 255 || bytes.length < 6 + 16 * count) return false;
  for (let index = 0; index < count; index += 1) {
    const entry = 6 + 16 * index;
    if (bytes[entry + 3] !== 0) return false;
    const size = view.getUint32(entry + 8, true);
    const offset = view.getUint32(entry + 12, true);
    if (size === 0 || offset < 6 + 16 * count || offset + size > bytes.length) return false;
  }
  return true;
}

/**
 * True when `bytes` are a whole SVG document: valid UTF-8; after an optional
 * BOM, XML declaration, comments, processing instructions and DOCTYPE, the
 * root element is `<svg`; the document ends with `</svg>` (or a self-closed
 * root), optionally followed by comments and whitespace.
 *
 * @example
 * isSvgDocument(Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')); // true
 */
export function isSvgDocument(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  let rest = text.replace(/^\uFEFF/, "");
  // The prolog: XML declaration, processing instructions, comments, DOCTYPE (with an internal subset).
  const prolog = /^\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE\s[^[>]*(?:\[[\s\S]*?\])?\s*>)/i;
  for (let match = prolog.exec(rest); match; match = prolog.exec(rest)) rest = rest.slice(match[0].length);
  rest = rest.trimStart();
  if (!/^<svg[\s/>]/.test(rest)) return false;
  let end = rest.trimEnd();
  // Trailing comments (a comment cannot contain "--", so the last "<!--" opens the last one).
  while (end.endsWith("-->") && end.lastIndexOf("<!--") > 0) end = end.slice(0, end.lastIndexOf("<!--")).trimEnd();
  if (end.endsWith("</svg>")) return true;
  // A self-closed root: `<svg .../>` and nothing after it.
  return /^<svg[^<>]*\/>$/.test(end);
}

/** Lower-case extension without the dot ("" when none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}
