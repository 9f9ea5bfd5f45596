/**
 * The assistant's Markdown as safe HTML for the chat page.
 *
 * Two layers, each enough on its own for the cases the page cares about:
 * - markdown-it with `html: false`: raw HTML in the model's text (`<img
 *   onerror>`, `<script>`) is escaped and shows as text, and its link check
 *   refuses `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs
 *   (such a link stays as plain text);
 * - DOMPurify over the result, allowing only the tags Markdown produces and
 *   `href`/`title`/`class` attributes, with every link forced to open in a new
 *   tab with `rel="noopener noreferrer"`. Images are not rendered (a model's
 *   image URL would make the page fetch whatever it names).
 */
import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";

const ALLOWED_TAGS = [
  "p",
  "br",
  "hr",
  "strong",
  "em",
  "s",
  "del",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
];

const ALLOWED_ATTR = ["href", "title", "class", "start", "target", "rel"];

/** Only web and mail links survive; relative and fragment links too (they stay on the page's origin). */
const SAFE_URL = /^(?:https?:|mailto:|#|\/(?!\/)|\.{1,2}\/)/i;

/** The parser and sanitiser, built once per page by {@link createMarkdownRenderer}. */
export interface MarkdownRenderer {
  /** Sanitised HTML of `text`. */
  render(text: string): string;
}

/**
 * Builds a renderer on `window`'s DOM (DOMPurify needs one).
 *
 * @example
 * const markdown = createMarkdownRenderer(window);
 * element.innerHTML = markdown.render("**hi** [docs](https://example.org)");
 */
export function createMarkdownRenderer(view: Window & typeof globalThis): MarkdownRenderer {
  const parser = new MarkdownIt({ html: false, linkify: true, breaks: true });
  parser.disable(["image"]);
  const purify = DOMPurify(view);
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName !== "A") return;
    const href = node.getAttribute("href") ?? "";
    if (!SAFE_URL.test(href.trim())) node.removeAttribute("href");
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  });
  return {
    render: (text) => purify.sanitize(parser.render(text), { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false }),
  };
}
