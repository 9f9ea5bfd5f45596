/**
 * A linear scan that finds where HTML nests deeper than a limit, so the
 * page can be cut there before it is parsed: the DOM and the converter
 * recurse per level (15,000 nested `<div>`s took seconds, 20,000 overflowed
 * the stack) and run synchronously, beyond the reach of the time cap.
 * Elements whose end tag is optional (`p`, `li`, `td`, ...) and void
 * elements (`br`, `img`, ...) are not counted, since the parser closes them
 * itself; any other opening tag counts one level until its end tag.
 */

/** Levels of nesting converted at most. */
export const HTML_MAX_NESTING = 256;

const UNCOUNTED = new Set([
  // Void elements.
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
  "keygen",
  // Elements the parser closes by itself.
  "p",
  "li",
  "td",
  "th",
  "tr",
  "dt",
  "dd",
  "option",
  "optgroup",
  "thead",
  "tbody",
  "tfoot",
  "colgroup",
  "caption",
  "rb",
  "rt",
  "rtc",
  "rp",
  "html",
  "head",
  "body",
]);

const NAME_START = /[a-z]/i;

/**
 * The `>` that ends a tag whose attributes start at `from`, skipping quoted
 * attribute values (a quote counts only right after `=`, as the parser
 * reads it: `<div a='></div>'>` is one tag), or undefined when the tag or a
 * value never ends (the parser then reads the rest of the page into it).
 */
function tagEnd(html: string, from: number): number | undefined {
  let at = from;
  while (at < html.length) {
    const char = html.charAt(at);
    if (char === ">") return at;
    if (char === "=") {
      let value = at + 1;
      while (/\s/.test(html.charAt(value))) value += 1;
      const quote = html.charAt(value);
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, value + 1);
        if (close === -1) return undefined;
        at = close + 1;
        continue;
      }
      at = value;
      continue;
    }
    at += 1;
  }
  return undefined;
}

/**
 * The index of the tag where nesting passes `maxDepth`, or undefined when
 * it never does.
 *
 * @example
 * nestingCutIndex("<div><div>x</div></div>", 1); // 5
 */
export function nestingCutIndex(html: string, maxDepth = HTML_MAX_NESTING): number | undefined {
  let depth = 0;
  for (let at = html.indexOf("<"); at !== -1; ) {
    const closing = html.charAt(at + 1) === "/";
    const nameStart = closing ? at + 2 : at + 1;
    if (!NAME_START.test(html.charAt(nameStart))) {
      at = html.indexOf("<", at + 1);
      continue;
    }
    let nameEnd = nameStart;
    while (nameEnd < html.length && !/[\s/>]/.test(html.charAt(nameEnd))) nameEnd += 1;
    const end = tagEnd(html, nameEnd);
    if (end === undefined) return undefined;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    if (!UNCOUNTED.has(name)) {
      if (closing) depth = Math.max(0, depth - 1);
      else if (html.charAt(end - 1) !== "/") {
        depth += 1;
        if (depth > maxDepth) return at;
      }
    }
    at = html.indexOf("<", end + 1);
  }
  return undefined;
}
