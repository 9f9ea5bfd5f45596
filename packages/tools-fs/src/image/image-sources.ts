import { ToolError } from "@agent-tools/core";

/** Sources per Image call, at most. */
export const MAX_IMAGE_SOURCES = 12;

/** How one source was given. */
export type ImageSourceType = "path" | "url" | "base64" | "svg";

/** One collected source. */
export interface ImageSource {
  type: ImageSourceType;
  value: string;
}

/** The raw source arguments of Image. */
export interface ImageSourceInput {
  path?: string;
  paths?: string[];
  url?: string;
  urls?: string[];
  base64?: string;
  base64s?: string[];
  source?: string;
  sources?: string[];
}

const BASE64_MAGIC = ["iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "Qk", "AAABAA", "PHN2Z", "PD94bWwg"];

/** Infers the type of a free-form `source` value. */
export function inferSourceType(value: string): ImageSourceType {
  const trimmed = value.trim();
  if (/^data:image\//i.test(trimmed)) return "base64";
  if (/^https?:\/\//i.test(trimmed)) return "url";
  if (BASE64_MAGIC.some((magic) => trimmed.startsWith(magic)) && /^[A-Za-z0-9+/=\s]+$/.test(trimmed.slice(0, 256))) return "base64";
  if (/^<svg[\s>]/i.test(trimmed) || /^<\?xml/i.test(trimmed)) return "svg";
  return "path";
}

/**
 * Collects sources in a fixed order: sources/source, paths/path,
 * urls/url, base64s/base64 (a plural replaces its singular).
 */
export function collectImageSources(input: ImageSourceInput): ImageSource[] {
  const pick = (plural: string[] | undefined, singular: string | undefined) => (plural?.length ? plural : singular !== undefined ? [singular] : []);
  const out: ImageSource[] = [];
  for (const value of pick(input.sources, input.source)) out.push({ type: inferSourceType(value), value });
  for (const value of pick(input.paths, input.path)) out.push({ type: "path", value });
  for (const value of pick(input.urls, input.url)) out.push({ type: "url", value });
  for (const value of pick(input.base64s, input.base64)) out.push({ type: "base64", value });
  if (out.length === 0) throw new ToolError("invalid_arguments", "Image requires path, paths, url, urls, base64, base64s, source, or sources.");
  if (out.length > MAX_IMAGE_SOURCES)
    throw new ToolError(
      "invalid_arguments",
      `Image supports at most ${MAX_IMAGE_SOURCES} sources per call (got ${out.length}); split them over several calls.`,
    );
  return out;
}

/** Checks a URL for proxy display: http(s), no credentials. */
export function checkImageUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ToolError("invalid_arguments", `Image url "${shorten(value)}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ToolError("invalid_arguments", `Image url "${shorten(value)}" must use http or https.`);
  if (url.username || url.password) throw new ToolError("invalid_arguments", "Image urls must not contain credentials (user:password@).");
  return url.toString();
}

/** Decodes base64 or a data URL into bytes and the MIME type the data URL names. */
export function decodeBase64Image(value: string): { bytes: Buffer; mimeType?: string } {
  const trimmed = value.trim();
  const dataUrl = /^data:([^;,]+)(;base64)?,(.*)$/is.exec(trimmed);
  if (dataUrl) {
    const payload = dataUrl[3]!;
    return { bytes: dataUrl[2] ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "utf8"), mimeType: dataUrl[1]!.toLowerCase() };
  }
  const compact = trimmed.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length === 0)
    throw new ToolError("invalid_arguments", "Image base64 data is not valid base64 (or a data:image/...;base64, URL).");
  return { bytes: Buffer.from(compact, "base64") };
}

/** At most 200 characters of a caller's value for a message, then its length. */
function shorten(value: string): string {
  return value.length <= 200 ? value : `${value.slice(0, 200)}...(${value.length} chars)`;
}
