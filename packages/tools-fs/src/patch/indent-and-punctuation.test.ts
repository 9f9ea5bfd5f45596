import { describe, expect, it } from "vitest";
import { indentTransformOf, reindentLine } from "./indent-transform.js";
import { normalisePunctuation } from "./unicode-punctuation.js";

const bytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

describe("normalisePunctuation", () => {
  it("maps curly quotes, dashes, Unicode spaces and the ellipsis to ASCII", () => {
    expect(normalisePunctuation(bytes("‘a’ ‚b‛ “c” „d‟"))).toBe("'a' 'b' \"c\" \"d\"");
    expect(normalisePunctuation(bytes("a‐b‑c‒d–e—f―g−h"))).toBe("a-b-c-d-e-f-g-h");
    expect(normalisePunctuation(bytes("a\u00a0b\u2002c\u2009d\u202fe\u205ff\u3000g"))).toBe("a b c d e f g");
    expect(normalisePunctuation(bytes("wait…"))).toBe("wait...");
  });

  it("keeps other bytes, including other non-ASCII text and invalid UTF-8", () => {
    expect(normalisePunctuation(bytes("café € 日本"))).toBe(bytes("café € 日本"));
    expect(normalisePunctuation("\xff\xe2\x80")).toBe("\xff\xe2\x80");
    expect(normalisePunctuation("plain ascii")).toBe("plain ascii");
  });
});

describe("indentTransformOf and reindentLine", () => {
  it("no change", () => {
    const transform = indentTransformOf([["  a", "  a"]])!;
    expect(reindentLine("  b", transform)).toBe("  b");
  });

  it("a uniform added prefix", () => {
    const transform = indentTransformOf([
      ["    a", "a"],
      ["      b", "  b"],
    ])!;
    expect(reindentLine("  c", transform)).toBe("      c");
  });

  it("an inconsistent shift has no transform", () => {
    expect(
      indentTransformOf([
        ["    a", "a"],
        ["  b", "  b"],
      ]),
    ).toBeNull();
  });

  it("the patch's spaces as the file's tabs (4 columns), added lines in tabs", () => {
    const transform = indentTransformOf([
      ["\tif x {", "    if x {"],
      ["\t\ty()", "        y()"],
    ])!;
    expect(transform.convert).toBe("tabs");
    expect(reindentLine("        z()", transform)).toBe("\t\tz()");
    expect(reindentLine("", transform)).toBe("");
  });

  it("the patch's tabs as the file's spaces (2 columns)", () => {
    const transform = indentTransformOf([
      ["  a:", "\ta:"],
      ["    b", "\t\tb"],
    ])!;
    expect(reindentLine("\t\tc", transform)).toBe("    c");
  });

  it("a removed prefix missing from an added line: null", () => {
    const transform = indentTransformOf([["a", "    a"]])!;
    expect(reindentLine("  b", transform)).toBeNull();
  });
});
