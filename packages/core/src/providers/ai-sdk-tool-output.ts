import type { ToolResult } from "../types.js";

/** The AI SDK major versions {@link toAiSdkToolResultOutput} renders for. */
export type AiSdkMajorVersion = 5 | 6 | 7;

/** A text part of `content` tool output (every AI SDK version). */
export interface AiSdkTextPart {
  type: "text";
  text: string;
}

/** An image or file part as AI SDK 5 reads it (`media`; deprecated in 6, gone in 7). */
export interface AiSdk5MediaPart {
  type: "media";
  data: string;
  mediaType: string;
}

/** An image or file part as AI SDK 6 reads it (`file-data`; deprecated in 7). */
export interface AiSdk6FileDataPart {
  type: "file-data";
  data: string;
  mediaType: string;
}

/** An image or file part as AI SDK 7 reads it (`file` with tagged data). */
export interface AiSdk7FilePart {
  type: "file";
  data: { type: "data"; data: string };
  mediaType: string;
}

/** The image part each version reads without a deprecation warning. */
export type AiSdkFilePart = AiSdk5MediaPart | AiSdk6FileDataPart | AiSdk7FilePart;

/**
 * What a tool result becomes for the model: the subset of `ToolResultOutput`
 * that AI SDK 5, 6 and 7 all accept, so the adapter type-checks as a
 * `ToolSet` with each. At run time a `content` value also holds image parts
 * in the shape of the calling version ({@link AiSdkFilePart}); the versions
 * share no image part type, so the declared element type names text only.
 */
export type AiSdkToolResultOutput = { type: "text"; value: string } | { type: "error-text"; value: string } | { type: "content"; value: AiSdkTextPart[] };

/**
 * Renders a registry result as AI SDK tool output: its text (`error-text`
 * when `isError`), or `content` with text and image parts when a successful
 * result holds images. Images use the file part of `version`: `media` for 5,
 * `file-data` for 6 (the default), `file` with `{ type: "data" }` for 7.
 *
 * @example
 * toAiSdkToolResultOutput(result, 7); // { type: "content", value: [{ type: "file", data: { type: "data", data }, mediaType }] }
 */
export function toAiSdkToolResultOutput(result: ToolResult, version: AiSdkMajorVersion = 6): AiSdkToolResultOutput {
  const hasImage = result.content.some((part) => part.type === "image");
  if (hasImage && !result.isError) {
    const value = result.content.map((part): AiSdkTextPart | AiSdkFilePart =>
      part.type === "text" ? { type: "text", text: part.text } : toFilePart(part.data, part.mimeType, version),
    );
    // The declared type is the cross-version subset; the parts are this version's own.
    return { type: "content", value: value as AiSdkTextPart[] };
  }
  const text = result.content
    .filter((part): part is Extract<typeof part, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("\n");
  return result.isError ? { type: "error-text", value: text } : { type: "text", value: text };
}

function toFilePart(data: string, mediaType: string, version: AiSdkMajorVersion): AiSdkFilePart {
  if (version === 5) return { type: "media", data, mediaType };
  if (version === 6) return { type: "file-data", data, mediaType };
  return { type: "file", data: { type: "data", data }, mediaType };
}
