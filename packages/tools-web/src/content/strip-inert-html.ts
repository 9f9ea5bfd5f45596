/**
 * A linear pre-pass over HTML before it is parsed: `<script>`, `<style>`,
 * `<noscript>`, `<template>` and `<svg>` elements and comments are cut out
 * as text (the converter would drop them anyway), so inline bundles and
 * data blobs do not cost parse time. An element or comment left open runs
 * to the end of the document, as the HTML parser reads it. No regular
 * expression scans the document: every search goes forward from the last
 * one, so a page of a million unclosed `<script` tags costs one pass.
 */

const INERT = ["script", "style", "noscript", "template", "svg"] as const;

/** Where each kind of inert opening next occurs (-1: nowhere after), moved forward only, so every search is one pass in all. */
function createOpeningFinder(lower: string) {
  const kinds = [{ open: "<!--", close: "-->", name: "" }, ...INERT.map((name) => ({ open: `<${name}`, close: `</${name}`, name }))];
  const positions = kinds.map(() => -2);
  const find = (index: number, from: number): number => {
    const kind = kinds[index] as (typeof kinds)[number];
    let at = lower.indexOf(kind.open, from);
    // `<scripts>` or `<svgfoo` is another element: look further.
    while (kind.name !== "" && at !== -1 && !/[\s/>]/.test(lower.charAt(at + kind.open.length))) at = lower.indexOf(kind.open, at + 1);
    return at;
  };
  return (from: number): { start: number; close: string } | undefined => {
    let best: { start: number; close: string } | undefined;
    kinds.forEach((kind, index) => {
      let at = positions[index] as number;
      if (at === -2 || (at !== -1 && at < from)) positions[index] = at = find(index, from);
      if (at !== -1 && (best === undefined || at < best.start)) best = { start: at, close: kind.close };
    });
    return best;
  };
}

/**
 * `html` without its inert elements and comments.
 *
 * @example
 * stripInertHtml("<p>a</p><script>x()</script><p>b</p>"); // "<p>a</p><p>b</p>"
 */
export function stripInertHtml(html: string): string {
  const lower = html.toLowerCase();
  const nextOpening = createOpeningFinder(lower);
  const kept: string[] = [];
  let from = 0;
  for (let opening = nextOpening(0); opening !== undefined; opening = nextOpening(from)) {
    kept.push(html.slice(from, opening.start));
    const closeAt = lower.indexOf(opening.close, opening.start + 4);
    if (closeAt === -1) return kept.join("");
    const end = opening.close === "-->" ? closeAt + 3 : lower.indexOf(">", closeAt);
    if (end === -1) return kept.join("");
    from = opening.close === "-->" ? end : end + 1;
  }
  kept.push(html.slice(from));
  return kept.join("");
}
