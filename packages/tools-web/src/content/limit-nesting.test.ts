import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "./html-to-markdown.js";
import { nestingCutIndex } from "./limit-nesting.js";

describe("nestingCutIndex", () => {
  it.each([
    ["<div><div>x</div></div>", 1, 5],
    ["<div><div>x</div></div>", 2, undefined],
    ["<div></div><div></div><div></div>", 1, undefined],
    ["<p>a<p>b<p>c<li>d<li>e<br><img src=x>", 1, undefined],
    ["<span/><span/><span/>", 1, undefined],
    ["<div class='a>b'><section>", 1, 17],
    ["<div a='></div>'><div a=\"></div>\">", 1, 17],
    ["<div '><div '>", 1, 7],
    ["a < b and 1<2 <!-- x --> </ notatag>", 1, undefined],
    ["<div><unclosed", 1, undefined],
  ])("%s at depth %i: %s", (html, depth, expected) => {
    expect(nestingCutIndex(html, depth)).toBe(expected);
  });
});

describe("deeply nested HTML", () => {
  it("is cut at 256 levels and converts at once (200,000 nested divs: the parser and converter recurse per level)", async () => {
    const html = `<html><head><title>Deep</title></head><body><p>before</p>${"<div>".repeat(200_000)}deep text</body></html>`;
    const converted = await htmlToMarkdown(html, new URL("https://example.com/"), new AbortController().signal);
    expect(converted.cut).toBe("nesting");
    expect(converted.title).toBe("Deep");
    expect(converted.markdown).toContain("before");
    expect(converted.markdown).not.toContain("deep text");
  });

  it("keeps a page nested 200 levels whole", async () => {
    const html = `<body>${"<div>".repeat(200)}inside${"</div>".repeat(200)}<p>after</p></body>`;
    const converted = await htmlToMarkdown(html, new URL("https://example.com/"), new AbortController().signal);
    expect(converted.cut).toBeUndefined();
    expect(converted.markdown).toContain("inside");
    expect(converted.markdown).toContain("after");
  });
});
