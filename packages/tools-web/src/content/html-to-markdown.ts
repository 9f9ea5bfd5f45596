/**
 * HTML to Markdown with turndown 7.2 on its own DOM (@mixmark-io/domino,
 * pure JavaScript, no native build): scripts, styles, noscript, iframes,
 * forms and other non-content elements dropped, the title kept, and
 * relative links and images made absolute against the page's URL (or its
 * `<base href>`).
 */
import { createRequire } from "node:module";
import TurndownService from "turndown";
import { HTML_MAX_NESTING, nestingCutIndex } from "./limit-nesting.js";
import { stripInertHtml } from "./strip-inert-html.js";

/**
 * Characters of HTML converted at most (after scripts, styles and comments
 * are cut out): parsing and converting run synchronously at about 4 s per
 * MiB of dense markup, so a larger page is cut here, not after minutes.
 */
export const HTML_CONVERT_MAX_CHARS = 1024 * 1024;

/** The part of domino's DOM used here (the package's own types declare another module name). */
interface MiniElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  remove(): void;
}
interface MiniDocument {
  readonly title: string;
  readonly body: unknown;
  querySelectorAll(selector: string): Iterable<MiniElement>;
  querySelector(selector: string): MiniElement | null;
}

const require = createRequire(import.meta.url);
const domino = require("@mixmark-io/domino") as { createDocument(html: string, force?: boolean): MiniDocument };

/** Elements that carry no readable content (or run code) and are dropped with everything inside. */
const DROPPED = "script, style, noscript, iframe, frame, frameset, object, embed, template, svg, canvas, form, button, select, input, textarea, link, meta";

/** The Markdown of a page and its title. */
export interface ConvertedHtml {
  readonly title: string | undefined;
  readonly markdown: string;
  /** Why the HTML was cut before conversion: past {@link HTML_CONVERT_MAX_CHARS}, or nested deeper than `HTML_MAX_NESTING`. */
  readonly cut: "size" | "nesting" | undefined;
}

function absolute(value: string, base: URL): string | undefined {
  try {
    const url = new URL(value, base);
    // A javascript: or data: link is no place to go; keep its text only.
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Converts an HTML page to Markdown.
 *
 * @example
 * htmlToMarkdown("<h1>Hi</h1><a href='/x'>x</a>", new URL("https://example.com/a/")).markdown;
 * // "# Hi\n\n[x](https://example.com/x)"
 */
export function htmlToMarkdown(html: string, pageUrl: URL): ConvertedHtml {
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
  const document = domino.createDocument(text, true);
  let base = pageUrl;
  const baseHref = document.querySelector("base[href]")?.getAttribute("href");
  if (baseHref) {
    const resolved = absolute(baseHref, pageUrl);
    if (resolved !== undefined) base = new URL(resolved);
  }
  const title = document.title.trim() || undefined;
  for (const element of [...document.querySelectorAll(DROPPED)]) element.remove();
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const resolved = absolute(element.getAttribute(attribute) ?? "", base);
      if (resolved === undefined) element.setAttribute(attribute, "");
      else element.setAttribute(attribute, resolved);
    }
  }
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_" });
  // A link left without a target is its text; an image without one is its alt text.
  service.addRule("emptyLink", {
    filter: (node) => node.nodeName === "A" && node.getAttribute("href") === "",
    replacement: (content) => content,
  });
  service.addRule("emptyImage", {
    filter: (node) => node.nodeName === "IMG" && node.getAttribute("src") === "",
    replacement: (_content, node) => (node as unknown as MiniElement).getAttribute("alt") ?? "",
  });
  const markdown = service
    .turndown(document.body as never)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown, cut };
}
