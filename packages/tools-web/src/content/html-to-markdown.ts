/**
 * HTML to Markdown with turndown 7.2 on its own DOM (@mixmark-io/domino,
 * pure JavaScript, no native build): scripts, styles, noscript, iframes,
 * forms and other non-content elements dropped, the title kept, and
 * relative links and images made absolute against the page's URL (or its
 * `<base href>`). Linear pre-passes bound what the parser gets (inert
 * elements cut out, the size and the nesting depth capped); the parse and
 * conversion run in a worker the call's signal ends.
 */
import { ToolError } from "@agent-tools/core";
import { convertHtmlInWorker } from "./html-conversion-worker.js";
import { HTML_MAX_NESTING, nestingCutIndex } from "./limit-nesting.js";
import { stripInertHtml } from "./strip-inert-html.js";

/**
 * Characters of HTML converted at most (after scripts, styles and comments
 * are cut out): parsing and converting take about 4 to 9 s per MiB of dense
 * markup, so a larger page is cut here.
 */
export const HTML_CONVERT_MAX_CHARS = 1024 * 1024;

/** Elements that carry no readable content (or run code) and are dropped with everything inside. */
const DROPPED = "script, style, noscript, iframe, frame, frameset, object, embed, template, svg, canvas, form, button, select, input, textarea, link, meta";

/** The Markdown of a page and its title. */
export interface ConvertedHtml {
  readonly title: string | undefined;
  readonly markdown: string;
  /** Why the HTML was cut before conversion: past {@link HTML_CONVERT_MAX_CHARS}, or nested deeper than `HTML_MAX_NESTING`. */
  readonly cut: "size" | "nesting" | undefined;
}

/**
 * Converts an HTML page to Markdown. Rejects with the signal's reason when
 * it aborts, and with `ToolError` `unsupported_target` when the page cannot
 * be converted (e.g. it needs more memory than the worker has).
 *
 * @example
 * (await htmlToMarkdown("<h1>Hi</h1><a href='/x'>x</a>", new URL("https://example.com/a/"), signal)).markdown;
 * // "# Hi\n\n[x](https://example.com/x)"
 */
export async function htmlToMarkdown(html: string, pageUrl: URL, signal: AbortSignal): Promise<ConvertedHtml> {
  let text = stripInertHtml(html);
  let cut: ConvertedHtml["cut"];
  if (text.length > HTML_CONVERT_MAX_CHARS) {
    text = text.slice(0, HTML_CONVERT_MAX_CHARS);
    cut = "size";
  }
  const deepAt = nestingCutIndex(text, HTML_MAX_NESTING);
  if (deepAt !== undefined) {
    text = text.slice(0, deepAt);
    cut = "nesting";
  }
  try {
    const { title, markdown } = await convertHtmlInWorker(text, pageUrl, DROPPED, signal);
    return { title, markdown, cut };
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ToolError("unsupported_target", `the HTML of ${pageUrl.href} could not be converted (${(error as Error).message}).`, {
      details: { url: pageUrl.href },
    });
  }
}
