/**
 * A fetched body as text for the model, by content type: HTML as Markdown,
 * JSON pretty-printed, other text as it is, PDF through the host's
 * `pdfText`; any other binary type refused, naming it.
 */
import { ToolError } from "@agent-tools/core";
import { htmlToMarkdown } from "./html-to-markdown.js";

/** Extracts the text of a PDF (the SDK wires tools-fs's PDF reader). */
export type PdfText = (bytes: Uint8Array, signal: AbortSignal) => Promise<string>;

/** How the body was turned into text. */
export type WebContentFormat = "markdown" | "json" | "text" | "pdf";

/** The text of a page. */
export interface ConvertedContent {
  readonly format: WebContentFormat;
  readonly text: string;
  readonly title?: string;
  /** Why the HTML was cut before conversion: its size, or its nesting depth. */
  readonly htmlCut?: "size" | "nesting";
}

/** What {@link convertContent} needs. */
export interface ConvertRequest {
  readonly body: Buffer;
  /** The Content-Type header as sent, if any. */
  readonly contentType: string | undefined;
  readonly url: URL;
  /** True when the body was cut at the byte cap. */
  readonly truncated: boolean;
  readonly pdfText: PdfText | undefined;
  readonly signal: AbortSignal;
}

const TEXT_TYPES = /^(text\/|application\/(xml|javascript|ecmascript|x-javascript|yaml|x-yaml|toml|x-toml|x-sh|x-ndjson|graphql|sql)$)|\+xml$|\+yaml$/;
const JSON_TYPES = /^application\/(json|ld\+json|manifest\+json)$|\+json$/;

/** The media type (lower case, without parameters) and the charset parameter. */
export function parseContentType(header: string | undefined): { mediaType: string | undefined; charset: string | undefined } {
  if (header === undefined || header.trim() === "") return { mediaType: undefined, charset: undefined };
  const [type, ...parameters] = header.split(";");
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(parameter)?.[1]).find((value) => value !== undefined);
  return { mediaType: type?.trim().toLowerCase(), charset: charset?.toLowerCase() };
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label: UTF-8, with replacement characters where it does not fit.
    return new TextDecoder("utf-8").decode(body);
  }
}

/** True when the bytes look like text (no NUL in the first 8 KiB and valid UTF-8 there, but for a cut last character). */
function looksLikeText(body: Buffer): boolean {
  const head = body.subarray(0, 8192);
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.length < body.length ? head.subarray(0, Math.max(0, head.length - 4)) : head);
    return true;
  } catch {
    return false;
  }
}

/**
 * Converts a fetched body. Throws `ToolError` `unsupported_target` for a
 * binary type (or a PDF without `pdfText`) and `too_large` for a PDF cut at
 * the byte cap (a partial PDF cannot be read).
 */
export async function convertContent(request: ConvertRequest): Promise<ConvertedContent> {
  const { mediaType, charset } = parseContentType(request.contentType);
  const sniffedHtml = mediaType === undefined && /^\s*(<!doctype html|<html)/i.test(request.body.subarray(0, 1024).toString("latin1"));
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml" || sniffedHtml) {
    const { title, markdown, cut } = await htmlToMarkdown(decode(request.body, charset), request.url, request.signal);
    return { format: "markdown", text: markdown, ...(title === undefined ? {} : { title }), ...(cut === undefined ? {} : { htmlCut: cut }) };
  }
  if (mediaType !== undefined && JSON_TYPES.test(mediaType)) {
    const text = decode(request.body, charset);
    try {
      return { format: "json", text: JSON.stringify(JSON.parse(text), null, 2) };
    } catch {
      // Cut at the cap, or not JSON after all: the text as sent.
      return { format: "text", text };
    }
  }
  if (mediaType === "application/pdf" || (mediaType === undefined && request.body.subarray(0, 5).toString("latin1") === "%PDF-")) {
    if (request.pdfText === undefined) {
      throw new ToolError("unsupported_target", `${request.url.href} is a PDF, and this host reads no PDFs in WebFetch.`, {
        details: { contentType: request.contentType ?? "application/pdf" },
      });
    }
    if (request.truncated) {
      throw new ToolError("too_large", `${request.url.href} is a PDF larger than max_bytes; a cut PDF cannot be read. Retry with a larger max_bytes.`, {
        details: { contentType: request.contentType ?? "application/pdf" },
      });
    }
    return { format: "pdf", text: await request.pdfText(new Uint8Array(request.body), request.signal) };
  }
  if ((mediaType !== undefined && TEXT_TYPES.test(mediaType)) || (mediaType === undefined && looksLikeText(request.body))) {
    return { format: "text", text: decode(request.body, charset) };
  }
  throw new ToolError(
    "unsupported_target",
    `${request.url.href} is ${mediaType === undefined ? "binary content without a content type" : `${mediaType}`}, which WebFetch does not read (HTML, JSON, text and PDF only).`,
    { details: { contentType: request.contentType ?? null } },
  );
}
