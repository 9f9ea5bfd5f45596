/**
 * Maps what `resources/read` returned into what the model sees. The contents
 * came from the server and are untrusted: each block is headed with the
 * server and URI it came from; text is capped per read; a blob becomes an
 * image only when its base64 is valid, it is small enough and its bytes are
 * the image its declared type names; every other blob is described, never
 * inlined.
 */
import type { ToolContent } from "@agent-tools/core";

/** Text of one read shown at most (UTF-8 bytes, over every content block). */
export const RESOURCE_TEXT_CAP_BYTES = 256 * 1024;
/** An image blob at or over this size (decoded bytes) is described, not shown; the images of one read share this budget too. */
export const RESOURCE_IMAGE_CAP_BYTES = 5 * 1024 * 1024;

/** One content block of a read, as `details` records it. */
export interface McpResourceContentInfo {
  uri: string;
  mimeType?: string;
  /** `text`: shown as text; `image`: shown as an image; `blob`: described only. */
  kind: "text" | "image" | "blob";
  /** Size in bytes (UTF-8 for text, decoded for blobs; for invalid base64 the length of the text). */
  bytes: number;
  /** Text bytes shown when the cap cut it. */
  shownBytes?: number;
  /** Why a blob was not shown. */
  note?: string;
}

/** A raw content block of `resources/read` (text or blob). */
export interface RawResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const IMAGE_SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (b) => b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => b.length >= 6 && ["GIF87a", "GIF89a"].includes(b.subarray(0, 6).toString("latin1")),
  "image/webp": (b) => b.length >= 12 && b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
};

/** `text` on one line: control characters (newlines included) become spaces, so a server cannot start a line of its own in a header or listing. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ");
}

/** Decodes strict base64 (no whitespace, padded); undefined when it is not valid. */
export function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  return Buffer.from(text, "base64");
}

/**
 * An image block when `data` is valid base64 of a png, jpeg, gif or webp
 * image under {@link RESOURCE_IMAGE_CAP_BYTES} whose bytes match `mimeType`;
 * otherwise the reason it is not shown.
 */
export function checkImage(data: string, mimeType: string | undefined): { image: ToolContent; bytes: number } | { note: string; bytes: number } {
  const bytes = decodeBase64(data);
  if (bytes === undefined) return { note: "its base64 is not valid", bytes: data.length };
  const type = (mimeType ?? "").toLowerCase().split(";")[0]!.trim();
  const signature = IMAGE_SIGNATURES[type];
  if (signature === undefined) return { note: "not an image type shown inline (png, jpeg, gif, webp)", bytes: bytes.length };
  if (bytes.length >= RESOURCE_IMAGE_CAP_BYTES) return { note: `an image of 5 MiB or more`, bytes: bytes.length };
  if (!signature(bytes)) return { note: `its bytes are not a ${type} image although the server says so`, bytes: bytes.length };
  return { image: { type: "image", data: bytes.toString("base64"), mimeType: type }, bytes: bytes.length };
}

/** The first `limit` bytes of `text` in UTF-8, cut before a partial character. */
function cutUtf8(bytes: Buffer, limit: number): string {
  let end = Math.min(limit, bytes.length);
  // Back off over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString("utf8");
}

/**
 * `text` within a shared budget of UTF-8 bytes: whole when it fits, else cut
 * before a partial character and followed by a note naming `what` and the
 * cap. Returns the text and the bytes it used of the budget.
 */
export function capText(text: string, budget: number, what: string): { text: string; usedBytes: number; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= budget) return { text, usedBytes: bytes.length, truncated: false };
  const shown = cutUtf8(bytes, Math.max(0, budget));
  const usedBytes = Buffer.byteLength(shown, "utf8");
  return { text: `${shown}\n[truncated: ${usedBytes} of ${bytes.length} bytes shown; ${what}]`, usedBytes, truncated: true };
}

/** What {@link mapResourceContents} returns. */
export interface MappedResourceContents {
  content: ToolContent[];
  contents: McpResourceContentInfo[];
  truncated: boolean;
}

/**
 * Maps the contents of one read: a header line `[MCP:<server>] resource <uri> (<type>)`
 * before each block, text up to {@link RESOURCE_TEXT_CAP_BYTES} in all (then
 * a note saying how much was left out), images checked by
 * {@link checkImage} and shown while the read's images stay under
 * {@link RESOURCE_IMAGE_CAP_BYTES} together, other blobs described with
 * their type and size.
 */
export function mapResourceContents(serverId: string, raw: readonly RawResourceContent[]): MappedResourceContents {
  const content: ToolContent[] = [];
  const contents: McpResourceContentInfo[] = [];
  let budget = RESOURCE_TEXT_CAP_BYTES;
  let imageBudget = RESOURCE_IMAGE_CAP_BYTES;
  let truncated = false;
  for (const item of raw) {
    const type = item.mimeType ? ` (${oneLine(item.mimeType)})` : "";
    const header = `[MCP:${serverId}] resource ${oneLine(item.uri)}${type}`;
    const base = { uri: item.uri, ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }) };
    if (typeof item.text === "string") {
      const capped = capText(item.text, budget, `a read shows at most 256 KiB of text, the rest of ${oneLine(item.uri)} is left out`);
      budget -= capped.usedBytes;
      truncated ||= capped.truncated;
      const bytes = Buffer.byteLength(item.text, "utf8");
      content.push({ type: "text", text: `${header}\n${capped.text}` });
      contents.push({ ...base, kind: "text", bytes, ...(capped.truncated ? { shownBytes: capped.usedBytes } : {}) });
      continue;
    }
    const blob = typeof item.blob === "string" ? item.blob : "";
    let checked = checkImage(blob, item.mimeType);
    if ("image" in checked && checked.bytes >= imageBudget) checked = { note: "the images of this read reached 5 MiB together", bytes: checked.bytes };
    if ("image" in checked) {
      imageBudget -= checked.bytes;
      content.push({ type: "text", text: header }, checked.image);
      contents.push({ ...base, kind: "image", bytes: checked.bytes });
      continue;
    }
    content.push({ type: "text", text: `${header}: binary, ${checked.bytes} bytes; not shown (${checked.note}).` });
    contents.push({ ...base, kind: "blob", bytes: checked.bytes, note: checked.note });
  }
  if (content.length === 0) content.push({ type: "text", text: "(the server returned no contents for this resource)" });
  return { content, contents, truncated };
}
