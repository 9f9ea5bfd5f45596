import { describe, expect, it } from "vitest";
import { splitFileLines } from "./file-lines.js";
import { inFileStyle, indentStyleOf, patchSpaceUnit } from "./indent-style.js";
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

describe("indentStyleOf and inFileStyle", () => {
  const style = (text: string) => indentStyleOf(splitFileLines(text));

  it("a spaces file, its unit the smallest indentation; blank lines of spaces do not count", () => {
    expect(style("a\n    b\n      c\n \n")).toEqual({ kind: "spaces", unit: 4 });
    expect(style("a\n  b\n    c\n")).toEqual({ kind: "spaces", unit: 2 });
    expect(style("a\n  \nb\n")).toEqual({ kind: "none", unit: 4 });
  });

  it("a tabs file, a mixed file, a file without indentation", () => {
    expect(style("a\n\tb\n\t * c\n").kind).toBe("tabs");
    expect(style("a\n\tb\n  c\n").kind).toBe("mixed");
    expect(style("a\nb\n").kind).toBe("none");
  });

  it("leading tabs become the unit's spaces in a spaces file; other lines are kept", () => {
    expect(inFileStyle("\t\tx = 1;", { kind: "spaces", unit: 2 }, 4)).toBe("    x = 1;");
    expect(inFileStyle("    x", { kind: "spaces", unit: 2 }, 4)).toBe("    x");
    expect(inFileStyle("\tx", { kind: "mixed", unit: 4 }, 4)).toBe("\tx");
    expect(inFileStyle("\tx", { kind: "none", unit: 4 }, 4)).toBe("\tx");
  });

  it("leading spaces become tabs in a tabs file (4 per tab, or the patch's smaller step)", () => {
    expect(inFileStyle("        x", { kind: "tabs", unit: 4 }, 4)).toBe("\t\tx");
    expect(inFileStyle("    x", { kind: "tabs", unit: 4 }, 2)).toBe("\t\tx");
    expect(inFileStyle("\t  x", { kind: "tabs", unit: 4 }, 4)).toBe("\t  x");
  });

  it("patchSpaceUnit: the smallest indentation of two or more spaces", () => {
    expect(patchSpaceUnit(["    a", "  b", " c", "d"])).toBe(2);
    expect(patchSpaceUnit(["a", "\tb"])).toBe(4);
  });
});
