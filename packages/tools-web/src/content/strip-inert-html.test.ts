import { describe, expect, it } from "vitest";
import { stripInertHtml } from "./strip-inert-html.js";

describe("stripInertHtml", () => {
  it.each([
    ["<p>a</p><script>x()</script><p>b</p>", "<p>a</p><p>b</p>"],
    ["<p>a</p><SCRIPT type=module>x()</ScRiPt ><p>b</p>", "<p>a</p><p>b</p>"],
    ["<style>p{}</style><p>a</p><!-- note --><p>b</p>", "<p>a</p><p>b</p>"],
    ["<svg viewBox='0 0 1 1'><text>icon</text></svg><p>a</p>", "<p>a</p>"],
    ["<scripts>kept</scripts><svgx>kept</svgx>", "<scripts>kept</scripts><svgx>kept</svgx>"],
    ["<p>a</p><script>never closed <p>b</p>", "<p>a</p>"],
    ["<p>a</p><!-- never closed <p>b</p>", "<p>a</p>"],
    ["<noscript><p>enable js</p></noscript><template><p>t</p></template><p>a</p>", "<p>a</p>"],
  ])("%s", (html, expected) => {
    expect(stripInertHtml(html)).toBe(expected);
  });

  it("stays linear on a page of unclosed openings and of many comments", () => {
    const unclosed = "<script>".repeat(200_000);
    expect(stripInertHtml(`<p>a</p>${unclosed}`)).toBe("<p>a</p>");
    const lookalikes = "<scriptx><svgs>".repeat(200_000);
    expect(stripInertHtml(lookalikes)).toBe(lookalikes);
    const comments = "<!--c--><p>x</p>".repeat(200_000);
    expect(stripInertHtml(comments)).toBe("<p>x</p>".repeat(200_000));
  });
});
